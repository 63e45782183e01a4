#!/usr/bin/env bash
# Dynamic capacity released under a running workload (experiments/dcd.yaml, 5 runs, under a minute
# on 2 cores): the Markdown table of docs/cxl-device.md, "Dynamic capacity", from the sweep's
# results in OUT.
#
#   bash experiments/dcd.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-dcd-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/dcd.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/dcd_tables.py" "$out"
