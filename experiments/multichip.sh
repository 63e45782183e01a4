#!/usr/bin/env bash
# The multi-chip placement paper's experiment (experiments/multichip.yaml, 18 runs, about 40 s on 2
# cores): each program's speedup over first touch as a Markdown table, and the figure in
# docs/figures/multichip.png. Results are kept in OUT.
#
#   bash experiments/multichip.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-multichip-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/multichip.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/multichip_tables.py" "$out" --figure "$root/docs/figures/multichip.png"
