#!/usr/bin/env bash
# The coverage study of the sampled evaluation (issue 38; docs/sampling.md, "The coverage study"):
# for each workload and both scaled 16-socket machines, units every EVERY instructions of the mean
# thread from boundary 1 to the end of phase 3, each checkpoint its window's warm-up before the
# multiple it measures from (`checkpoint --warm-llcs --unit-every --unit-lead`), timed with
# the windows over a common span and the TLBs, LLCs and directories warm (`sample --common-span
# --warm-tlbs --warm-llcs`), against continuous runs over the same stretch of the mean thread's work
# (`run --placement dynamic --common-span`), one for each of DRAWS of the start's races
# (`platform.start_skew_draw`: the same workload and seed, its races decided anew): dynamic placement
# is chaotic, so the reference is their mean. Each draw also runs with the pass's moves (`checkpoint
# --moves`, `run --moves-from`), a second reference where only the sampling differs, since a phase's
# counts in the pass can send a hot page elsewhere than a timed run's do (docs/os.md,
# "The moves, page by page"); a second table against it. The first draw's run with the pass's moves
# keeps its statistics in CASE/counters (the units' counters against it: units_vs_runs.py
# --counters-all). Prints a table: each interval, whether it holds the reference, the threads' drift
# the sampled run reports; then the fraction that hold. Everything is kept under OUT
# (the windows' stats.json in CASE/windows).
#
#   bash experiments/coverage.sh [OUT] [WORKLOAD...]
#
# Environment: STARNUMA (default: build/starnuma), PHASE (instructions per thread per phase, default
# 200000), EVERY (default 20000), WARMUP and WINDOW (per thread and unit: default 50000, `sample`'s own
# default, and 20000),
# MACHINES (default "baseline16-scaled starnuma16-scaled"), JOBS (windows at once, default 2), SETS
# (more KEY=VALUE settings for every command, space-separated), CHECKPOINT_OPTIONS (more options of
# the functional pass, e.g. "--timed-start 0": the pass's own first touches instead of the default
# timed start of 50 K instructions; "--no-unit-jitter": the units on the grid instead of at random
# points of their stretches, the default), DRAWS (the continuous runs' platform.start_skew_draw, default
# "0 1 2 3 4"), QUANTA (their platform.quantum, default the platform's own; with several, one run
# for each draw and quantum, e.g. "100ns 60ns" to see that the reference has converged),
# REFERENCES_ONLY (when set: keep each case's sampled part in OUT and run only its continuous runs
# again, e.g. with other DRAWS; a case whose references were made with the same DRAWS and QUANTA is
# kept), SAMPLED_ONLY (when set: the opposite, for a change to the sampling alone: make each case's
# checkpoints and windows again and keep its continuous runs; a case whose sampled part this
# starnuma binary made is kept).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-coverage-results}
shift || true
workloads=("$@")
((${#workloads[@]})) || workloads=("bfs:scale=16,trials=100" "cc:scale=16,algorithm=afforest,trials=100"
  "sssp:scale=16,trials=100" "tc:scale=16" masstree tpcc fmi poa kv sharing)
starnuma=${STARNUMA:-$root/build/starnuma}
phase=${PHASE:-200000}
every=${EVERY:-20000}
warmup=${WARMUP:-50000}
window=${WINDOW:-20000}
draws=${DRAWS:-0 1 2 3 4}
quanta=${QUANTA:-own}
references="draws $draws, quanta $quanta"
read -r -a machines <<<"${MACHINES:-baseline16-scaled starnuma16-scaled}"
sets=(--set "os.phase_instructions=$phase")
for extra in ${SETS:-}; do sets+=(--set "$extra"); done
sampler=$(sha256sum "$starnuma" | cut -c1-16)
# A case's sampled part: the functional pass's checkpoints, the windows, the aggregate.
make_sampled() {
  local case=$1 platform=$2 workload=$3
  "$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" --checkpoints 3 --unit-every "$every" \
    --unit-lead "$warmup" --unit-jitter --warm-llcs --moves ${CHECKPOINT_OPTIONS:-} --out "$case/checkpoints" --no-progress \
    >"$case/checkpoint.txt"
  "$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$case/checkpoints" --warmup "$warmup" \
    --instructions "$window" --jobs "${JOBS:-2}" --common-span --warm-tlbs --warm-llcs --out "$case/windows" \
    --json >"$case/sampled.json"
  mv "$case/checkpoints/manifest.json" "$case/manifest.json"
  mv "$case/checkpoints/moves.csv" "$case/pass-moves.csv"
  rm -rf "$case/checkpoints"  # hundreds of MB
}
mkdir -p "$out"
for workload in "${workloads[@]}"; do
  for m in "${machines[@]}"; do
    case="$out/$(echo "$workload" | tr ':,=' '_-_')-$m"
    platform="$root/platforms/$m.yaml"
    if [ -n "${SAMPLED_ONLY:-}" ]; then
      if [ ! -f "$case/done" ]; then
        echo "coverage.sh: $case has no continuous runs to keep (run the study without SAMPLED_ONLY)" >&2
        exit 1
      fi
      [ "$(cat "$case/sampled-by" 2>/dev/null)" = "$sampler" ] && continue
      rm -rf "$case/windows" "$case/checkpoints" "$case/sampled.json"
      make_sampled "$case" "$platform" "$workload"
      echo "$sampler" >"$case/sampled-by"
      continue
    fi
    if [ -n "${REFERENCES_ONLY:-}" ]; then
      if [ ! -f "$case/sampled.json" ] || [ ! -f "$case/manifest.json" ]; then
        echo "coverage.sh: $case has no sampled part to keep (run the study without REFERENCES_ONLY)" >&2
        exit 1
      fi
      [ "$(cat "$case/references" 2>/dev/null)" = "$references" ] && continue
      rm -rf "$case"/continuous-* "$case"/as-pass-* "$case/counters" "$case/references" "$case/done"
    else
      [ -f "$case/done" ] && continue  # resumes: a case done is kept
      rm -rf "$case" && mkdir -p "$case"
      make_sampled "$case" "$platform" "$workload"
      echo "$sampler" >"$case/sampled-by"
    fi
    read -r from span < <(python3 "$root/experiments/coverage_stretch.py" "$case/manifest.json" "$every")
    running=()  # JOBS at once; each waited for by its pid, so that a failed run stops the study
    for draw in $draws; do
      for q in $quanta; do
        quantum=()
        [ "$q" = own ] || quantum=(--set "platform.quantum=$q")
        # Each draw twice: the run's own decisions, and the pass's (its moves.csv), which leaves the
        # sampling alone to differ (a study made before the list has only the first).
        for kind in continuous as-pass; do
          decided=()
          if [ "$kind" = as-pass ]; then
            [ -f "$case/pass-moves.csv" ] || continue
            decided=(--moves-from "$case/pass-moves.csv")
          fi
          name="$kind-d$draw-$q"
          # The first draw's run with the pass's moves keeps its statistics (about 200 KB), the
          # units' counters' reference (experiments/units_vs_runs.py --counters-all).
          kept=()
          [ "$kind" = as-pass ] && [ "$draw $q" = "${draws%% *} ${quanta%% *}" ] && kept=(--out "$case/counters")
          "$starnuma" run "$platform" --workload "$workload" "${sets[@]}" --set "platform.start_skew_draw=$draw" \
            "${quantum[@]}" "${decided[@]}" --placement dynamic --warmup "$from" --instructions "$span" \
            --common-span "${kept[@]}" --no-progress --json >"$case/$name.json" 2>"$case/$name.err" &
          running+=($!)
          if ((${#running[@]} >= ${JOBS:-2})); then
            wait "${running[0]}"
            running=("${running[@]:1}")
          fi
        done
      done
    done
    for pid in "${running[@]}"; do wait "$pid"; done
    echo "$references" >"$case/references"
    touch "$case/done"
  done
done
python3 "$root/experiments/coverage_table.py" "$out"
if compgen -G "$out/*/as-pass-*.json" >/dev/null; then
  echo
  python3 "$root/experiments/coverage_table.py" "$out" --reference as-pass
fi
