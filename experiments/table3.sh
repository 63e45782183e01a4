#!/usr/bin/env bash
# The paper's Table III beside ours (experiments/table3.yaml, 45 runs, about 35 minutes on 2 cores).
# Results are kept in OUT.
#
#   bash experiments/table3.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-table3-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/table3.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/table3_tables.py" "$out"
