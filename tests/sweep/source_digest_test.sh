#!/usr/bin/env bash
# cmake/StarnumaSourceDigest.cmake, which names the sources sweeps key their runs by: the same files
# under another root give the same digest; an edit or another toolchain another.
#   bash source_digest_test.sh SCRIPT
set -euo pipefail
script=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
digest() {  # ROOT SALT
  printf '%s\n' "$1/models/a.cpp" "$1/models/b.hpp" > "$work/list.txt"
  rm -f "$work/out.hpp"
  cmake "-DLIST=$work/list.txt" "-DSALT=$2" "-DOUT=$work/out.hpp" "-DROOT=$1" -P "$script"
  sed -n 's/^#define STARNUMA_SOURCE_DIGEST "\([0-9a-f]*\)"$/\1/p' "$work/out.hpp"
}
for root in one two; do
  mkdir -p "$work/$root/models"
  echo 'int a;' > "$work/$root/models/a.cpp"
  echo 'int b;' > "$work/$root/models/b.hpp"
done
first=$(digest "$work/one" gcc)
[ ${#first} = 64 ] || fail "no digest: '$first'"
[ "$(digest "$work/two" gcc)" = "$first" ] || fail "the same sources under another root differ"
[ "$(digest "$work/one" clang)" != "$first" ] || fail "another toolchain gives the same digest"
echo 'int b = 1;' > "$work/two/models/b.hpp"
[ "$(digest "$work/two" gcc)" != "$first" ] || fail "an edit gives the same digest"
# Unchanged, the header is not rewritten, so nothing that includes it recompiles.
digest "$work/one" gcc > /dev/null
touch -d '2000-01-01' "$work/out.hpp"
cmake "-DLIST=$work/list.txt" "-DSALT=gcc" "-DOUT=$work/out.hpp" "-DROOT=$work/one" -P "$script"
[ "$(stat -c %Y "$work/out.hpp")" = "$(date -d '2000-01-01' +%s)" ] || fail "an unchanged digest was rewritten"
echo "source digest: ok"
