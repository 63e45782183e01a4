#!/usr/bin/env bash
# One case of the coverage study (experiments/coverage.sh) by hand, for a prototype's A/B: the pass
# with a timed start of 50 K, units every 20 K, their windows of 10 K + 20 K with the options, and
# one continuous run over the same stretch at the platform's quantum, kept as OUT.run.json and
# reused by the next call with the same OUT (so two builds compare against one reference). Prints
# the units' IPC and AMAT with their 95 % intervals against the run's.
#
#   S=STARNUMA bash experiments/prototypes/coverage_case.sh OUT MACHINE WORKLOAD [KEY=VALUE...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$1 machine=$2 workload=$3
shift 3
starnuma=${S:-$root/build/starnuma}
platform=$root/platforms/$machine.yaml
sets=(--set os.phase_instructions=200000)
for extra in "$@"; do sets+=(--set "$extra"); done
rm -rf "$out" && mkdir -p "$out"
"$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" --checkpoints 3 --unit-every 20000 --warm-llcs \
  --timed-start 50000 --out "$out/checkpoints" --no-progress >"$out/checkpoint.txt"
"$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$out/checkpoints" --warmup 10000 --instructions 20000 \
  --jobs 2 --common-span --warm-tlbs --warm-llcs --out "$out/windows" --json >"$out/sampled.json"
read -r from span < <(python3 "$root/experiments/coverage_stretch.py" "$out/checkpoints/manifest.json" 20000)
[ -f "$out.run.json" ] || "$starnuma" run "$platform" --workload "$workload" "${sets[@]}" --placement dynamic \
  --warmup "$from" --instructions "$span" --common-span --no-progress --json >"$out.run.json"
rm -rf "$out/checkpoints"
python3 - "$out/sampled.json" "$out.run.json" "$workload $machine" <<'EOF'
import json
import sys

s, r = (json.load(open(f)) for f in sys.argv[1:3])
c = s["confidence"]
cell = lambda k: f"{s[k]:.4g} ({c[k]['low']:.4g}-{c[k]['high']:.4g}) against {r[k]:.4g}: {100 * (s[k] / r[k] - 1):+.1f} %"
print(sys.argv[3], "IPC", cell("ipc"), "| AMAT", cell("amat_ns"))
EOF
