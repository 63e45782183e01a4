#!/usr/bin/env bash
# docs/validation.md and README's main-job lines from one database: runs the sweep of
# experiments/validation.yaml into OUT, the companion papers' sweeps (experiments/multichip.yaml,
# lacx.yaml, hpc_pooling.yaml, lmp.yaml) and the StarNUMA paper's evaluation by its own method
# (experiments/paper.yaml, 8.7 core-hours: docs/cluster.md) into OUT/NAME, the paper's into
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
# The paper's evaluation resumes its committed results (experiments/results/README.md) when this
# starnuma is built from the sources they came from. Another starnuma would run all of it again
# (8.7 core-hours): only with PAPER_RERUN=1; otherwise the page is made from the committed
# results, and says which sources produced them.
paper=$root/experiments/results/paper
theirs=$(python3 -c 'import sqlite3, sys; print(dict(sqlite3.connect(sys.argv[1]).execute("select key, value from meta"))["starnuma_sources"][:12])' "$paper/sweep.db" 2>/dev/null || true)
ours=$("$starnuma" --version | sed -n 's/.*sources \([0-9a-f]*\)).*/\1/p')
if [ -z "$theirs" ] || [ "$theirs" = "$ours" ] || [ "${PAPER_RERUN:-0}" = 1 ]; then
  "$starnuma" sweep "$root/experiments/paper.yaml" --out "$paper" "$@"
else
  echo "validation.sh: experiments/results/paper comes from sources $theirs, this starnuma from $ours:" \
       "its committed results are used as they are (PAPER_RERUN=1 runs them again; experiments/results/README.md)" >&2
fi
for figure in multichip lacx; do
  /usr/bin/python3 "$root/experiments/${figure}_tables.py" "$out/$figure" --figure "$root/docs/figures/$figure.png" > /dev/null
done
/usr/bin/python3 "$root/tools/report/report.py" "$paper" --format png --out "$root/docs/figures/paper" > /dev/null
/usr/bin/python3 "$root/tools/report/validation_doc.py" "$out"
