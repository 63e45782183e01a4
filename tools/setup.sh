#!/usr/bin/env bash
# One-step set-up on Debian 12: install the packages starnuma needs (only those missing), configure
# and build (incrementally), then either run the main job or the whole test suite.
#
#   bash tools/setup.sh run     # install and build what running needs (the simulator), run the main job
#   bash tools/setup.sh test    # install and build everything (tests, benches, plug-ins), run every test (what CI runs)
#
# Environment: BUILD_DIR (default: build), BUILD_TYPE (default: Release), JOBS (default: 2),
# SANITIZE (test: 0 skips the second, sanitized build and run of the suite in BUILD_DIR-asan).
set -euo pipefail

mode=${1:-}
case "$mode" in
  run|test) ;;
  *) echo "usage: bash tools/setup.sh run|test" >&2; exit 1 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}

# The simulator (its RTL Verilated into it; sweeps keep results in SQLite) and the main job's summary
# (python3 alone). The tests also need GoogleTest, the reports' matplotlib and pandas (the figures are
# tested), a single-node Slurm cluster (slurmctld, slurmd, munge: a sweep through sbatch), GTKWave's
# tools (waveforms read back) and clang-format (CI checks the sources' layout).
packages=(cmake ninja-build g++ pkg-config libsystemc-dev verilator libyaml-cpp-dev libboost-dev
          nlohmann-json3-dev libcli11-dev liblzma-dev zlib1g-dev libsqlite3-dev python3)
if [ "$mode" = test ]; then
  packages+=(libgtest-dev python3-matplotlib python3-pandas python3-numpy slurmctld slurmd slurm-client munge
             clang-format gtkwave)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: run as root or install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# A first run builds the simulator alone (about a fifth of the targets are tests, benches and
# example plug-ins), its sources in batches (STARNUMA_UNITY_BUILD); the tests turn the suite on in
# the same build folder.
if [ "$mode" = test ]; then
  if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q '^STARNUMA_TESTS:BOOL=ON' "$build/CMakeCache.txt"; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSTARNUMA_TESTS=ON \
      -DSTARNUMA_UNITY_BUILD=ON
  fi
  cmake --build "$build" -j "$jobs"
else
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSTARNUMA_TESTS=OFF \
      -DSTARNUMA_UNITY_BUILD=ON
  fi
  cmake --build "$build" -j "$jobs" --target starnuma
fi

case "$mode" in
  run)
    # The main job: the paper's headline comparison by its own sampled method, the 16-socket
    # baseline migrating with perfect knowledge against StarNUMA with T16 trackers and Algorithm 1
    # (both scaled to 4 cores per socket as the paper simulates them), on bfs (docs/sampling.md).
    bash "$root/experiments/sampled.sh" "$build/main-job" "bfs:scale=18,trials=100" 5
    ;;
  test)
    # Layout first: it takes seconds and names the file and line (docs/testing.md).
    bash "$root/tools/format.sh" check
    ctest --test-dir "$build" -j "$jobs" --output-on-failure
    # The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer (docs/testing.md).
    # Leak checking is off: a user's error raised inside a SystemC thread ends the process without
    # unwinding the other threads' stacks, whose objects LeakSanitizer would report.
    if [ "${SANITIZE:-1}" != 0 ]; then
      asan=${build}-asan
      if [ ! -f "$asan/CMakeCache.txt" ]; then
        cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTARNUMA_SANITIZE=ON -DSTARNUMA_UNITY_BUILD=ON
      fi
      cmake --build "$asan" -j "$jobs"
      ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir "$asan" -j "$jobs" --output-on-failure
    fi
    ;;
esac
