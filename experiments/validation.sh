#!/usr/bin/env bash
# The paper's evaluation as one study (docs/validation.md): for each workload, the scaled 16-socket
# baseline against StarNUMA (Fig. 8), against StarNUMA with a 190 ns pool overhead (Fig. 10), and
# the bandwidth variants (Fig. 11: baseline ISO-BW and 2x BW, StarNUMA half BW); oracle placement,
# coherence on (the platforms'). Runs go to OUT/<study>/<workload>/ and are skipped when done;
# prints the Markdown tables of docs/validation.md.
#
#   bash experiments/validation.sh [OUT] [INSTRUCTIONS] [WARMUP]
#
# Each run first warms up for WARMUP instructions per thread (default: as many as it measures).
# Environment: STARNUMA, WORKLOADS (default below), STUDIES (default: all five).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-validation-results}
instructions=${2:-500000}
export WARMUP=${3:-$instructions}
workloads=${WORKLOADS:-"bfs:scale=20 cc:scale=20,algorithm=sv sssp:scale=20 tc:scale=20 kv sharing"}
studies=${STUDIES:-"fig8 fig10 isobw 2xbw halfbw"}
for study in $studies; do
  case $study in
    fig8) base=baseline16-scaled other=starnuma16-scaled ;;
    fig10) base=baseline16-scaled other=starnuma16-190ns-scaled ;;
    isobw) base=baseline16-scaled other=baseline16-isobw-scaled ;;
    2xbw) base=baseline16-scaled other=baseline16-2xbw-scaled ;;
    halfbw) base=baseline16-scaled other=starnuma16-halfbw-scaled ;;
    *) echo "unknown study $study" >&2; exit 1 ;;
  esac
  echo "== $study: $base against $other" >&2
  BASE=$base OTHER=$other bash "$root/experiments/compare_all.sh" "$out/$study" "$instructions" $workloads >&2
done
python3 "$root/experiments/validation_tables.py" "$out" "$studies" $workloads
