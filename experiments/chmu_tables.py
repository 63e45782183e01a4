#!/usr/bin/env python3
"""The tables of experiments/chmu.yaml's sweep (issue 40): the pool device's CHMU against T16 and T0
trackers and AutoNUMA on the paper's eight workloads, each a speedup over first touch on the same
machine, the share of accesses the pool serves, what tracking costs the cores and what it costs in
on-chip bits; Markdown on stdout. docs/validation.md prints the same values (chmu.*), from the
committed results (experiments/results/chmu).

   python3 experiments/chmu_tables.py SWEEP_DIR
"""
import math

from sweep_runs import grouped, main

WORKLOADS = [("bfs-scale22-trials100", "bfs"), ("cc-scale22-algorithmafforest-trials100", "cc"),
             ("sssp-scale22-trials4", "sssp"), ("tc-scale22", "tc"), ("masstree", "masstree"), ("tpcc", "tpcc"),
             ("fmi", "fmi"), ("poa", "poa")]
POOLS = [("0.2", "pool 1/5"), ("0.0588", "pool 1/17")]
TRACKERS = [("t16", "T16"), ("t0", "T0"), ("chmu", "T0 + CHMU")]


def by_name(finished):
    return {name: stats for name, _, _, stats in finished}


def configurations():
    """[(label, run name of workload w)] in the tables' order: the trackers at each pool size and with
    their metadata cached, then AutoNUMA."""
    rows = [(f"{label}, {pool_label}", lambda w, p=policy, f=pool: f"tracking-{w}-{p}-{f}")
            for pool, pool_label in POOLS for policy, label in TRACKERS]
    rows += [(f"{label}, pool 1/17, metadata cached", lambda w, p=policy: f"cached-{w}-{p}") for policy, label in TRACKERS]
    return rows + [("AutoNUMA", lambda w: f"autonuma-{w}")]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def speedup(runs, w, name):
    return runs[f"first_touch-{w}"]["sim_time_ns"] / runs[name]["sim_time_ns"]


def pool_share(stats):
    b = stats["access_breakdown"]
    return b.get("pool", 0) + b.get("bt-pool", 0)


def sockets(stats):
    return [n for k, n in stats["stats"]["nodes"].items() if k.startswith("socket")]


def core_cycles(stats):
    return sum(c["cycles"] for n in sockets(stats) for k, c in n.items() if k.startswith("core"))


def tracking_cost(stats):
    """The share of the cores' cycles tracking took: held by full tracker queues (the trackers), or
    in hinting faults (AutoNUMA; its fault time in core cycles at the cores' clock)."""
    cycles = core_cycles(stats)
    if "hinting_faults" in stats["migration"]:
        core0 = sockets(stats)[0]["core0"]
        ghz = core0["cycles"] / stats["sim_time_ns"]
        return stats["migration"]["fault_time_ns"] * ghz / cycles
    return sum(n["tracking"]["core_stall_cycles"] for n in sockets(stats)) / cycles


def on_chip_bits(stats):
    """The annexes' bits on every socket when the run uses them, and the CHMU's table and hotlist when it
    is on (the tracking metadata lives in memory: not counted)."""
    annexes = sum(n["tracking"]["annex_bits"] for n in sockets(stats)) if stats["tracking"] == "on" else 0
    return annexes + stats["stats"]["nodes"].get("pool", {}).get("chmu", {}).get("storage_bits", 0)


def table(runs, cell, summary):
    """A row per configuration, a column per workload, then the summary's."""
    lines = ["| configuration | " + " | ".join(short for _, short in WORKLOADS) + f" | {summary[0]} |",
             "|---" * (len(WORKLOADS) + 2) + "|"]
    for label, name in configurations():
        lines.append(f"| {label} | " + " | ".join(cell(runs, w, name(w)) for w, _ in WORKLOADS) +
                     f" | **{summary[1](runs, name)}** |")
    return "\n".join(lines)


