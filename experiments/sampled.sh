#!/usr/bin/env bash
# The paper's headline comparison by its own method, the sampled evaluation (Fig. 6;
# docs/sampling.md), for one workload on both scaled 16-socket machines: the baseline migrating with
# perfect per-page knowledge, StarNUMA with T16 trackers (their metadata through the LLCs) and Algorithm 1:
# the platforms' own defaults, no --set.
# For each machine: `starnuma checkpoint` (the functional pass, N phase boundaries and, by the
# command's defaults, a unit every tenth of a phase, its LLCs and directories warm, the pages first
# placed by a timed start; the two machines' at once), then `starnuma sample` (one timing window per
# unit and boundary, two at a time, by default over a common span with warm TLBs, LLCs and
# directories: the units' method, which holds a continuous run's answer where the boundaries'
# windows alone do not, docs/sampling.md, "The main job against continuous runs"); then the
# aggregates side by side.
# README's main job. Everything is kept under OUT (checkpoints, windows, sampled.json).
#
#   bash experiments/sampled.sh [OUT] [WORKLOAD] [CHECKPOINTS]
#
# Environment: STARNUMA (default: build/starnuma), PHASE (instructions per thread per phase, default
# 2000000), WARMUP and WINDOW (per thread and window: default 50000 and 100000), LIMIT (migration
# limit, pages per phase, default 1024), JOBS (windows at once, default 2), CHECKPOINT_OPTIONS and
# SAMPLE_OPTIONS (more options of both machines' `starnuma checkpoint` and `starnuma sample`, after
# their defaults, the units' method; "--boundaries-only --no-warm-llcs --timed-start 0" and
# "--per-thread-budgets --no-warm-tlbs --no-warm-llcs" give the boundaries' windows alone, as the
# paper's method places them, with their biases: docs/sampling.md, "The defaults"), RECORD (1, the
# default: record the workload's streams once, `trace record` into OUT/streams.snt, and let both
# passes and every window read the recording, the same figures in less than half the time; 0: each
# pass and window produces them from the generator: docs/sampling.md, "Recorded streams"),
# CONTINUOUS=1 (then also run the same work continuously on both machines, every phase timed, and
# print it beside: what the sampled answer estimates).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-sampled-results}
workload=${2:-bfs:scale=18,trials=100}
checkpoints=${3:-5}
starnuma=${STARNUMA:-$root/build/starnuma}
phase=${PHASE:-2000000}
warmup=${WARMUP:-50000}
window=${WINDOW:-100000}
checkpoint_options=${CHECKPOINT_OPTIONS:-}
sample_options=${SAMPLE_OPTIONS:-}
common=(--set "os.phase_instructions=$phase" --set "os.migration_limit=${LIMIT:-1024}")
declare -A knows=([baseline16-scaled]="perfect per-page knowledge" [starnuma16-scaled]="T16 trackers, Algorithm 1")
record=${RECORD:-1}
case "$record" in
  0|1) ;;
  *) echo "error: RECORD=$record: 1 (record the streams once) or 0 (generate them)" >&2; exit 1 ;;
esac
echo "$workload: $checkpoints checkpoints, phases of $phase instructions per thread, windows of $window after" \
  "$warmup of warm-up, at most ${LIMIT:-1024} pages moved per phase"
source=(--workload "$workload")
if [ "$record" = 1 ]; then
  # Through the last boundary's phase (its units) of the mean thread, and the windows beyond it. The
  # phases count the mean thread's work and a thread runs ahead of it (on the main job the pass's
  # furthest thread reaches 1.13 times the mean's 12 M: manifest.json, furthest_instructions), hence a
  # quarter more; over a common span a fast thread may run several times its share, hence 4 x (warm-up
  # + window). A thread the pass or a window runs further goes on from the generator (slower, the same
  # stream; they say so). A workload that ends first is recorded whole (the recording says so).
  record_instructions=$(((checkpoints + 1) * phase * 5 / 4 + 4 * (warmup + window)))
  mkdir -p "$out"
  start=$(date +%s)
  "$starnuma" trace record "$root/platforms/starnuma16-scaled.yaml" --workload "$workload" \
    --instructions "$record_instructions" --out "$out/streams.snt" >"$out/record.txt"
  echo "streams recorded once in $(($(date +%s) - start)) s: $(paste -sd ';' "$out/record.txt" | sed 's/;/; /g')"
  source=(--trace-in "$out/streams.snt")
fi
# The two functional passes run side by side (one host core each), then each machine's windows.
machines=(baseline16-scaled starnuma16-scaled)
declare -A pass_pid
for m in "${machines[@]}"; do
  mkdir -p "$out/$m"
  (
    start=$(date +%s)
    "$starnuma" checkpoint "$root/platforms/$m.yaml" "${source[@]}" --checkpoints "$checkpoints" \
      "${common[@]}" --out "$out/$m/checkpoints" --no-progress $checkpoint_options >"$out/$m/checkpoint.txt"
    echo $(($(date +%s) - start)) >"$out/$m/checkpoint.seconds"
  ) &
  pass_pid[$m]=$!
done
failed=0
for m in "${machines[@]}"; do  # both waited for, so a failure leaves no pass running behind it
  wait "${pass_pid[$m]}" || { echo "error: the functional pass of $m failed (its error above)" >&2; failed=1; }
done
((failed == 0)) || exit 1
for m in "${machines[@]}"; do
  start=$(date +%s)
  "$starnuma" sample "$root/platforms/$m.yaml" --checkpoints "$out/$m/checkpoints" "${common[@]}" \
    --warmup "$warmup" --instructions "$window" --jobs "${JOBS:-2}" --out "$out/$m/sampled" \
    $sample_options >"$out/$m/sample.txt"
  end=$(date +%s)
  echo
  echo "== $m (${knows[$m]}): functional pass $(cat "$out/$m/checkpoint.seconds") s (both at once), windows $((end - start)) s"
  sed -n '/^window/,/^$/{/^$/d;p}' "$out/$m/sample.txt"
done
echo
python3 "$root/tools/report/main_job.py" "$out"
if [ "${CONTINUOUS:-0}" = 1 ]; then
  # The same work by continuous runs, every phase timed: what the sampled answer estimates, from
  # boundary 1 to the end of the last boundary's phase of the mean thread (docs/sampling.md, "The
  # main job against continuous runs"). A timed run counts its warm-up from the end of the
  # workload's initialisation, the pass from its start.
  init=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["initialised_at_mean_instructions"] or 0)' \
    "$out/${machines[0]}/checkpoints/manifest.json")
  declare -A run_pid
  for m in "${machines[@]}"; do
    "$starnuma" run "$root/platforms/$m.yaml" --workload "$workload" "${common[@]}" --placement dynamic \
      --warmup $((phase - init)) --instructions $((checkpoints * phase)) --common-span --no-progress --json \
      >"$out/$m/continuous.json" &
    run_pid[$m]=$!
  done
  for m in "${machines[@]}"; do
    wait "${run_pid[$m]}" || { echo "error: the continuous run of $m failed (its error above)" >&2; failed=1; }
  done
  ((failed == 0)) || exit 1
  echo
  python3 "$root/tools/report/main_job.py" --continuous "$out"
fi
