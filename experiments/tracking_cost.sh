#!/usr/bin/env bash
# What StarNUMA's tracking hardware costs each workload (docs/tracking.md, "The cost per workload"):
# continuous runs on starnuma16-scaled with dynamic placement by its T16 trackers, phases of PHASE
# instructions, over INSTRUCTIONS per thread, once with the metadata through the coherent LLCs (the
# default, `tracking.metadata_path: llc`) and once through a metadata cache of the trackers' own,
# which no other socket's update invalidates (`cache`): the same flushes, without the metadata
# lines' coherence. Then the table (experiments/tracking_cost_table.py): per workload the flushes
# and their stalls per 1 000 instructions, the share of the cores' cycles their trackers held them,
# the metadata requests the LLC served, and the IPC both ways. Everything is kept under OUT.
#
#   bash experiments/tracking_cost.sh [OUT] [WORKLOAD...]
#
# Environment: STARNUMA (default: build/starnuma), MACHINE (default starnuma16-scaled), PHASE
# (default 200000), INSTRUCTIONS (default 600000), JOBS (runs at once, default 2), SETS (more
# KEY=VALUE settings, space-separated).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-tracking-cost}
shift || true
workloads=("$@")
((${#workloads[@]})) || workloads=("bfs:scale=16,trials=100" "cc:scale=16,algorithm=afforest,trials=100"
  "sssp:scale=16,trials=100" "tc:scale=16" masstree tpcc fmi poa kv sharing)
starnuma=${STARNUMA:-$root/build/starnuma}
platform="$root/platforms/${MACHINE:-starnuma16-scaled}.yaml"
sets=(--set "os.phase_instructions=${PHASE:-200000}")
for extra in ${SETS:-}; do sets+=(--set "$extra"); done
mkdir -p "$out"
running=()  # JOBS at once; each waited for by its pid, so that a failed run stops the study
for workload in "${workloads[@]}"; do
  for path in llc cache; do
    case="$out/$(echo "$workload" | tr ':,=' '_-_')-$path"
    [ -f "$case/stats.json" ] && continue  # resumes: a run done is kept
    rm -rf "$case"
    "$starnuma" run "$platform" --workload "$workload" "${sets[@]}" --set "topology.socket.tracking.metadata_path=$path" \
      --placement dynamic --instructions "${INSTRUCTIONS:-600000}" --no-progress --out "$case" >/dev/null &
    running+=($!)
    if ((${#running[@]} >= ${JOBS:-2})); then
      wait "${running[0]}"
      running=("${running[@]:1}")
    fi
  done
done
for pid in "${running[@]}"; do wait "$pid"; done
python3 "$root/experiments/tracking_cost_table.py" "$out"
