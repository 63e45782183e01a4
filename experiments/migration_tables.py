#!/usr/bin/env python3
"""The tables of experiments/migration.sh from its runs' stats.json files (Markdown on stdout).

   python3 experiments/migration_tables.py OUT "LIMITS" WORKLOAD...
"""
import json
import math
import os
import sys


def load(out, workload, name):
    path = os.path.join(out, workload.split(":")[0], name, "stats.json")
    with open(path) as f:
        return json.load(f)


def pool_share(r):
    b = r["access_breakdown"]
    return b.get("pool", 0) + b.get("bt-pool", 0)


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    out, limits, workloads = sys.argv[1], [int(x) for x in sys.argv[2].split()], sys.argv[3:]
    rows = {}
    for w in workloads:
        runs = {name: load(out, w, name) for name in ("ft-base", "ft-star", "oracle-base", "oracle-star")}
        for kind in ("perfect-base", "t16-star", "t0-star"):
            sweep = {l: load(out, w, f"{kind}-{l}") for l in limits}
            best = max(limits, key=lambda l: sweep[l]["ipc"])  # the paper's best limit per workload
            runs[kind] = sweep[best]
            runs[kind + "-limit"] = best
            runs[kind + "-sweep"] = sweep
        rows[w] = runs

    print("Fig. 8 with migration: speedup over the baseline with its migration, each at its best limit\n")
    print("| workload | baseline limit | T16 limit | T16 speedup | T16 AMAT reduction | T0 limit | T0 speedup | T0 AMAT reduction |")
    print("|---|---|---|---|---|---|---|---|")
    t16s, t0s = [], []
    for w, r in rows.items():
        b = r["perfect-base"]
        s16, s0 = r["t16-star"]["ipc"] / b["ipc"], r["t0-star"]["ipc"] / b["ipc"]
        t16s.append(s16)
        t0s.append(s0)
        print(f"| `{w}` | {r['perfect-base-limit']} | {r['t16-star-limit']} | {s16:.2f}x | "
              f"{100 * (1 - r['t16-star']['amat_ns'] / b['amat_ns']):.0f} % | {r['t0-star-limit']} | {s0:.2f}x | "
              f"{100 * (1 - r['t0-star']['amat_ns'] / b['amat_ns']):.0f} % |")
    print(f"| geomean | | | {geomean(t16s):.2f}x | | | {geomean(t0s):.2f}x | |")

    print("\nTable IV: fraction of migrated pages moved to the pool, at the best limit\n")
    print("| workload | T16 | T0 | T16 pages moved | T0 pages moved |")
    print("|---|---|---|---|---|")
    for w, r in rows.items():
        m16, m0 = r["t16-star"]["migration"], r["t0-star"]["migration"]
        print(f"| `{w}` | {100 * m16['to_pool_fraction']:.0f} % | {100 * m0['to_pool_fraction']:.0f} % | "
              f"{m16['pages_moved']} | {m0['pages_moved']} |")

    print("\nFig. 9: static oracle placement against dynamic migration (IPC over the baseline with migration)\n")
    print("| workload | baseline, first touch | baseline, oracle | StarNUMA, first touch | StarNUMA, oracle | StarNUMA, T16 |")
    print("|---|---|---|---|---|---|")
    for w, r in rows.items():
        b = r["perfect-base"]["ipc"]
        print(f"| `{w}` | {r['ft-base']['ipc'] / b:.2f}x | {r['oracle-base']['ipc'] / b:.2f}x | "
              f"{r['ft-star']['ipc'] / b:.2f}x | {r['oracle-star']['ipc'] / b:.2f}x | {r['t16-star']['ipc'] / b:.2f}x |")

    print("\nThe limit sweep: IPC, AMAT and pool share of LLC misses per limit (pages per phase)\n")
    print("| workload | configuration | " + " | ".join(f"L = {l}" for l in limits) + " |")
    print("|---|---|" + "---|" * len(limits))
    for w, r in rows.items():
        for kind, label in (("perfect-base", "baseline, perfect"), ("t16-star", "StarNUMA, T16"), ("t0-star", "StarNUMA, T0")):
            cells = []
            for l in limits:
                x = r[kind + "-sweep"][l]
                cells.append(f"{x['ipc']:.4f}, {x['amat_ns']:.0f} ns, {100 * pool_share(x):.0f} %")
            print(f"| `{w}` | {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
