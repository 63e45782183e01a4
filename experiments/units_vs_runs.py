"""What a coverage study's units do per instruction against its continuous runs (docs/sampling.md,
"The phases' starts, sampled on the grid": what poa's -2 % is not). For each case of a study
(experiments/coverage.sh OUT): LLC misses and page walks per 1 000 instructions, a walk's mean
time, AMAT and its unloaded part, in the units' windows (those in the estimate, summed) and in the
continuous runs (their mean).

With `--same-stretches OTHER` (another study of the same cases, its units led by another warm-up:
`WARMUP=200000 SAMPLED_ONLY=1 ... coverage.sh` on a copy), each unit measuring the same multiple of
the spacing in both is paired instead: the spread of their IPC ratios (OTHER over OUT) and its mean.

With `--counters STATS` (a continuous run's stats.json, `run ... --out DIR`, over the case's stretch),
one case's units' counters against that run's, per 1 000 instructions: the cores' cycles, cache hits
and misses, LLC writebacks and stalls, page walks (STLB misses) and their summed time, the memories'
reads and writes and a read's mean wait, the homes' GetM, PutM and PutE, the levels the walks read
their entries from, the trackers' traffic; and a walk's mean ns and its LLC misses' (`walk_miss_ns`) (docs/sampling.md, "A window ends at
its last dispatch"). `--unit P.U` takes one unit's window (of phase P, unit U) in place of all, and a
second stats.json (`--counters STATS WINDOW`: a window run by hand, `run --checkpoint ... --out`) takes
its place; with `--per-socket COUNTER`, that counter per 1 000 of each socket's instructions, socket
by socket (docs/sampling.md, "poa's 200 K bias is where its threads are"); with `--links N`, the N
link directions where the run's messages wait longest: messages per us, utilisation and a
message's mean wait, units against run (docs/sampling.md, "The units' fast walks are socket 0's link").

With `--per-window`, each unit's window in the estimate, in the order they measure: the mean thread's
instruction it measures from, its IPC, and its LLC misses, writebacks, walks per 1 000 instructions,
a walk's mean ns and its LLC misses' mean ns (the statistics tree each window's stats.json keeps).

With `--counters-all`, every case whose first draw's run with the pass's moves kept its statistics
(experiments/coverage.sh keeps them in CASE/counters): the units' cycles, L2 hits, LLC hits, LLC
misses and page walks per instruction and a walk's mean ns over that run's, one row a case
(docs/sampling.md, "Both studies again": the windows' private L2s start empty; "The stretch
boundary 1 starts": the units' walks are faster).

    python3 experiments/units_vs_runs.py OUT [CASE...] [--reference continuous|as-pass]
    python3 experiments/units_vs_runs.py OUT [CASE...] --same-stretches OTHER
    python3 experiments/units_vs_runs.py OUT CASE --counters STATS [WINDOW] [--unit P.U] [--per-socket COUNTER]
    python3 experiments/units_vs_runs.py OUT CASE --counters STATS [WINDOW] [--unit P.U] --links N
    python3 experiments/units_vs_runs.py OUT [CASE...] --per-window
    python3 experiments/units_vs_runs.py OUT [CASE...] --counters-all
"""
import collections
import json
import pathlib
import statistics
import sys

import boundary_strata
import coverage_table


def per_instruction(runs: list[dict]) -> dict[str, float]:
    """LLC misses and walks per 1 000 instructions, a walk's mean ns, AMAT and its unloaded part."""
    instructions = sum(r["instructions"] for r in runs)
    accesses = [sum(r["memory_accesses"].values()) for r in runs]
    walks = sum(r["page_walks"]["walks"] for r in runs)
    return {"llc_mpki": 1000 * sum(r["llc_misses"] for r in runs) / instructions,
            "walks_pki": 1000 * walks / instructions,
            "walk_ns": sum(r["page_walks"]["walks"] * r["page_walks"]["mean_ns"] for r in runs) / walks if walks else 0,
            "amat_ns": sum(a * r["amat_ns"] for a, r in zip(accesses, runs)) / sum(accesses),
            "unloaded_ns": sum(a * r["amat_unloaded_ns"] for a, r in zip(accesses, runs)) / sum(accesses)}


def measures_from(case: pathlib.Path) -> dict[tuple[int, int], int]:
    """The mean thread's instruction each unit (phase, unit) measures from: its checkpoint's clock
    and the windows' warm-up."""
    manifest = json.loads((case / "manifest.json").read_text())
    warmup = json.loads((case / "sampled.json").read_text())["warmup_per_window"]
    return {(u["phase"], u["unit"]): u["clock_instructions"] + warmup for u in manifest["units"]}


