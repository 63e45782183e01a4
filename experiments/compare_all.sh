#!/usr/bin/env bash
# Runs `starnuma compare` of the scaled 16-socket baseline and StarNUMA platforms (oracle
# placement) for each workload, one after another, into OUT/<workload>/ (a workload whose
# compare.json exists is skipped). Used by fig8.sh and block_transfers.sh.
#
#   bash experiments/compare_all.sh OUT INSTRUCTIONS WORKLOAD...
#
# Environment: STARNUMA (default: build/starnuma), SETS (space-separated K=V given to --set),
# BASE and OTHER (platform names in platforms/, default baseline16-scaled and starnuma16-scaled),
# WARMUP (instructions per thread before measurement, default 0).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$1 instructions=$2
shift 2
starnuma=${STARNUMA:-$root/build/starnuma}
sets=()
for kv in ${SETS:-}; do sets+=(--set "$kv"); done
mkdir -p "$out"
for w in "$@"; do
  dir="$out/${w%%:*}"
  if [ -f "$dir/compare.json" ]; then echo "== $w: done before ($dir)"; continue; fi
  echo "== $w"
  "$starnuma" compare "$root/platforms/${BASE:-baseline16-scaled}.yaml" "$root/platforms/${OTHER:-starnuma16-scaled}.yaml" \
    --workload "$w" --placement oracle --instructions "$instructions" --warmup "${WARMUP:-0}" "${sets[@]}" --out "$dir" >"$dir.txt" 2>&1 ||
    { echo "failed: $w (see $dir.txt)" >&2; exit 1; }
done
