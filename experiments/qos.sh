#!/usr/bin/env bash
# CXL QoS telemetry on a shared pool (experiments/qos.yaml, 5 runs, about a minute on 2 cores): the
# Markdown table of docs/cxl-device.md, "QoS telemetry", from the sweep's results in OUT.
#
#   bash experiments/qos.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-qos-results}
starnuma=${STARNUMA:-$root/build/starnuma}
"$starnuma" sweep "$root/experiments/qos.yaml" --out "$out" --jobs "${JOBS:-$(nproc)}"
/usr/bin/python3 "$root/experiments/qos_tables.py" "$out"
