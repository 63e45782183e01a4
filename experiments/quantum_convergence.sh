#!/usr/bin/env bash
# Results against the simulation quantum (docs/validation.md, "Convergence"): each workload on both
# scaled 16-socket machines at each quantum and at 1 ns, oracle placement, with coherence off and on;
# prints a Markdown table of IPC and AMAT and their deviation from the 1 ns run.
#
#   bash experiments/quantum_convergence.sh [INSTRUCTIONS] [QUANTA...]
#
# Environment: STARNUMA (default: build/starnuma), WORKLOADS (default: bfs:scale=18 sharing kv),
# COHERENCE (default: "false true").
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
starnuma=${STARNUMA:-$root/build/starnuma}
instructions=${1:-500000}
shift || true
quanta=${*:-"1us 300ns 100ns"}
workloads=${WORKLOADS:-"bfs:scale=18 sharing kv"}
coherence=${COHERENCE:-"false true"}
echo "| workload | platform | coherence | quantum | IPC | AMAT ns | host s | IPC vs 1 ns | AMAT vs 1 ns |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in $workloads; do
  for p in baseline16-scaled starnuma16-scaled; do
    for c in $coherence; do
      run() {
        "$starnuma" run "$root/platforms/$p.yaml" --workload "$w" --placement oracle --instructions "$instructions" \
          --set "platform.quantum=$1" --set "coherence.enabled=$c" --no-progress --json
      }
      ref=$(run 1ns)
      for q in $quanta 1ns; do
        if [ "$q" = 1ns ]; then r=$ref; else r=$(run "$q"); fi
        python3 - "$w" "$p" "$c" "$q" "$r" "$ref" <<'PY'
import json, sys
w, p, c, q, r, ref = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5]), json.loads(sys.argv[6])
dev = lambda k: f'{100 * (r[k] / ref[k] - 1):+.1f} %'
print(f'| `{w}` | {p} | {c} | {q} | {r["ipc"]:.4f} | {r["amat_ns"]:.1f} | {r["host_seconds"]:.2f} | {dev("ipc")} | {dev("amat_ns")} |')
PY
      done
    done
  done
done
