#!/usr/bin/env bash
# With trajectory_pacing.patch built: paces a coverage case's functional pass by every thread's own
# trajectory in a continuous run (its instructions every microsecond of simulated time, as pieces of
# constant IPC), so that the pass's threads are where the continuous run's are at every boundary and
# unit; then times the units and compares them with a continuous run over their stretch
# (docs/sampling.md, "Threads that drift apart").
#
#   bash experiments/prototypes/trajectory_pacing.sh MACHINE WORKLOAD OUT [KEY=VALUE...]
#   e.g. ... baseline16-scaled "tc:scale=16" /tmp/traj os.migration_limit=0
#
# Environment: STARNUMA (the patched build, default build/starnuma).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
machine=$1 workload=$2 out=$3
shift 3
starnuma=${STARNUMA:-$root/build/starnuma}
platform=$root/platforms/$machine.yaml
sets=(--set os.phase_instructions=200000)
for extra in "$@"; do sets+=(--set "$extra"); done
rm -rf "$out" && mkdir -p "$out"
pass() {  # pass EVERY DIR [ENV...]: the functional pass with units every EVERY
  env "${@:3}" "$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" --checkpoints 3 --unit-every "$1" \
    --warm-llcs --timed-start 50000 --out "$2" --no-progress >/dev/null
}
continuous() {  # continuous MANIFEST EVERY [ENV...]: the run over the stretch the units stand for, on stdout
  read -r from span < <(python3 "$root/experiments/coverage_stretch.py" "$1" "$2")
  env "${@:3}" "$starnuma" run "$platform" --workload "$workload" "${sets[@]}" --placement dynamic --warmup "$from" \
    --instructions "$span" --common-span --no-progress --json 2>/dev/null
}
pass 20000 "$out/plain"
continuous "$out/plain/manifest.json" 20000 STARNUMA_PROTOTYPE_TRAJECTORY="$out/trajectory.txt" >"$out/trajectory-run.json"
python3 - "$out/trajectory.txt" >"$out/pace.txt" <<'PY'
import sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]  # us, then each thread's instructions
for t in range(len(rows[0]) - 1):  # pieces of at least 500 instructions: FROM RATE (per ns: only ratios count)
    pieces, t0, p0 = [], rows[0][0], rows[0][1 + t]
    for r in rows[1:]:
        if r[1 + t] - p0 >= 500:
            pieces.append(f"{0 if not pieces else int(p0)} {(r[1 + t] - p0) / ((r[0] - t0) * 1000):.6g}")
            t0, p0 = r[0], r[1 + t]
    print(" ".join(pieces))
PY
pass 5000 "$out/paced" STARNUMA_PROTOTYPE_PACE_FILE="$out/pace.txt"
"$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$out/paced" --warmup 10000 --instructions 20000 --jobs 2 \
  --common-span --warm-tlbs --warm-llcs --json >"$out/sampled.json" 2>/dev/null
continuous "$out/paced/manifest.json" 5000 >"$out/continuous.json"
python3 - "$out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/sampled.json"))
c = json.load(open(sys.argv[1] + "/continuous.json"))
m = json.load(open(sys.argv[1] + "/paced/manifest.json"))
ci = s["confidence"]["ipc"]
held = "held" if ci["low"] <= c["ipc"] <= ci["high"] else "missed"
print(f"{sys.argv[1]}: {s['windows']} units, IPC {s['ipc']:.4f} ({ci['low']:.4f}-{ci['high']:.4f}), continuous "
      f"{c['ipc']:.4f}: {held} ({100 * (s['ipc'] / c['ipc'] - 1):+.0f} %); boundaries at the mean thread's "
      + ", ".join(str(p["mean_instructions"]) for p in m["phases"]))
PY