def unit_ipcs(case: pathlib.Path) -> dict[int, float]:
    """Each unit's IPC by the multiple of the spacing it measures from."""
    sampled = json.loads((case / "sampled.json").read_text())
    every = json.loads((case / "manifest.json").read_text())["unit_every"]
    start = measures_from(case)
    return {round(start[w["checkpoint_phase"], w["checkpoint_unit"]] / every): w["ipc"]
            for w in boundary_strata.windows(case, sampled)}


CORE_COUNTERS = ("cycles", "l2_hits", "llc_hits", "llc_misses", "writebacks", "rob_stalls", "mshr_stalls",
                 "store_buffer_stalls", "stlb_misses", "walk_latency_ps", "walk_reads", "walk_l1_hits",
                 "walk_l2_hits", "walk_llc_hits", "walk_llc_misses", "walk_miss_latency_ps")
TRACKING_COUNTERS = ("flushes", "tracker_reads", "tracker_writes", "metadata_llc_hits", "core_stall_cycles")
HOME_COUNTERS = ("socket_home_getm", "socket_home_putm", "socket_home_pute")


def counters(stats: list[dict], socket: str | None = None) -> dict[str, float]:
    """The cores', memories', trackers' (`tracking_...`) and homes' counters of runs' stats.json
    trees, summed, per 1 000 of the cores' instructions; `read_ns`, a memory read's mean wait. With a
    socket, that node's alone, and no homes' (theirs are the whole machine's)."""
    total, read_ns = collections.Counter(), 0.0
    for tree in stats:
        for name, node in tree["nodes"].items():
            if socket is not None and name != socket:
                continue
            for part, c in node.items():
                if part.startswith("core"):
                    total.update({k: c.get(k, 0) for k in ("instructions", *CORE_COUNTERS)})
            if "memory" in node:
                m = node["memory"]
                total.update({"memory_reads": m["reads"], "memory_writes": m["writes"]})
                read_ns += m["read_latency"]["mean"] * m["read_latency"]["count"]
            if "tracking" in node:
                total.update({f"tracking_{k}": node["tracking"].get(k, 0) for k in TRACKING_COUNTERS})
        if socket is None:
            total.update({k: tree.get("coherence", {}).get(k, 0) for k in HOME_COUNTERS})
    if not total["instructions"]:
        sys.exit(f"no core of {socket or 'any socket'} ran an instruction in these statistics")
    per = {k: 1000 * v / total["instructions"] for k, v in total.items() if k != "instructions"}
    per["read_ns"] = read_ns / total["memory_reads"] if total["memory_reads"] else 0.0
    per["walk_ns"] = total["walk_latency_ps"] / 1000 / total["stlb_misses"] if total["stlb_misses"] else 0.0
    misses = total["walk_llc_misses"]
    per["walk_miss_ns"] = total["walk_miss_latency_ps"] / 1000 / misses if misses else 0.0
    return per


ALL_COUNTERS = ("cycles", "l2_hits", "llc_hits", "llc_misses", "stlb_misses", "walk_ns")


def unit_windows(case: pathlib.Path, unit: str | None = None) -> list[dict]:
    """The case's units' windows in the estimate, or the one of `unit` ("P.U": phase P, unit U)."""
    found = boundary_strata.windows(case, json.loads((case / "sampled.json").read_text()))
    if unit is not None:
        found = [w for w in found if f"{w['checkpoint_phase']}.{w['checkpoint_unit']}" == unit]
        if not found:
            sys.exit(f"{case.name}: no window of unit {unit} in the estimate (units are named PHASE.UNIT)")
    missing = [w for w in found if "stats" not in w]
    if missing:
        sys.exit(f"{case.name}: {len(missing)} windows kept no statistics tree (their stats.json has no 'stats')")
    return found


def units_counters(case: pathlib.Path) -> dict[str, float]:
    return counters([w["stats"] for w in unit_windows(case)])


def sockets(tree: dict) -> list[str]:
    return sorted((n for n in tree["nodes"] if n.startswith("socket")), key=lambda n: int(n[len("socket"):]))


def per_socket(case: pathlib.Path, units: list[dict], run: dict, counter: str) -> int:
    print(f"| {case.name}: {counter} per 1 000 of the socket's instructions | units | run | units / run |")
    print("|---|---|---|---|")
    for socket in sockets(run):
        u, r = counters(units, socket), counters([run], socket)
        if counter not in r:
            sys.exit(f"no counter {counter!r}; there are: {', '.join(sorted(r))}")
        print(f"| {socket} | {u[counter]:.3f} | {r[counter]:.3f} | {u[counter] / r[counter] if r[counter] else float('nan'):.3f} |")
    return 0


