#!/usr/bin/env bash
# Fuzzing of the readers of untrusted input (issues 18 and 35; docs/testing.md): platform and
# workload YAML, starnuma traces, ChampSim traces, checkpoints, sweep files, and (by processes,
# tools/fuzz/plugin_params.py) the example plug-ins' parameter values. Builds tools/fuzz/ with clang's libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer (Debian: clang and libclang-rt-14-dev, installed
# if missing), seeds each target's corpus from the project's own files, then fuzzes each for SECONDS.
# A finding is written to OUT/<target>/ as crash-*, timeout-* or oom-* and the script exits 1.
#
#   bash tools/fuzz.sh [SECONDS] [OUT]      (default 60 s per target, OUT build-fuzz)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
out=$(realpath -m "${2:-$root/build-fuzz}")
starnuma=${STARNUMA:-$root/build/starnuma}
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  echo "== installing $p"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p"
done
[ -x "$starnuma" ] || { echo "error: build starnuma first (bash tools/setup.sh test) to seed the corpora" >&2; exit 1; }
CXX=clang++ cmake -S "$root/tools/fuzz" -B "$out/bin" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$out/bin" -j "${JOBS:-2}"

# Seeds: every platform and bad platform, a recorded trace, a checkpoint, a few ChampSim records.
mkdir -p "$out"/{yaml,trace,champsim,checkpoint,sweep}
cp "$root"/platforms/*.yaml "$root"/tests/bad_platforms/*.yaml "$root"/tests/inputs/*.yaml "$out/yaml/"
cp "$root"/experiments/*.yaml "$root"/tests/sweep/*.yaml "$out/sweep/"
"$starnuma" trace record "$root/platforms/starnuma16-scaled.yaml" --workload uniform:footprint=1MiB \
  --instructions 300 --out "$out/trace/seed.snt" >/dev/null
"$starnuma" checkpoint "$root/platforms/starnuma16-scaled.yaml" --workload sharing:pages=64 \
  --set os.phase_instructions=10000 --checkpoints 1 --out "$out/seed-checkpoint" --no-progress >/dev/null
cp "$out/seed-checkpoint/checkpoint-1.ckpt" "$out/checkpoint/"
python3 - "$out/champsim/seed.trace" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    for i in range(20):  # ip, branch, taken, 2 destination and 4 source registers, 2 + 4 addresses
        f.write(struct.pack("<QBB2B4B2Q4Q", 0x400000 + 4 * i, 0, 0, 0, 0, 1, 0, 0, 0,
                            0x1000 * i if i % 3 == 0 else 0, 0, 0x7fff0000 + 64 * i, 0, 0, 0))
PY

status=0
for target in yaml trace champsim checkpoint sweep; do
  echo "== fuzz_$target, $seconds s"
  mkdir -p "$out/findings/$target"
  if ! (cd "$out/findings/$target" && "$out/bin/fuzz_$target" "$out/$target" -max_total_time="$seconds" \
          -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 >"$out/$target.log" 2>&1); then
    echo "   finding: $(ls "$out/findings/$target")  (log: $out/$target.log)"
    status=1
  fi
  grep -E "^stat::number_of_executed_units" "$out/$target.log" | sed 's/^/   /' || true
done
echo "== plug-in parameters, $seconds s"
if ! python3 "$root/tools/fuzz/plugin_params.py" "$starnuma" "$(dirname "$starnuma")/examples" "$root/platforms" \
       --seconds "$seconds" --seed "${SEED:-$RANDOM}" --out "$out/plugin_params" | sed 's/^/   /'; then
  status=1
fi
exit $status
