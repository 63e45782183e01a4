#!/usr/bin/env bash
# Block transfers with coherence on (StarNUMA section III-C): the scaled 16-socket baseline and
# StarNUMA platforms compared on write-shared workloads (compare_all.sh, coherence.enabled=true),
# then a Markdown table of the 3-hop transfers between sockets and the 4-hop ones via the pool:
# how many, their mean latency measured and unloaded, and the pool directory's load.
#
#   bash experiments/block_transfers.sh [OUT] [INSTRUCTIONS]
#
# Environment: STARNUMA, WORKLOADS (space-separated, default below), SETS (more --set K=V).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-block-transfer-results}
instructions=${2:-1000000}
workloads=${WORKLOADS:-"sharing kv pr:scale=20 bfs:scale=20"}
SETS="coherence.enabled=true ${SETS:-}" bash "$root/experiments/compare_all.sh" "$out" "$instructions" $workloads
python3 - "$out" $workloads <<'PY'
import json, sys, os
out, names = sys.argv[1], sys.argv[2:]

def transfers(path):
    stats = json.load(open(path))["stats"]
    got = {"misses": 0}
    for kind in ("bt_socket", "bt_pool"):
        n = lat = unl = 0
        for node in stats["nodes"].values():
            for name, core in node.items():
                if name.startswith("core") and isinstance(core, dict):
                    n += core[kind + "_accesses"]
                    lat += core[kind + "_latency_ps"]
                    unl += core[kind + "_unloaded_ps"]
                    if kind == "bt_socket":
                        got["misses"] += core["llc_misses"]
        got[kind] = (n, lat / n / 1000 if n else None, unl / n / 1000 if n else None)
    c = stats["coherence"]
    got["inv"] = c["invalidations_per_write"]["mean"]
    got["rate"] = (c["pool_directory_rate"], c["pool_coherence_action_rate"])
    return got

def cell(t):
    n, lat, unl = t
    return "-" if not n else f"{n} ({lat:.0f} ns; {unl:.0f} unloaded)"

print("| workload | speedup | baseline 3-hop | StarNUMA 3-hop | StarNUMA 4-hop via the pool | "
      "transfers of LLC misses (base / StarNUMA) | invalidations per write | pool directory: transactions, coherence actions per us |")
print("|---|---|---|---|---|---|---|---|")
for w in names:
    d = os.path.join(out, w.split(":")[0])
    c = json.load(open(os.path.join(d, "compare.json")))
    b, o = (transfers(os.path.join(d, side, "stats.json")) for side in ("base", "other"))
    share = lambda t: 100 * (t["bt_socket"][0] + t["bt_pool"][0]) / max(t["misses"], 1)
    print(f'| `{w.split(":")[0]}` | {c["speedup"]:.2f}x | {cell(b["bt_socket"])} | {cell(o["bt_socket"])} | '
          f'{cell(o["bt_pool"])} | {share(b):.1f} % / {share(o):.1f} % | {o["inv"]:.2f} | {o["rate"][0]:.0f}, {o["rate"][1]:.0f} |')
PY
