#!/usr/bin/env python3
"""Markdown tables of docs/validation.md from the runs of experiments/validation.sh.

    python3 experiments/validation_tables.py OUT "STUDIES" WORKLOAD...
"""
import json
import math
import os
import sys

LABEL = {"fig8": "StarNUMA", "fig10": "StarNUMA, 190 ns pool", "isobw": "baseline ISO-BW",
         "2xbw": "baseline 2x BW", "halfbw": "StarNUMA half BW"}
# The paper's Table III: IPC per core on the 16-socket baseline, LLC MPKI.
TABLE_III = {"sssp": (0.06, 73), "bfs": (0.10, 32), "cc": (0.14, 17), "tc": (0.40, 3.2)}


def main(out, studies, names):
    def load(study, w):
        return json.load(open(os.path.join(out, study, w.split(":")[0], "compare.json")))

    def stats(study, w, side):
        return json.load(open(os.path.join(out, study, w.split(":")[0], side, "stats.json")))["stats"]

    def geomean(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    print("| workload | " + " | ".join(LABEL[s] + " speedup" for s in studies) +
          " | StarNUMA AMAT reduction | StarNUMA pool accesses |")
    print("|---|" + "---|" * len(studies) + "---|---|")
    speedups = {s: [] for s in studies}
    reductions = []
    for w in names:
        cells = []
        for s in studies:
            c = load(s, w)
            speedups[s].append(c["speedup"])
            cells.append(f'{c["speedup"]:.2f}x')
        c = load("fig8", w) if "fig8" in studies else None
        red = f'{100 * c["amat_reduction"]:.0f} %' if c else "-"
        if c:
            reductions.append(c["amat_reduction"])
        pool = f'{100 * c["other"]["access_breakdown"]["pool"]:.0f} %' if c else "-"
        print(f'| `{w}` | ' + " | ".join(cells) + f" | {red} | {pool} |")
    print("| geomean | " + " | ".join(f"{geomean(speedups[s]):.2f}x" for s in studies) +
          (f" | {100 * sum(reductions) / len(reductions):.0f} % (mean) | |" if reductions else " | | |"))
    if "fig8" not in studies:
        return
    print()
    print("| workload | baseline AMAT (unloaded + contention) | StarNUMA AMAT (unloaded + contention) | "
          "BT share of accesses (StarNUMA) | BT via pool / 3-hop BT latency | pool directory: ns between transactions |")
    print("|---|---|---|---|---|---|")
    for w in names:
        c = load("fig8", w)
        amat = lambda r: f'{r["amat_ns"]:.0f} ns ({r["amat_unloaded_ns"]:.0f} + {r["amat_contention_ns"]:.0f})'
        co = stats("fig8", w, "other").get("coherence", {})
        bt = co.get("bt_pool", 0) + co.get("bt_socket", 0)
        misses = c["other"]["llc_misses"]
        pool_lat = co.get("bt_pool_latency", {}).get("mean", 0)
        sock_lat = co.get("bt_socket_latency", {}).get("mean", 0)
        ratio = f"{pool_lat / sock_lat:.2f}" if pool_lat and sock_lat else "-"
        rate = co.get("pool_directory_rate", 0)  # transactions per us
        every = f"{1000 / rate:.0f}" if rate else "-"
        share = f"{100 * bt / misses:.1f} %" if misses else "-"
        print(f'| `{w}` | {amat(c["base"])} | {amat(c["other"])} | {share} | {ratio} | {every} |')
    print()
    print("| workload | baseline IPC per core (paper's Table III) | baseline LLC MPKI (paper's) |")
    print("|---|---|---|")
    for w in names:
        b = load("fig8", w)["base"]
        name = w.split(":")[0]
        ref = TABLE_III.get(name)
        mpki = 1000 * b["llc_misses"] / b["instructions"]
        print(f'| `{w}` | {b["ipc"]:.3f} ({ref[0] if ref else "-"}) | {mpki:.1f} ({ref[1] if ref else "-"}) |')


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(), sys.argv[3:])
