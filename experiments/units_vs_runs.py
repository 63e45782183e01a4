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
reads and writes and a read's mean wait, the homes' GetM, PutM and PutE; and a walk's mean ns
(docs/sampling.md, "A window ends at its last dispatch").

With `--counters-all`, every case whose first draw's run with the pass's moves kept its statistics
(experiments/coverage.sh keeps them in CASE/counters): the units' cycles, L2 hits, LLC hits, LLC
misses and page walks per instruction and a walk's mean ns over that run's, one row a case
(docs/sampling.md, "Both studies again": the windows' private L2s start empty; "The stretch
boundary 1 starts": the units' walks are faster).

    python3 experiments/units_vs_runs.py OUT [CASE...] [--reference continuous|as-pass]
    python3 experiments/units_vs_runs.py OUT [CASE...] --same-stretches OTHER
    python3 experiments/units_vs_runs.py OUT CASE --counters STATS
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


def unit_ipcs(case: pathlib.Path) -> dict[int, float]:
    """Each unit's IPC by the multiple of the spacing it measures from."""
    sampled = json.loads((case / "sampled.json").read_text())
    manifest = json.loads((case / "manifest.json").read_text())
    clock = {(u["phase"], u["unit"]): u["clock_instructions"] for u in manifest["units"]}
    every, warmup = manifest["unit_every"], sampled["warmup_per_window"]
    return {round((clock[w["checkpoint_phase"], w["checkpoint_unit"]] + warmup) / every): w["ipc"]
            for w in boundary_strata.windows(case, sampled)}


CORE_COUNTERS = ("cycles", "l2_hits", "llc_hits", "llc_misses", "writebacks", "rob_stalls", "mshr_stalls",
                 "store_buffer_stalls", "stlb_misses", "walk_latency_ps")
HOME_COUNTERS = ("socket_home_getm", "socket_home_putm", "socket_home_pute")


def counters(stats: list[dict]) -> dict[str, float]:
    """The cores', memories' and homes' counters of runs' stats.json trees, summed, per 1 000 of the
    cores' instructions; `read_ns`, a memory read's mean wait."""
    total, read_ns = collections.Counter(), 0.0
    for tree in stats:
        for node in tree["nodes"].values():
            for part, c in node.items():
                if part.startswith("core"):
                    total.update({k: c.get(k, 0) for k in ("instructions", *CORE_COUNTERS)})
            if "memory" in node:
                m = node["memory"]
                total.update({"memory_reads": m["reads"], "memory_writes": m["writes"]})
                read_ns += m["read_latency"]["mean"] * m["read_latency"]["count"]
        total.update({k: tree.get("coherence", {}).get(k, 0) for k in HOME_COUNTERS})
    per = {k: 1000 * v / total["instructions"] for k, v in total.items() if k != "instructions"}
    per["read_ns"] = read_ns / total["memory_reads"] if total["memory_reads"] else 0.0
    per["walk_ns"] = total["walk_latency_ps"] / 1000 / total["stlb_misses"] if total["stlb_misses"] else 0.0
    return per


ALL_COUNTERS = ("cycles", "l2_hits", "llc_hits", "llc_misses", "stlb_misses", "walk_ns")


def units_counters(case: pathlib.Path) -> dict[str, float]:
    sampled = json.loads((case / "sampled.json").read_text())
    return counters([w["stats"] for w in boundary_strata.windows(case, sampled)])


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
         run_stats: str | None = None, all_counters: bool = False) -> int:
    cases = coverage_table.cases(out, only)
    if all_counters:
        return counters_all(cases)
    if run_stats:
        if len(cases) != 1:
            sys.exit(f"--counters compares one case with one run; {len(cases)} cases match")
        u = units_counters(cases[0])
        r = counters([json.loads(pathlib.Path(run_stats).read_text())["stats"]])
        print(f"| {cases[0].name}: per 1 000 instructions | units | run | units / run |")
        print("|---|---|---|---|")
        for k in u:
            print(f"| {k} | {u[k]:.3f} | {r[k]:.3f} | {u[k] / r[k] if r[k] else float('nan'):.3f} |")
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
    ap.add_argument("--counters", metavar="STATS", help="one case's units' counters against a run's stats.json")
    ap.add_argument("--counters-all", action="store_true", help="every case's units' counters against its kept run")
    args = ap.parse_args()
    sys.exit(main(args.out, args.cases, args.reference, args.same_stretches, args.counters, args.counters_all))
