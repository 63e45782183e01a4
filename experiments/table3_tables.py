#!/usr/bin/env python3
"""The paper's Table III beside ours from experiments/table3.yaml's sweep: IPC per core on the
16-socket baseline (one socket with local memory in parentheses) and LLC misses per thousand
instructions; Markdown on stdout.

   python3 experiments/table3_tables.py SWEEP_DIR
"""
from sweep_runs import main

# The StarNUMA paper's Table III: IPC on the baseline, IPC on one socket, LLC MPKI.
PAPER = {"sssp": (0.06, 0.56, 73), "bfs": (0.10, 0.69, 32), "cc": (0.14, 0.78, 17), "tc": (0.40, 1.7, 3.2),
         "masstree": (0.18, 0.89, 15), "tpcc": (0.41, 1.12, 4.8), "fmi": (0.61, 1.45, 2.6), "poa": (0.68, 0.68, 33), "kv": (0.18, 0.89, 15)}
NAMES = {"kv": "kv (hash table, beside Masstree's row)"}


def table(runs):
    ours = {}
    for _, workload, _, stats in runs:
        kernel = workload.split(":")[0].split("@")[0]
        alone = "@" in workload
        ipc = next(iter(stats["programs"].values()))["ipc"] if alone else stats["ipc"]
        ours[(kernel, alone)] = (ipc, 1000 * stats["llc_misses"] / stats["instructions"])
    lines = ["| workload | IPC (one socket), paper | IPC (one socket), ours | MPKI, paper | MPKI, ours (one socket) |",
             "|---|---|---|---|---|"]
    for kernel, (ipc, ipc1, mpki) in PAPER.items():
        if (kernel, False) not in ours:
            continue
        (oi, om), (oi1, om1) = ours[(kernel, False)], ours[(kernel, True)]
        lines.append(f"| {NAMES.get(kernel, kernel)} | {ipc} ({ipc1}) | {oi:.3f} ({oi1:.3f}) | {mpki} | {om:.1f} ({om1:.1f}) |")
    return "\n".join(lines)


if __name__ == "__main__":
    main(__doc__, table)
