#!/usr/bin/env bash
# The functional passes of a coverage study (experiments/coverage.sh) again at five times the
# length, for experiments/units_cost.py: with the two lengths it separates a pass's fixed cost
# from its cost per access and prices the sampled evaluation at the paper's lengths
# (docs/cluster.md, "Units at the paper's lengths"). Only the manifests are kept, under LONG.
#
#   bash experiments/units_cost.sh SHORT LONG
#
# Environment: STARNUMA (default: build/starnuma), SCALE (the longer length over the study's,
# default 5), SETS and CHECKPOINT_OPTIONS (as the study's, e.g. "--timed-start 50000").
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
short=${1:?usage: units_cost.sh SHORT LONG}
long=${2:?usage: units_cost.sh SHORT LONG}
starnuma=${STARNUMA:-$root/build/starnuma}
scale=${SCALE:-5}
mkdir -p "$long"
for case in "$short"/*/; do
  [ -f "$case/done" ] || continue
  name=$(basename "$case")
  [ -f "$long/$name/manifest.json" ] && continue  # resumes
  read -r workload platform phase every < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(m["workload"], m["platform"], m["phase_instructions"] * int(sys.argv[2]), m["unit_every"] * int(sys.argv[2]))' \
    "$case/manifest.json" "$scale")
  rm -rf "$long/$name" && mkdir -p "$long/$name"
  sets=(--set "os.phase_instructions=$phase")
  for extra in ${SETS:-}; do sets+=(--set "$extra"); done
  "$starnuma" checkpoint "$platform" --workload "$workload" "${sets[@]}" --checkpoints 3 \
    --unit-every "$every" --warm-llcs ${CHECKPOINT_OPTIONS:-} --out "$long/$name/checkpoints" --no-progress >/dev/null
  mv "$long/$name/checkpoints/manifest.json" "$long/$name/manifest.json"
  rm -rf "$long/$name/checkpoints"
done
