#!/usr/bin/env python3
"""The paper's Table III beside ours from experiments/table3.yaml's sweep: IPC per core on the
16-socket baseline (one socket with local memory in parentheses) and LLC misses per thousand
instructions, with the cores' default stall on dependent loads and with `dependent_loads: overlap`;
then each workload's sharing profile (the paper's Fig. 2 quantities). Markdown on stdout.

   python3 experiments/table3_tables.py SWEEP_DIR
"""
from sweep_runs import main

# The StarNUMA paper's Table III: IPC on the baseline, IPC on one socket, LLC MPKI.
PAPER = {"sssp": (0.06, 0.56, 73), "bfs": (0.10, 0.69, 32), "cc": (0.14, 0.78, 17), "tc": (0.40, 1.7, 3.2),
         "masstree": (0.18, 0.89, 15), "tpcc": (0.41, 1.12, 4.8), "fmi": (0.61, 1.45, 2.6), "poa": (0.68, 0.68, 33),
         "kv": (0.18, 0.89, 15)}
NAMES = {"kv": "kv (hash table, beside Masstree's row)"}
DEPENDENT = "topology.socket.core.dependent_loads"


def kernel_of(workload):
    return workload.split(":")[0].split("@")[0]


def ipc_and_mpki(workload, stats):
    alone = "@" in workload
    ipc = next(iter(stats["programs"].values()))["ipc"] if alone else stats["ipc"]
    return ipc, 1000 * stats["llc_misses"] / stats["instructions"]


def table(runs):
    ours, profiles = {}, {}
    for _, workload, sets, stats in runs:
        if "pages_by_sharers" in stats:
            profiles[kernel_of(workload)] = stats
            continue
        ours[(kernel_of(workload), "@" in workload, sets.get(DEPENDENT, "stall"))] = ipc_and_mpki(workload, stats)
    lines = ["| workload | IPC (one socket), paper | ours | ours, dependent loads overlap | MPKI, paper | ours (one socket) |",
             "|---|---|---|---|---|---|"]
    for kernel, (ipc, ipc1, mpki) in PAPER.items():
        if (kernel, False, "stall") not in ours:
            continue
        (i, m), (i1, m1) = ours[(kernel, False, "stall")], ours[(kernel, True, "stall")]
        overlap = ""
        if (kernel, False, "overlap") in ours:
            overlap = f"{ours[(kernel, False, 'overlap')][0]:.3f} ({ours[(kernel, True, 'overlap')][0]:.3f})"
        lines.append(f"| {NAMES.get(kernel, kernel)} | {ipc} ({ipc1}) | {i:.3f} ({i1:.3f}) | {overlap} | {mpki} | "
                     f"{m:.1f} ({m1:.1f}) |")
    if profiles:
        lines += ["", "| workload | pages with 1 sharer | > 8 sharers: pages | accesses | all 16: pages | accesses | "
                      "read-only pages | their accesses |", "|---|---|---|---|---|---|---|---|"]
        for kernel, p in profiles.items():
            pages, accesses = p["pages_by_sharers"], p["accesses_by_sharers"]

            def share(d, test):
                return 100 * sum(v for k, v in d.items() if test(int(k))) / max(1, sum(d.values()))
            lines.append(f"| {kernel} | {share(pages, lambda k: k == 1):.1f} % | {share(pages, lambda k: k > 8):.1f} % | "
                         f"{share(accesses, lambda k: k > 8):.1f} % | {share(pages, lambda k: k == 16):.1f} % | "
                         f"{share(accesses, lambda k: k == 16):.1f} % | {100 * p['read_only_pages']:.1f} % | "
                         f"{100 * p['read_only_accesses']:.1f} % |")
    return "\n".join(lines)


if __name__ == "__main__":
    main(__doc__, table)
