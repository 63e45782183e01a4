#!/usr/bin/env bash
# starnuma's speed against the StarNUMA paper's artifact (NUMA_Csim, ChampSim-based) on the same
# modelling and the same streams: a workload recorded by `starnuma trace record`, written as the
# artifact's trace set by `starnuma trace artifact` (socket0's four threads as ChampSim traces,
# every thread's memory accesses, one page-owner file for both), run by the artifact's StarNUMA
# binary (4C_16S: socket0 detailed out-of-order cores, the other fifteen sockets trace-driven,
# coherence on) and by starnuma with the same options (--detailed-sockets 1, coherence on, the
# page-owner file as the initial placement). Prints per workload each one's CPU time (user + system)
# and the detailed cores' IPC, for docs/performance.md.
#
#   bash experiments/artifact/speed.sh ARTIFACT_DIR [WORKLOAD...]
#
# ARTIFACT_DIR is a checkout of github.com/albertycho/StarNUMA_Artifact (only its DRAMsim3 and
# NUMA_Csim folders are used); it is not a Debian package, so it is not a dependency of starnuma.
# Its DRAMsim3 and its 4C_16S binary are built here once (g++ and make, Debian's). WARMUP and
# INSTRUCTIONS (per thread) set the window; the artifact's own runs use 20 M and 100 M, which take
# it hours on these workloads.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
artifact=$(cd "${1:?usage: bash experiments/artifact/speed.sh ARTIFACT_DIR [WORKLOAD...]}" && pwd)
shift
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=("sharing")
starnuma=${STARNUMA:-$root/build/starnuma}
warmup=${WARMUP:-100000}
measure=${INSTRUCTIONS:-500000}
numa_csim=$artifact/NUMA_Csim/bin/4C_16S
if [ ! -x "$numa_csim" ]; then
  (
    make -C "$artifact/DRAMsim3" -j2
    cd "$artifact/NUMA_Csim"
    # config.py writes the artifact's path into the DRAM model's configuration paths.
    STARNUMA_ARTIFACT_PATH=$artifact python3 config.py CONFIGS/4C_16SOCKET_config.json
    make -j2
  ) >&2
fi
export LD_LIBRARY_PATH=$artifact/DRAMsim3${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
platform=$root/platforms/starnuma16-scaled.yaml
TIMEFORMAT='%U %S'

# The CPU seconds (user + system) of a command; its output goes to $1, its errors to $1.err.
timed() {
  local out=$1
  shift
  local times
  times=$({ time "$@" > "$out" 2> "$out.err"; } 2>&1) || {
    echo "failed: $* (see $out.err)" >&2
    tail -5 "$out.err" >&2
    exit 1
  }
  awk '{printf "%.1f", $1 + $2}' <<< "$times"
}

printf "%-12s %-10s %12s %10s %10s\n" workload simulator "CPU (s)" "IPC (s0)" "x faster"
for w in "${workloads[@]}"; do
  name=${w%%:*}
  "$starnuma" trace record "$platform" --workload "$w" --instructions $((warmup + measure)) \
    --out "$tmp/$name.snt" > /dev/null
  "$starnuma" trace artifact "$tmp/$name.snt" --out "$tmp/$name" --phase 1 --from-measurement > /dev/null
  xz -T2 -1 "$tmp/$name"/champsim_*_1.trace
  owners=$tmp/$name/pagemaps/phase1_pagemaps
  mkdir -p "$tmp/run_$name"
  cp "$owners"/page_owner_pre.txt "$owners"/page_owner_post.txt "$tmp/run_$name"/
  traces=()
  for t in 0 1 2 3; do traces+=("$tmp/$name/champsim_${t}_1.trace.xz"); done
  cpu_artifact=$(cd "$tmp/run_$name" && timed "$tmp/run_$name/res.txt" "$numa_csim" --warmup_instructions "$warmup" \
    --simulation_instructions "$measure" --tb_cpu_trace_path "$tmp/$name" --tb_cpu_forward 1000000000 "${traces[@]}")
  cpu_starnuma=$(timed "$tmp/$name.out" "$starnuma" run "$platform" --trace-in "$tmp/$name" --trace-phase 1 \
    --detailed-sockets 1 --initial-placement "$owners/page_owner_pre.txt" --placement first-touch \
    --set coherence.enabled=true --warmup "$warmup" --instructions "$measure" --json --no-progress)
  python3 - "$tmp/run_$name/res.txt" "$tmp/$name.out" "$name" "$cpu_artifact" "$cpu_starnuma" <<'PY'
import json, re, sys
res, out, name, cpu_a, cpu_s = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
roi = open(res).read()
roi = roi[roi.index("Region of Interest"):]
ipcs = [float(m) for m in re.findall(r"CPU \d+ cumulative IPC: (\S+)", roi)]
ipc_a = sum(ipcs) / len(ipcs)
ipc_s = json.load(open(out))["ipc_per_socket"]["socket0"]
print("%-12s %-10s %12.1f %10.3f" % (name, "artifact", cpu_a, ipc_a))
print("%-12s %-10s %12.1f %10.3f %10.1f" % (name, "starnuma", cpu_s, ipc_s, cpu_a / cpu_s))
PY
done
