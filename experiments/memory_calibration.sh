#!/usr/bin/env bash
# The DDR5 model against its reference (docs/memory.md): bandwidth-latency curves of one DDR5-4800
# channel (the reference's organisation: two subchannels, 8 x 4 banks, close page, refresh) for
# random reads, sequential reads and one third writes, plus the scaled platforms' memories and
# every socket reading the pool at once. Prints Markdown tables; writes the figure to OUT
# (default docs/figures/memory-curve.png).
#
#   bash experiments/memory_calibration.sh [OUT]
#
# Environment: STARNUMA (default: build/starnuma), PYTHON (default: /usr/bin/python3, with
# Debian's python3-matplotlib).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
starnuma=${STARNUMA:-$root/build/starnuma}
python=${PYTHON:-/usr/bin/python3}
out=${1:-$root/docs/figures/memory-curve.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_channel=(--set topology.socket.memory.channels=1)
loads=0.1,0.3,0.5,0.7,0.8,0.9
curve() {  # name, pattern, write fraction, then any further options
  local name=$1 pattern=$2 writes=$3
  shift 3
  "$starnuma" memory-curve "$root/platforms/baseline16.yaml" "${one_channel[@]}" --pattern "$pattern" \
    --write-fraction "$writes" --loads "$loads" --outstanding 256 --json "$@" > "$tmp/$name.json"
}
curve random random 0
curve sequential sequential 0
curve writes random 0.3333
# The scaled memories have 12 and 32 subchannels: more in flight to saturate them.
"$starnuma" memory-curve "$root/platforms/starnuma16-scaled.yaml" --node socket0 --loads "$loads" --outstanding 1024 \
  --json > "$tmp/scaled-socket.json"
"$starnuma" memory-curve "$root/platforms/starnuma16-scaled.yaml" --node pool --loads "$loads" --outstanding 2048 \
  --json > "$tmp/scaled-pool.json"
"$python" - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
ref = {0.1: (3.8, 68), 0.3: (11.2, 81), 0.5: (18.5, 105), 0.7: (25.3, 149), 0.8: (29.0, 208), 0.9: (32.2, 327)}
def load(name):
    return json.load(open(os.path.join(tmp, name + ".json")))
print("Random reads, one DDR5-4800 channel, against the reference (DRAMsim3):\n")
print("| offered load | offered GB/s | achieved GB/s (ref.) | mean read latency ns (ref.) | difference |")
print("|---|---|---|---|---|")
c = load("random")
for p in c["points"]:
    if p["closed_loop"]:
        print(f'| closed loop, 256 in flight | - | {p["achieved_GBps"]:.1f} (33.4 at saturation) | {p["mean_read_latency_ns"]:.0f} | {100 * (p["achieved_GBps"] / 33.4 - 1):+.1f} % bandwidth |')
        continue
    r = ref[round(p["load"], 1)]
    if p["achieved_GBps"] < 0.97 * p["offered_GBps"]:
        print(f'| {100 * p["load"]:.0f} % | {p["offered_GBps"]:.1f} | {p["achieved_GBps"]:.1f} ({r[0]}) | beyond saturation ({r[1]}) | - |')
        continue
    print(f'| {100 * p["load"]:.0f} % | {p["offered_GBps"]:.1f} | {p["achieved_GBps"]:.1f} ({r[0]}) | {p["mean_read_latency_ns"]:.0f} ({r[1]}) | {100 * (p["mean_read_latency_ns"] / r[1] - 1):+.1f} % |')
b = c["bounds_GBps"]
print(f'\nClosed-form limits of this organisation (GB/s): peak {b["peak"]:.1f}, refresh {b["refresh"]:.1f}, activate rate {b["activate"]:.1f}, banks {b["bank"]:.1f}.\n')
print("Other patterns and the scaled platforms' memories (mean read latency in the controller, ns, at each offered load; last column: closed loop):\n")
names = [("sequential", "sequential reads, one channel"), ("writes", "random, one third writes, one channel"),
         ("scaled-socket", "random reads, scaled socket (1 channel of 6)"), ("scaled-pool", "random reads, scaled pool (2 channels of 16)")]
loads = [p["load"] for p in c["points"] if not p["closed_loop"]]
print("| case | peak GB/s | " + " | ".join(f'{100 * l:.0f} %' for l in loads) + " | saturation GB/s (share of peak) |")
print("|---|---|" + "---|" * len(loads) + "---|")
for name, label in names:
    d = load(name)
    open_points = [p for p in d["points"] if not p["closed_loop"]]
    closed = [p for p in d["points"] if p["closed_loop"]]
    sat = closed[0]["achieved_GBps"] if closed else max(p["achieved_GBps"] for p in open_points)
    cells = []
    for p in open_points:
        diverged = p["achieved_GBps"] < 0.97 * p["offered_GBps"]
        cells.append("beyond" if diverged else f'{p["mean_read_latency_ns"]:.0f}')
    print(f'| {label} | {d["bounds_GBps"]["peak"]:.1f} | ' + " | ".join(cells) + f' | {sat:.1f} ({100 * sat / d["bounds_GBps"]["peak"]:.0f} %) |')
PY
"$python" "$root/tools/plot_memory_curve.py" "$out" "$tmp/random.json" "$tmp/sequential.json" "$tmp/writes.json" --reference
echo
echo "figure: $out"
