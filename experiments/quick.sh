#!/usr/bin/env bash
# Runs experiments/quick.yaml (about 6 minutes on 2 cores) and regenerates the report shown in
# docs/quick-report/ (Markdown and PNG figures; docs/reports.md). Results are kept in OUT.
#
#   bash experiments/quick.sh [OUT]
#
# Environment: STARNUMA (default: build/starnuma), JOBS (runs at once, default: the host's cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-quick-results}
starnuma=${STARNUMA:-$root/build/starnuma}
out=$(realpath -m "$out")
cd "$root"  # the report names its spec as given: relative, not this host's path
"$starnuma" sweep experiments/quick.yaml --out "$out" --jobs "${JOBS:-$(nproc)}"
"$starnuma" report "$out" --format md --out docs/quick-report
echo "report: $root/docs/quick-report/report.md"