# What a link direction carries, by the names its statistics count them under (docs/fabric.md,
# "What the links carry"): accesses outside the coherent protocol (every LLC miss without it; the
# pages' copies with it), then the protocol's messages by kind.
MESSAGE_KINDS = {"requests": "access requests", "responses": "access responses",
                 "coherent_requests": "requests", "coherent_snoops": "snoops", "coherent_acks": "acks",
                 "coherent_memory_data": "memory data", "coherent_forwarded_data": "forwarded data",
                 "coherent_writebacks": "writebacks"}


def links(runs: list[dict]) -> dict[str, dict]:
    """Each link direction's (`upi_socket0_flex0 ab`: from its first end) messages per us, utilisation,
    a message's mean wait in ns and its messages by kind over runs' stats.json (each its whole file:
    the tree and its simulated time), summed over their times."""
    total = collections.defaultdict(collections.Counter)
    for run in runs:
        for name, link in run["stats"]["links"].items():
            for d in ("ab", "ba"):
                total[f"{name} {d}"].update({"messages": link[f"{d}_messages"], "ns": run["sim_time_ns"],
                                             "busy_ns": link[f"{d}_utilization"] * run["sim_time_ns"],
                                             "wait_ns": link[f"{d}_mean_wait"] * link[f"{d}_messages"]})
                total[f"{name} {d}"].update({kind: link.get(f"{kind}_{d}", 0) for kind in MESSAGE_KINDS})
    return {k: {"per_us": 1000 * t["messages"] / t["ns"], "utilisation": t["busy_ns"] / t["ns"],
                "wait_ns": t["wait_ns"] / t["messages"] if t["messages"] else 0.0,
                "kinds": {kind: t[kind] / t["messages"] if t["messages"] else 0.0 for kind in MESSAGE_KINDS}}
            for k, t in total.items()}


def kinds_text(u: dict[str, float], r: dict[str, float]) -> str:
    """The kinds that make at least 5 % of the run's or the units' messages, as percentages, units / run."""
    shown = [k for k in MESSAGE_KINDS if max(u[k], r[k]) >= 0.05]
    return ", ".join(f"{MESSAGE_KINDS[k]} {100 * u[k]:.0f} / {100 * r[k]:.0f}" for k in shown) or "-"


def busiest_links(case: pathlib.Path, units: list[dict], run: dict, n: int) -> int:
    u, r = links(units), links([run])
    print(f"| {case.name}: link, direction | messages per us, units / run | utilisation | mean wait ns "
          "| messages by kind, % units / run |")
    print("|---|---|---|---|---|")
    for k in sorted(r, key=lambda k: -r[k]["wait_ns"])[:n]:
        print(f"| {k} | {u[k]['per_us']:.1f} / {r[k]['per_us']:.1f} | {u[k]['utilisation']:.3f} / "
              f"{r[k]['utilisation']:.3f} | {u[k]['wait_ns']:.1f} / {r[k]['wait_ns']:.1f} | "
              f"{kinds_text(u[k]['kinds'], r[k]['kinds'])} |")
    return 0


WINDOW_COUNTERS = ("llc_misses", "writebacks", "stlb_misses", "walk_ns", "walk_miss_ns")


def per_window(cases: list[pathlib.Path]) -> int:
    print("| case | unit | measures from | IPC | " + " | ".join(WINDOW_COUNTERS) + " |")
    print("|---|---|---|---|" + "---|" * len(WINDOW_COUNTERS))
    for case in cases:
        start = measures_from(case)
        for at, w in sorted(((start[w["checkpoint_phase"], w["checkpoint_unit"]], w) for w in unit_windows(case)),
                            key=lambda row: row[0]):
            c = counters([w["stats"]])
            print(f"| {case.name} | {w['checkpoint_phase']}.{w['checkpoint_unit']} | {at} | {w['ipc']:.4f} | "
                  + " | ".join(f"{c[k]:.2f}" for k in WINDOW_COUNTERS) + " |")
    return 0


