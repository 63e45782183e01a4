#!/usr/bin/env bash
# The StarNUMA paper's Fig. 8 on our workloads: `starnuma compare` of the scaled 16-socket baseline
# and StarNUMA platforms (oracle placement) for each workload (compare_all.sh), then a Markdown
# table of speedup, AMAT and access breakdown. Results go to OUT (default: fig8-results/).
#
#   bash experiments/fig8.sh [OUT] [INSTRUCTIONS]
#
# Environment: STARNUMA (default: build/starnuma), WORKLOADS (space-separated, default below), SETS
# (compare_all.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-fig8-results}
instructions=${2:-2000000}
workloads=${WORKLOADS:-"bfs:scale=20 cc:scale=20,algorithm=sv sssp:scale=20 tc:scale=20 pr:scale=20 kv local"}
bash "$root/experiments/compare_all.sh" "$out" "$instructions" $workloads
python3 - "$out" $workloads <<'PY'
import json, sys, os
out, names = sys.argv[1], sys.argv[2:]
print("| workload | speedup | AMAT reduction | baseline AMAT (unloaded + contention) | StarNUMA AMAT (unloaded + contention) | StarNUMA accesses local / 1-hop / 2-hop / pool |")
print("|---|---|---|---|---|---|")
for w in names:
    c = json.load(open(os.path.join(out, w.split(":")[0], "compare.json")))
    b, o = c["base"], c["other"]
    amat = lambda r: f'{r["amat_ns"]:.0f} ns ({r["amat_unloaded_ns"]:.0f} + {r["amat_contention_ns"]:.0f})'
    br = o["access_breakdown"]
    mix = " / ".join(f'{100 * br[k]:.0f} %' for k in ("local", "1-hop", "2-hop", "pool"))
    print(f'| `{w}` | {c["speedup"]:.2f}x | {100 * c["amat_reduction"]:.1f} % | {amat(b)} | {amat(o)} | {mix} |')

# Mean latency per access class, baseline / StarNUMA, from every core's counters.
classes = ("local", "one_hop", "two_hop", "pool")
def class_means(stats):
    sums = {k: [0, 0] for k in classes}
    for node in stats["nodes"].values():
        for name, core in node.items():
            if name.startswith("core") and isinstance(core, dict):
                for k in classes:
                    sums[k][0] += core.get(k + "_latency_ps", 0)
                    sums[k][1] += core.get(k + "_accesses", 0)
    return {k: (v[0] / v[1] / 1000 if v[1] else None) for k, v in sums.items()}
print()
print("| workload | local | 1-hop | 2-hop | pool |")
print("|---|---|---|---|---|")
for w in names:
    d = os.path.join(out, w.split(":")[0])
    base, other = (class_means(json.load(open(os.path.join(d, side, "stats.json")))["stats"]) for side in ("base", "other"))
    cell = lambda k: " / ".join("-" if v is None else f"{v:.0f}" for v in (base[k], other[k])) + " ns"
    print(f'| `{w.split(":")[0]}` | ' + " | ".join(cell(k) for k in classes) + " |")
PY