def speedups(runs, name):
    return [speedup(runs, w, name(w)) for w, _ in WORKLOADS]


def cost_table(runs):
    lines = ["| configuration | tracking's share of core cycles (mean, max) | on-chip bits | pages moved (of which out of "
             "the pool) |", "|---|---|---|---|"]
    for label, name in configurations():
        costs = [tracking_cost(runs[name(w)]) for w, _ in WORKLOADS]
        bits = {on_chip_bits(runs[name(w)]) for w, _ in WORKLOADS}
        moved = sum(runs[name(w)]["migration"]["pages_moved"] for w, _ in WORKLOADS)
        out = sum(runs[name(w)]["migration"].get("from_pool", 0) for w, _ in WORKLOADS)
        lines.append(f"| {label} | {100 * sum(costs) / len(costs):.2f} %, {100 * max(costs):.2f} % | "
                     f"{' / '.join(grouped(b) for b in sorted(bits))} | {grouped(moved)} ({grouped(out)}) |")
    return "\n".join(lines)


def chmu_phases(runs):
    """Over every CHMU run's phases: pool regions judged hot and cold, victims it sent, overflows."""
    hot = cold = victims = dropped = 0
    names = [f"tracking-{w}-chmu-{pool}" for pool, _ in POOLS for w, _ in WORKLOADS]
    for name in names + [f"cached-{w}-chmu" for w, _ in WORKLOADS]:
        for p in runs[name]["migration"]["per_phase"]:
            hot += p["chmu_pool_regions_hot"]
            cold += p["chmu_pool_regions_cold"]
            victims += p["chmu_pool_victims"]
            dropped += p["chmu_dropped"]
    return hot, cold, victims, dropped


def values(finished):
    """The CHMU section's numbers (docs/validation.md.in's chmu.* names)."""
    runs = by_name(finished)
    v = {
        "speedup_table": table(runs, lambda r, w, n: f"{speedup(r, w, n):.2f}x",
                               ("geomean", lambda r, name: f"{geomean(speedups(r, name)):.2f}x")),
        "pool_table": table(runs, lambda r, w, n: f"{100 * pool_share(r[n]):.1f} %",
                            ("mean", lambda r, name: f"{100 * sum(pool_share(r[name(w)]) for w, _ in WORKLOADS) / len(WORKLOADS):.1f} %")),
        "cost_table": cost_table(runs),
    }
    for label, name in configurations():
        key = label.lower().replace(" + ", "_").replace(", pool 1/", "_").replace(", metadata cached", "_cached")
        v[f"geomean.{key}"] = f"{geomean(speedups(runs, name)):.2f}x"
        costs = [tracking_cost(runs[name(w)]) for w, _ in WORKLOADS]
        v[f"cost.{key}"] = f"{100 * sum(costs) / len(costs):.1f} %"
    first = WORKLOADS[0][0]
    chmu_bits = runs[f"tracking-{first}-chmu-0.2"]["stats"]["nodes"]["pool"]["chmu"]["storage_bits"]
    v["chmu_bits"] = grouped(chmu_bits)
    v["t16_over_t0_bits"] = grouped(on_chip_bits(runs[f"tracking-{first}-t16-0.2"]) -
                                    on_chip_bits(runs[f"tracking-{first}-t0-0.2"]))
    for policy, _ in TRACKERS:
        m = runs[f"cached-bfs-scale22-trials100-{policy}"]["migration"]
        v[f"bfs_cached.{policy}"] = (f"{grouped(m['pages_moved'])} pages moved ({grouped(m['socket_to_socket'])} "
                                     f"socket to socket, {grouped(m['to_pool'])} into the pool, "
                                     f"{grouped(m['from_pool'])} out of it)")
    hot, cold, victims, dropped = chmu_phases(runs)
    v["regions_hot"], v["regions_cold"], v["victims"], v["overflows"] = (grouped(x) for x in (hot, cold, victims, dropped))
    return v


if __name__ == "__main__":
    main(__doc__, values)