def counters_all(cases: list[pathlib.Path]) -> int:
    kept = [c for c in cases if (c / "counters" / "stats.json").exists()]
    if not kept:
        sys.exit("no case kept a run's statistics (CASE/counters/stats.json: experiments/coverage.sh keeps them)")
    print("| case (units / run, per 1 000 instructions) | " + " | ".join(ALL_COUNTERS) + " |")
    print("|---|" + "---|" * len(ALL_COUNTERS))
    for case in kept:
        u = units_counters(case)
        r = counters([json.loads((case / "counters" / "stats.json").read_text())["stats"]])
        cells = [f"{u[k]:.2f} / {r[k]:.2f} ({u[k] / r[k] if r[k] else float('nan'):.2f})" for k in ALL_COUNTERS]
        print(f"| {case.name} | " + " | ".join(cells) + " |")
    return 0


def main(out: str, only: list[str], kind: str = "continuous", other: str | None = None,
         run_stats: list[str] | None = None, all_counters: bool = False, unit: str | None = None,
         socket_counter: str | None = None, windows: bool = False, busiest: int = 0) -> int:
    cases = coverage_table.cases(out, only)
    if (unit or socket_counter or busiest) and not run_stats:
        sys.exit("--unit, --per-socket and --links go with --counters STATS")
    if all_counters:
        return counters_all(cases)
    if windows:
        return per_window(cases)
    if run_stats:
        if len(cases) != 1:
            sys.exit(f"--counters compares one case with one run; {len(cases)} cases match")
        if len(run_stats) > 2 or (len(run_stats) == 2 and unit):
            sys.exit("--counters takes a run's stats.json and at most one window's, which stands for the units")
        # Each a whole stats.json: its statistics tree, and its simulated time for the links.
        run, *units = [json.loads(pathlib.Path(p).read_text()) for p in run_stats]
        units = units or unit_windows(cases[0], unit)
        if busiest:
            return busiest_links(cases[0], units, run, busiest)
        trees = [w["stats"] for w in units]
        if socket_counter:
            return per_socket(cases[0], trees, run["stats"], socket_counter)
        u = counters(trees)
        r = counters([run["stats"]])
        print(f"| {cases[0].name}: per 1 000 instructions | units | run | units / run |")
        print("|---|---|---|---|")
        for k in u:
            print(f"| {k} | {u[k]:.3f} | {r.get(k, 0):.3f} | {u[k] / r[k] if r.get(k) else float('nan'):.3f} |")
        return 0
    if other:
        print("| case | stretches | IPC, OTHER over OUT: lowest | highest | mean |")
        print("|---|---|---|---|---|")
        for case in cases:
            a, b = unit_ipcs(case), unit_ipcs(pathlib.Path(other) / case.name)
            ratios = [b[k] / a[k] - 1 for k in sorted(set(a) & set(b))]
            if not ratios:
                sys.exit(f"{case.name}: no stretch measured in both studies")
            print(f"| {case.name} | {len(ratios)} | {100 * min(ratios):+.1f} % | {100 * max(ratios):+.1f} % "
                  f"| {100 * statistics.mean(ratios):+.2f} % |")
        return 0
    print("| case | LLC misses / 1 000 instr. | walks / 1 000 instr. | walk ns | AMAT ns | unloaded ns |")
    print("|---|---|---|---|---|---|")
    for case in cases:
        sampled = json.loads((case / "sampled.json").read_text())
        u = per_instruction(boundary_strata.windows(case, sampled))
        r = per_instruction(coverage_table.reference(case, kind))
        cells = [f"{u[k]:.2f} / {r[k]:.2f}" if k.endswith("pki") else f"{u[k]:.1f} / {r[k]:.1f}"
                 for k in ("llc_mpki", "walks_pki", "walk_ns", "amat_ns", "unloaded_ns")]
        print(f"| {case.name} (units / runs) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    ap = coverage_table.study_arguments(__doc__)
    ap.add_argument("--same-stretches", metavar="OTHER", help="pair each unit with OTHER's on the same stretch")
    ap.add_argument("--counters", metavar="STATS", nargs="+",
                    help="one case's units' counters (or a WINDOW's stats.json) against a run's stats.json")
    ap.add_argument("--counters-all", action="store_true", help="every case's units' counters against its kept run")
    ap.add_argument("--unit", metavar="P.U", help="with --counters: the window of unit U of phase P alone")
    ap.add_argument("--per-socket", metavar="COUNTER", help="with --counters: COUNTER socket by socket")
    ap.add_argument("--per-window", action="store_true", help="each unit's window: its start, IPC, misses, walks")
    ap.add_argument("--links", metavar="N", type=int, default=0,
                    help="with --counters: the N link directions where the run's messages wait longest")
    args = ap.parse_args()
    sys.exit(main(args.out, args.cases, args.reference, args.same_stretches, args.counters, args.counters_all,
                  args.unit, args.per_socket, args.per_window, args.links))
