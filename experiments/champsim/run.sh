#!/usr/bin/env bash
# The core model's reference, run here: ChampSim, the simulator of the StarNUMA artifact, built with
# Table I's core and caches (table1.json), runs the very stream a starnuma core runs (one thread of
# a workload, recorded by `starnuma trace record` and written by `starnuma trace champsim`); then
# starnuma runs the same ChampSim file on one core of one socket with each `core.dependent_loads`.
# Printed per workload: IPC, LLC misses, their mean latency and the misses in flight (Little's law:
# misses x mean latency / time), for docs/cores.md's table and the decision in docs/decisions.md.
#
#   bash experiments/champsim/run.sh CHAMPSIM_DIR [WORKLOAD...]
#
# CHAMPSIM_DIR is a checkout of github.com/ChampSim/ChampSim; it is not a Debian package, so it is
# not a dependency of starnuma: this script is for recalibration only. It is built here (once)
# against Debian's libfmt-dev, libcli11-dev, nlohmann-json3-dev, liblzma-dev, libbz2-dev and
# zlib1g-dev instead of its vcpkg. WARMUP and INSTRUCTIONS (per thread) set the window.
#
# ChampSim's memory is its DRAM alone; starnuma's local access adds the socket's 40 ns uncore. The
# starnuma runs drop it (uncore_latency 0), so both cores see about the same miss latency (printed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cs=$(cd "${1:?usage: bash experiments/champsim/run.sh CHAMPSIM_DIR [WORKLOAD...]}" && pwd)
shift
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=("bfs:scale=20,trials=4" "cc:scale=20,trials=2" "masstree")
starnuma=${STARNUMA:-$root/build/starnuma}
warmup=${WARMUP:-4000000}
measure=${INSTRUCTIONS:-8000000}
champsim=$cs/bin/champsim-table1
if [ ! -x "$champsim" ]; then
  (
    cd "$cs"
    ./config.sh "$here/table1.json"
    sed -i 's/ -isystem *$//' absolute.options  # no vcpkg include folder
    mkdir -p .debian-libs && ar rc .debian-libs/libCLI11.a  # Debian's CLI11 is headers only
    make -j2 LDFLAGS=-L"$cs/.debian-libs"
  ) >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one_core=(--set topology.chassis=1 --set topology.sockets_per_chassis=1 --set topology.flex_asics_per_chassis=1
  --set topology.socket.cores=1)
platform=$root/platforms/baseline16-scaled.yaml
printf "%-24s %-18s %7s %10s %13s %10s\n" workload core IPC "LLC misses" "latency (ns)" "in flight"
for w in "${workloads[@]}"; do
  "$starnuma" trace record "$platform" "${one_core[@]}" --workload "$w" --instructions $((warmup + measure)) \
    --out "$tmp/w.snt" > /dev/null
  "$starnuma" trace champsim "$tmp/w.snt" --out "$tmp/w.champsim" --from-measurement > /dev/null
  "$champsim" --warmup-instructions "$warmup" --simulation-instructions "$measure" "$tmp/w.champsim" > "$tmp/cs.txt"
  # The region of interest's cycles and the LLC's demand misses (loads, stores' RFOs, page walks).
  python3 - "$tmp/cs.txt" "$w" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
roi = text[text.index("Region of Interest"):]
instructions, cycles = map(int, re.search(r"CPU 0 cumulative IPC: \S+ instructions: (\d+) cycles: (\d+)", roi).groups())
misses = sum(int(re.search(r"cpu0->LLC %s\s+ACCESS:\s+\d+\s+HIT:\s+\d+\s+MISS:\s+(\d+)" % k, roi).group(1))
             for k in ("LOAD", "RFO", "TRANSLATION"))
latency = float(re.search(r"cpu0->LLC AVERAGE MISS LATENCY: ([\d.]+) cycles", roi).group(1))
print("%-24s %-18s %7.3f %10d %13.1f %10.2f" % (sys.argv[2], "ChampSim", instructions / cycles, misses,
                                                latency / 2.4, misses * latency / cycles))
PY
  for d in stall overlap; do
    "$starnuma" run "$platform" "${one_core[@]}" --set topology.socket.uncore_latency=0ns \
      --set "topology.socket.core.dependent_loads=$d" --trace-in "$tmp/w.champsim" --warmup "$warmup" \
      --instructions "$measure" --json 2> /dev/null |
      python3 -c 'import json, sys
r = json.load(sys.stdin)
print("%-24s %-18s %7.3f %10d %13.1f %10.2f" % (sys.argv[1], "starnuma " + sys.argv[2], r["ipc"], r["llc_misses"],
      r["amat_ns"], r["llc_misses"] * r["amat_ns"] / r["sim_time_ns"]))' "$w" "$d"
  done
  rm -f "$tmp"/w.*
done
