#!/usr/bin/env python3
"""The vector sum's bandwidth in experiments/lmp.yaml's sweep (the logical-memory-pools paper's
Figs. 2-5): logical pool, physical pool without cache, and the sum shipped to the data, per vector
size and link; Markdown on stdout, the numbers docs/validation.md quotes.

   python3 experiments/lmp_tables.py SWEEP_DIR
"""
import re

from sweep_runs import main

PAPER_SIZES = {16: "8 GB", 48: "24 GB", 128: "64 GB", 192: "96 GB"}


def bandwidths(runs):
    """{(part, link, MiB): GB/s} of the sweep's vector sums."""
    gbps = {}
    for name, workload, sets, stats in runs:
        size = int(re.search(r"size=(\d+)MiB", workload).group(1))
        repeats = int(re.search(r"repeats=(\d+)", workload).group(1))
        link = "Link0" if sets["topology.switch.latency"] == "6.5ns" else "Link1"
        gbps[(name.split("-")[0], link, size)] = size * (1 << 20) * repeats / stats["sim_time_ns"]
    return gbps


def values(runs):
    """The logical-pools section's numbers (docs/validation.md.in's lmp.* names): the table, and
    its cells ({MiB}.{link}.{logical, physical, shipped, ratio})."""
    gbps = bandwidths(runs)
    lines = ["| vector (paper's) | link | logical | physical, no cache | logical / physical | shipped to the data |",
             "|---|---|---|---|---|---|"]
    v = {}
    for size in sorted(PAPER_SIZES):
        for link in ("Link0", "Link1"):
            logical, shipped = gbps[("logical", link, size)], gbps[("shipped", link, size)]
            physical = gbps.get(("physical", link, size))
            lines.append(f"| {size} MiB ({PAPER_SIZES[size]}) | {link} | {logical:.1f} GB/s | "
                         + (f"{physical:.1f} GB/s | {logical / physical:.2f}x" if physical else "cannot run | -")
                         + f" | {shipped:.1f} GB/s |")
            v[f"{size}.{link}.logical"] = f"{logical:.1f} GB/s"
            v[f"{size}.{link}.shipped"] = f"{shipped:.1f} GB/s"
            if physical:
                v[f"{size}.{link}.physical"] = f"{physical:.1f} GB/s"
                v[f"{size}.{link}.ratio"] = f"{logical / physical:.1f}x"
    v["table"] = "\n".join(lines)
    return v


if __name__ == "__main__":
    main(__doc__, values)
