#!/usr/bin/env bash
# The paper's sampled evaluation (Fig. 6; docs/sampling.md) of one workload on both scaled 16-socket
# machines: the baseline migrating with perfect per-page knowledge, StarNUMA with T16 trackers (their
# metadata cached) and Algorithm 1. For each: `starnuma checkpoint` (the functional pass, N phase
# boundaries), then `starnuma sample` (one timing window per checkpoint, two at a time), then the
# speedup and AMAT reduction of the aggregates. Prints the per-window table and the timings.
#
#   bash experiments/sampled.sh [OUT] [WORKLOAD] [CHECKPOINTS]
#
# Environment: STARNUMA (default: build/starnuma), PHASE (instructions per thread per phase, default
# 250000), WARMUP and WINDOW (per thread and window: default 25000 and 100000), LIMIT (migration
# limit, pages per phase, default 1024), JOBS (windows at once, default 2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-sampled-results}
workload=${2:-bfs:scale=18,trials=100}
checkpoints=${3:-5}
starnuma=${STARNUMA:-$root/build/starnuma}
phase=${PHASE:-250000}
warmup=${WARMUP:-25000}
window=${WINDOW:-100000}
common=(--set "os.phase_instructions=$phase" --set "os.migration_limit=${LIMIT:-1024}")
declare -A sets=(
  [baseline]="--set os.policy=perfect"
  [starnuma]="--set topology.socket.tracking.impl=model --set topology.socket.tracking.metadata_cache_lines=1024"
)
declare -A platform=([baseline]=baseline16-scaled [starnuma]=starnuma16-scaled)
mkdir -p "$out"
for m in baseline starnuma; do
  # shellcheck disable=SC2206
  extra=(${sets[$m]})
  mkdir -p "$out/$m"
  start=$(date +%s)
  "$starnuma" checkpoint "$root/platforms/${platform[$m]}.yaml" --workload "$workload" --checkpoints "$checkpoints" \
    "${common[@]}" "${extra[@]}" --out "$out/$m/checkpoints" --no-progress >"$out/$m/checkpoint.txt"
  mid=$(date +%s)
  "$starnuma" sample "$root/platforms/${platform[$m]}.yaml" --checkpoints "$out/$m/checkpoints" "${common[@]}" \
    "${extra[@]}" --warmup "$warmup" --instructions "$window" --jobs "${JOBS:-2}" --out "$out/$m/sampled" \
    >"$out/$m/sample.txt"
  end=$(date +%s)
  echo "$m: functional pass $((mid - start)) s, windows $((end - mid)) s" >&2
  echo "== $m"
  cat "$out/$m/checkpoint.txt"
  cat "$out/$m/sample.txt"
done
python3 - "$out" <<'PY'
import json, sys
b = json.load(open(f"{sys.argv[1]}/baseline/sampled/sampled.json"))
s = json.load(open(f"{sys.argv[1]}/starnuma/sampled/sampled.json"))
print(f"\nspeedup {s['ipc'] / b['ipc']:.2f}x, AMAT reduction {100 * (1 - s['amat_ns'] / b['amat_ns']):.1f} % "
      f"(baseline IPC {b['ipc']:.4f}, AMAT {b['amat_ns']:.0f} ns; StarNUMA IPC {s['ipc']:.4f}, AMAT {s['amat_ns']:.0f} ns; "
      f"{100 * s['migration']['to_pool_fraction']:.0f} % of StarNUMA's migrations to the pool)")
PY
