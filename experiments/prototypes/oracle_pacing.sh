#!/usr/bin/env bash
# With oracle_pacing.patch built: paces a coverage case's functional pass by every thread's IPC over
# the case's continuous run (an oracle no real pass has: the rates of the very stretch it samples),
# times the units, and compares them with a continuous run over the paced units' stretch
# (docs/sampling.md, "Next", item 3).
#
#   bash experiments/prototypes/oracle_pacing.sh STUDY WORKLOAD CASE MACHINE OUT
#   e.g. ... /tmp/cov tpcc tpcc baseline16-scaled /tmp/pace      (STUDY: experiments/coverage.sh's OUT)
#
# Environment: STARNUMA (the patched build, default build/starnuma).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
study=$1 workload=$2 name=$3 machine=$4 out=$5/$3-$4
starnuma=${STARNUMA:-$root/build/starnuma}
platform=$root/platforms/$machine.yaml
sets=(--set os.phase_instructions=200000)
rm -rf "$out" && mkdir -p "$out"
continuous() {  # continuous MANIFEST OUTDIR: the run over the stretch the manifest's units stand for
  read -r from span < <(python3 "$root/experiments/coverage_stretch.py" "$1" 20000)
  "$starnuma" run "$platform" --workload "$workload" "${sets[@]}" --placement dynamic --warmup "$from" \
    --instructions "$span" --common-span --no-progress --out "$2" > /dev/null 2>&1
}
continuous "$study/$name-$machine/manifest.json" "$out/rates-run"
python3 - "$out/rates-run/stats.json" > "$out/rates.txt" <<'PY'
import json, sys
nodes = json.load(open(sys.argv[1]))["stats"]["nodes"]
for n in sorted((n for n in nodes if n.startswith("socket")), key=lambda s: int(s[6:])):
    for k in sorted((k for k in nodes[n] if k.startswith("core")), key=lambda s: int(s[4:])):
        c = nodes[n][k]
        print(c["instructions"] / c["cycles"] if c["cycles"] else 0)
PY
STARNUMA_PROTOTYPE_PACE_FILE=$out/rates.txt "$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" \
  --checkpoints 3 --unit-every 20000 --warm-llcs --timed-start 50000 --out "$out/checkpoints" --no-progress > /dev/null
"$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$out/checkpoints" --warmup 10000 --instructions 20000 \
  --jobs 2 --common-span --warm-tlbs --warm-llcs --json > "$out/sampled.json" 2> /dev/null
mv "$out/checkpoints/manifest.json" "$out/manifest.json" && rm -rf "$out/checkpoints"
continuous "$out/manifest.json" "$out/continuous"
python3 - "$out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/sampled.json"))
c = json.load(open(sys.argv[1] + "/continuous/stats.json"))
ci = s["confidence"]["ipc"]
held = "held" if ci["low"] <= c["ipc"] <= ci["high"] else "missed"
print(f"{sys.argv[1]}: {s['windows']} units, IPC {s['ipc']:.4f} ({ci['low']:.4f}-{ci['high']:.4f}), "
      f"continuous {c['ipc']:.4f}: {held} ({100 * (s['ipc'] / c['ipc'] - 1):+.0f} %)")
PY
