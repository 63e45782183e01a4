#!/usr/bin/env bash
# The CHMU against the trackers (experiments/chmu.yaml, 64 runs, about 40 minutes on 2 cores): the
# Markdown table of docs/cxl-device.md, "Against the trackers", from the sweep's results in OUT.
#
#   bash experiments/chmu.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-chmu-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/chmu.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/chmu_tables.py" "$out"
