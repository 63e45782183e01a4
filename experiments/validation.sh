#!/usr/bin/env bash
# docs/validation.md and README's main-job lines from one database: runs the sweep of
# experiments/validation.yaml into OUT, the companion papers' sweeps (experiments/multichip.yaml,
# lacx.yaml, hpc_pooling.yaml, lmp.yaml) and the StarNUMA paper's evaluation by its own method
# (experiments/paper.yaml, 13.5 core-hours: docs/cluster.md) into OUT/NAME, the paper's into
# experiments/results/paper where its results are committed (each resumes: runs done by a starnuma
# built from the same sources, with the same inputs, are kept), draws their figures (the paper's into
# docs/figures/paper with `starnuma report`), then computes every number from the databases and
# writes the page from docs/validation.md.in (tools/report/validation_doc.py; docs/reports.md).
#
#   bash experiments/validation.sh [OUT] [SWEEP OPTIONS...]     e.g. --jobs 2, --executor slurm --time 2:00:00
#
# Environment: STARNUMA (default: build/starnuma).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-validation-results}
shift || true
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/validation.yaml" --out "$out" "$@"
for companion in multichip lacx hpc_pooling lmp; do
  "$starnuma" sweep "$root/experiments/$companion.yaml" --out "$out/$companion" "$@"
done
# The paper's evaluation resumes its committed results (experiments/results/README.md).
"$starnuma" sweep "$root/experiments/paper.yaml" --out "$root/experiments/results/paper" "$@"
for figure in multichip lacx; do
  /usr/bin/python3 "$root/experiments/${figure}_tables.py" "$out/$figure" --figure "$root/docs/figures/$figure.png" > /dev/null
done
/usr/bin/python3 "$root/tools/report/report.py" "$root/experiments/results/paper" --format png --out "$root/docs/figures/paper" > /dev/null
/usr/bin/python3 "$root/tools/report/validation_doc.py" "$out"
