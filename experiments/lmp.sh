#!/usr/bin/env bash
# The logical-memory-pools paper's vector sum (experiments/lmp.yaml, 22 runs, about 15 s on 2
# cores) as a Markdown table of bandwidths. Results are kept in OUT.
#
#   bash experiments/lmp.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-lmp-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/lmp.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/lmp_tables.py" "$out"
