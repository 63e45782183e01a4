#!/usr/bin/env bash
# Dynamic migration studies (docs/os.md, docs/validation.md): for each workload, on the scaled
# 16-socket machines, first touch and the static oracle on both, then dynamic placement with each
# migration limit: the baseline with perfect per-page knowledge, StarNUMA with T16 and with T0
# trackers. Picks the best limit per workload and configuration, as the paper did, and prints
# Fig. 8 with migration, T0 against T16, Table IV, Fig. 9 and the limit sweep as Markdown.
# Runs go to OUT/<workload>/<config>/stats.json and are skipped when done; two run at a time.
#
#   bash experiments/migration.sh [OUT] [INSTRUCTIONS] [PHASE]
#
# Environment: STARNUMA (default: build/starnuma), WORKLOADS (default below: workloads that run
# through the whole window), LIMITS (pages per phase, default "0 256 1024 4096"), SETS (K=V given
# to every run with --set).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-migration-results}
instructions=${2:-2000000}
phase=${3:-250000}
starnuma=${STARNUMA:-$root/build/starnuma}
workloads=${WORKLOADS:-"bfs:scale=18,trials=100 kv sharing"}
limits=${LIMITS:-"0 256 1024 4096"}
common=(--instructions "$instructions" --no-progress --set "os.phase_instructions=$phase")
for kv in ${SETS:-}; do common+=(--set "$kv"); done
tracking=(--set topology.socket.tracking.impl=model)

# One run: NAME PLATFORM ARGS... into OUT/<workload>/NAME, unless done.
run() {
  local dir=$1 platform=$2
  shift 2
  if [ -f "$dir/stats.json" ]; then return 0; fi
  mkdir -p "$dir"
  "$starnuma" run "$root/platforms/$platform.yaml" --workload "$workload" "${common[@]}" "$@" --out "$dir" \
    >"$dir/run.txt" 2>&1 || { echo "failed: $dir (see $dir/run.txt)" >&2; return 1; }
}

jobs=()
for workload in $workloads; do
  w="$out/${workload%%:*}"
  echo "== $workload" >&2
  configs=("ft-base baseline16-scaled --placement first-touch"
           "ft-star starnuma16-scaled --placement first-touch"
           "oracle-base baseline16-scaled --placement oracle"
           "oracle-star starnuma16-scaled --placement oracle")
  for l in $limits; do
    configs+=("perfect-base-$l baseline16-scaled --placement dynamic --set os.migration_limit=$l"
              "t16-star-$l starnuma16-scaled --placement dynamic --set os.migration_limit=$l ${tracking[*]}"
              "t0-star-$l starnuma16-scaled --placement dynamic --set os.migration_limit=$l ${tracking[*]} --set topology.socket.tracking.counter_bits=0")
  done
  for c in "${configs[@]}"; do
    read -r -a args <<<"$c"
    run "$w/${args[0]}" "${args[@]:1}" &
    jobs+=($!)
    if [ ${#jobs[@]} -ge 2 ]; then wait "${jobs[0]}"; jobs=("${jobs[@]:1}"); fi
  done
done
for j in "${jobs[@]}"; do wait "$j"; done
python3 "$root/experiments/migration_tables.py" "$out" "$limits" $workloads
