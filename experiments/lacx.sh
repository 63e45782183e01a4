#!/usr/bin/env bash
# The LACX paper's experiments (experiments/lacx.yaml, 12 runs, about 20 s on 2
# cores): AutoNUMA against LACX as Markdown tables, and per-node bandwidth over time in
# docs/figures/lacx.png. Results are kept in OUT.
#
#   bash experiments/lacx.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-lacx-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/lacx.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/lacx_tables.py" "$out" --figure "$root/docs/figures/lacx.png"
