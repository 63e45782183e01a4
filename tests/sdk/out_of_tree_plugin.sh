#!/usr/bin/env bash
# The plug-in SDK as a plug-in author outside starnuma's tree uses it (docs/plugins.md, "Building
# one"): install the build into a fresh prefix, build the installed example project against
# find_package(starnuma), and a second plug-in by hand with pkg-config; the installed starnuma
# loads both, and a platform of the installed ones with the example pool device has the built-in
# pool's unloaded latencies.
#
#   out_of_tree_plugin.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "cmake --install: $(cat "$work/install.log")"
sn=$prefix/bin/starnuma
version=$("$sn" --version)
[[ $version =~ ^starnuma\ [0-9]+\.[0-9]+\.[0-9]+\ \(plug-in\ API\ [0-9]+,\ sources\ [0-9a-f]{12}\)$ ]] || fail "starnuma --version: $version"

# find_package(starnuma) and starnuma_add_plugin(), from the installed example project.
cmake -S "$prefix/share/starnuma/examples/sdk" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/configure.log" 2>&1 || fail "configuring the example project: $(cat "$work/configure.log")"
cmake --build "$work/cmake" > "$work/build.log" 2>&1 || fail "building the example project: $(cat "$work/build.log")"
lib=$work/cmake/libmy_pool.so
[ -f "$lib" ] || fail "no $lib"
# (Outputs to files: grep -q leaving a pipe early would fail the pipeline under pipefail.)
nm -D --undefined-only "$lib" > "$work/undefined"
grep -q 'sc_core' "$work/undefined" || fail "$lib does not resolve SystemC in starnuma"
ldd "$lib" > "$work/ldd"
grep -q libsystemc "$work/ldd" && fail "$lib links libsystemc (it must resolve SystemC in starnuma)"
"$sn" list --plugin "$lib" > "$work/list"
grep -q '^node type example_pool' "$work/list" || fail "the installed starnuma does not list example_pool"

cat > "$work/pool.yaml" <<YAML
plugins: [$lib]
extends: $prefix/share/starnuma/platforms/starnuma16.yaml
nodes:
  pool: {type: example_pool, latency: 59ns, bandwidth: 64GB/s}
YAML
want=$("$sn" latency "$prefix/share/starnuma/platforms/starnuma16.yaml" | grep '^socket0 ')
got=$("$sn" latency "$work/pool.yaml" | grep '^socket0 ')
[ -n "$want" ] && [ "$got" = "$want" ] || fail "socket0's latencies with the plug-in pool: '$got', built-in: '$want'"

# pkg-config, by hand: the example switch.
pc=$(dirname "$(find "$prefix" -name starnuma-plugin.pc | head -1)")
flags=$(PKG_CONFIG_PATH=$pc pkg-config --cflags starnuma-plugin) || fail "pkg-config --cflags starnuma-plugin"
[ -z "$(PKG_CONFIG_PATH=$pc pkg-config --libs starnuma-plugin)" ] || fail "pkg-config --libs names libraries to link"
# shellcheck disable=SC2086
c++ $flags -O1 -shared "$prefix/share/starnuma/examples/switch/switch.cpp" -o "$work/libmy_switch.so" \
  || fail "compiling the example switch with pkg-config's flags"
"$sn" list --plugin "$work/libmy_switch.so" > "$work/list"
grep -q '^node type example_switch' "$work/list" || fail "the installed starnuma does not list example_switch"
echo "SDK: installed, two plug-ins built out of tree and loaded"
