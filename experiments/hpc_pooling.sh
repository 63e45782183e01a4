#!/usr/bin/env bash
# The CXL memory pooling paper's studies (experiments/hpc_pooling.yaml, 48 runs, about 15 s on 2
# cores) as Markdown tables: composed memory with the profiler's view, bandwidth scaling over CXL
# links, and hosts sharing a pool. Results are kept in OUT.
#
#   bash experiments/hpc_pooling.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-hpc-pooling-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/hpc_pooling.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/hpc_pooling_tables.py" "$out"
