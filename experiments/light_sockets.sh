#!/usr/bin/env bash
# The light sockets' error (docs/cores.md, "Mixed modality"): each workload on both scaled
# 16-socket machines with every socket detailed and with socket 0 alone detailed
# (--detailed-sockets 1, the paper's modelling), oracle placement; prints a Markdown table of socket
# 0's IPC, the AMAT of every core, and StarNUMA's speedup over the baseline (socket 0's IPC), each
# with the one-detailed run's deviation from the all-detailed one.
#
#   bash experiments/light_sockets.sh [INSTRUCTIONS]
#
# Environment: STARNUMA (default: build/starnuma), WORKLOADS (default: the paper's eight and
# sharing, at scale 18 for the graphs), SETS (extra --set options, e.g. "coherence.enabled=false").
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
starnuma=${STARNUMA:-$root/build/starnuma}
instructions=${1:-300000}
workloads=${WORKLOADS:-"bfs:scale=18,trials=100 cc:scale=18,algorithm=sv sssp:scale=18,trials=4 tc:scale=18 fmi poa masstree tpcc sharing"}
sets=()
for s in ${SETS:-}; do sets+=(--set "$s"); done
echo "| workload | baseline IPC: all, one detailed | StarNUMA IPC: all, one | StarNUMA AMAT ns: all, one | speedup: all, one |"
echo "|---|---|---|---|---|"
for w in $workloads; do
  results=()
  for p in baseline16-scaled starnuma16-scaled; do
    for d in 0 1; do
      results+=("$("$starnuma" run "$root/platforms/$p.yaml" --workload "$w" --placement oracle \
        --instructions "$instructions" --detailed-sockets "$d" "${sets[@]}" --no-progress --json)")
    done
  done
  python3 - "$w" "${results[@]}" <<'PY'
import json, sys
w, runs = sys.argv[1], [json.loads(a) for a in sys.argv[2:]]
for r in runs:
    if r["threads_ended_early"]:
        sys.exit(f"{w}: threads ended before their budget on {r['platform']}")
ipc = [r["ipc_per_socket"]["socket0"] for r in runs]  # base all, base one, star all, star one
amat = [runs[2]["amat_ns"], runs[3]["amat_ns"]]
speedup = [ipc[2] / ipc[0], ipc[3] / ipc[1]]
dev = lambda a, b: f"{100 * (b / a - 1):+.1f} %"
print(f"| `{w}` | {ipc[0]:.4f}, {ipc[1]:.4f} ({dev(ipc[0], ipc[1])}) | {ipc[2]:.4f}, {ipc[3]:.4f} ({dev(ipc[2], ipc[3])}) "
      f"| {amat[0]:.0f}, {amat[1]:.0f} ({dev(*amat)}) | {speedup[0]:.2f}x, {speedup[1]:.2f}x ({dev(*speedup)}) |")
PY
done
