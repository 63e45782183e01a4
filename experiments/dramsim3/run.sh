#!/usr/bin/env bash
# The DDR5 model's reference, run here: DRAMsim3 with the StarNUMA artifact's DDR5-4800 settings
# (ddr5-4800.ini, from the settings in docs/memory.md), driven by random traffic at each write
# fraction, saturated, and at 10, 50 and 70 % of the peak; then starnuma's memory-curve on one
# channel at the same points, for docs/memory.md's write-draining table.
#
#   bash experiments/dramsim3/run.sh DRAMSIM3_DIR
#
# DRAMSIM3_DIR is a built checkout of DRAMsim3 (its libdramsim3.so beside src/); it is not a
# Debian package, so it is not a dependency of starnuma: this script is for recalibration only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
ds3=${1:?usage: bash experiments/dramsim3/run.sh DRAMSIM3_DIR}
starnuma=${STARNUMA:-$root/build/starnuma}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O2 -std=c++17 -I"$ds3/src" -I"$ds3/ext/headers" "$here/harness.cpp" -L"$ds3" -ldramsim3 \
  -Wl,-rpath,"$ds3" -o "$tmp/harness"
fractions=(0 0.1 0.25 0.3333 0.5 0.75 1.0)
echo "saturated bandwidth, GB/s, one DDR5-4800 channel (two subchannels), random lines"
printf "%-22s" "write fraction"; printf " %6s" "${fractions[@]}"; echo
printf "%-22s" "DRAMsim3"
for w in "${fractions[@]}"; do
  "$tmp/harness" "$here/ddr5-4800.ini" "$w" 2.0 1000000 "$tmp" | sed 's/.*: \([0-9.]*\) GB\/s.*/\1/' | xargs printf " %6s"
done
echo
for wb in 2 4 8; do
  printf "%-22s" "starnuma write_batch $wb"
  for w in "${fractions[@]}"; do
    "$starnuma" memory-curve "$root/platforms/baseline16.yaml" --set topology.socket.memory.channels=1 \
      --set "topology.socket.memory.write_batch=$wb" --write-fraction "$w" --loads 0.5 --json |
      python3 -c 'import json, sys; print("%.2f" % [p for p in json.load(sys.stdin)["points"] if p["closed_loop"]][0]["achieved_GBps"])' |
      xargs printf " %6s"
  done
  echo
done
echo
echo "mean read latency, ns, at 10 / 50 / 70 % of the 38.4 GB/s peak"
for w in 0 0.3333; do
  printf "DRAMsim3, %s writes:" "$w"
  for l in 0.1 0.5 0.7; do
    "$tmp/harness" "$here/ddr5-4800.ini" "$w" "$l" 2000000 "$tmp" | sed 's/.*latency \([0-9.]*\) ns/\1/' | xargs printf " %s"
  done
  echo
  printf "starnuma, %s writes:" "$w"
  "$starnuma" memory-curve "$root/platforms/baseline16.yaml" --set topology.socket.memory.channels=1 \
    --write-fraction "$w" --loads 0.1,0.5,0.7 --outstanding 0 --json |
    python3 -c 'import json, sys; print(" ".join("%.1f" % p["mean_read_latency_ns"] for p in json.load(sys.stdin)["points"]))'
done
