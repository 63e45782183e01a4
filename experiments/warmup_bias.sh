#!/usr/bin/env bash
# How long a unit's detailed warm-up must be (issue 38; docs/sampling.md, "The windows' warm-up"):
# the L1s and L2s, which the functional pass does not keep, warm in each window's detailed warm-up,
# and a short one biases the units. For each workload and both scaled 16-socket machines and each
# warm-up W of WARMUPS, a functional pass with units every EVERY instructions of the mean thread,
# offset by EVERY - W (`checkpoint --unit-offset`; otherwise `checkpoint`'s defaults: LLCs,
# directories, TLBs and annexes warm), then its units timed with that warm-up (`sample --warmup W
# --instructions WINDOW`): every warm-up's windows measure the same stretches of the work, those
# from each multiple of EVERY, so the table's differences against the longest warm-up are the
# warm-up's alone, paired unit by unit. Everything is kept under OUT (the manifests, sampled.json
# per warm-up); a case done is kept (resumes).
#
#   bash experiments/warmup_bias.sh [OUT] [WORKLOAD...]
#
# Environment: STARNUMA (default: build/starnuma), PHASE (instructions per thread per phase, default
# 1000000), EVERY (default 200000), WINDOW (default 20000), WARMUPS (default "10000 20000 50000
# 100000", the last the reference; each below EVERY), MACHINES (default "baseline16-scaled
# starnuma16-scaled"), JOBS (windows at once, default 2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-warmup-bias-results}
shift || true
workloads=("$@")
((${#workloads[@]})) || workloads=(kv poa masstree sharing tpcc "bfs:scale=16,trials=100"
  "cc:scale=16,algorithm=afforest,trials=100" "sssp:scale=16,trials=100" fmi "tc:scale=16")
starnuma=${STARNUMA:-$root/build/starnuma}
phase=${PHASE:-1000000}
every=${EVERY:-200000}
window=${WINDOW:-20000}
read -r -a warmups <<<"${WARMUPS:-10000 20000 50000 100000}"
read -r -a machines <<<"${MACHINES:-baseline16-scaled starnuma16-scaled}"
sets=(--set "os.phase_instructions=$phase")
mkdir -p "$out"
for workload in "${workloads[@]}"; do
  for m in "${machines[@]}"; do
    case="$out/$(echo "$workload" | tr ':,=' '_-_')-$m"
    [ -f "$case/done" ] && continue
    rm -rf "$case" && mkdir -p "$case"
    platform="$root/platforms/$m.yaml"
    for w in "${warmups[@]}"; do
      "$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" --checkpoints 3 --unit-every "$every" \
        --unit-offset $(((every - w % every) % every)) --out "$case/checkpoints" --no-progress >"$case/checkpoint-$w.txt"
      "$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$case/checkpoints" --warmup "$w" \
        --instructions "$window" --jobs "${JOBS:-2}" --json >"$case/warmup-$w.json" 2>"$case/warmup-$w.err"
      mv "$case/checkpoints/manifest.json" "$case/manifest-$w.json"
      rm -rf "$case/checkpoints"  # hundreds of MB
    done
    touch "$case/done"
  done
done
python3 "$root/experiments/warmup_bias_table.py" "$out"
