#!/usr/bin/env python3
"""The vector sum's bandwidth in experiments/lmp.yaml's sweep (the logical-memory-pools paper's
Figs. 2-5): logical pool, physical pool without cache, and the sum shipped to the data, per vector
size and link; Markdown on stdout.

   python3 experiments/lmp_tables.py SWEEP_DIR
"""
import json
import os
import re
import sqlite3
import sys

PAPER_SIZES = {16: "8 GB", 48: "24 GB", 128: "64 GB", 192: "96 GB"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sweep = sys.argv[1]
    db = sqlite3.connect(os.path.join(sweep, "sweep.db"))
    gbps = {}
    for name, status, workload, sets, stats_path in db.execute(
            "SELECT name, status, workload, sets, stats_path FROM runs"):
        if status != "done":
            sys.exit(f"{sweep}: run {name} is {status}; run the sweep again")
        with open(os.path.join(sweep, stats_path)) as f:
            stats = json.load(f)
        size = int(re.search(r"size=(\d+)MiB", workload).group(1))
        repeats = int(re.search(r"repeats=(\d+)", workload).group(1))
        link = "Link0" if json.loads(sets)["topology.switch.latency"] == "6.5ns" else "Link1"
        part = name.split("-")[0]
        gbps[(part, link, size)] = size * (1 << 20) * repeats / stats["sim_time_ns"]
    print("| vector (paper's) | link | logical | physical, no cache | logical / physical | shipped to the data |")
    print("|---|---|---|---|---|---|")
    for size in sorted(PAPER_SIZES):
        for link in ("Link0", "Link1"):
            logical, shipped = gbps[("logical", link, size)], gbps[("shipped", link, size)]
            physical = gbps.get(("physical", link, size))
            print(f"| {size} MiB ({PAPER_SIZES[size]}) | {link} | {logical:.1f} GB/s | "
                  + (f"{physical:.1f} GB/s | {logical / physical:.2f}x" if physical else "cannot run | -")
                  + f" | {shipped:.1f} GB/s |")


if __name__ == "__main__":
    main()
