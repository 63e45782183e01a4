#!/usr/bin/env bash
# tools/check_layers.py: the source tree passes it, and a tree with an include that goes up a
# layer fails it, naming the file, the line and the layer.
set -euo pipefail
root=$1
python3 "$root/tools/check_layers.py" "$root"

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/models/common" "$tree/models/fabric" "$tree/stimulus" "$tree/tools/starnuma"
printf '#include "common/units.hpp"\n' > "$tree/models/fabric/link.hpp"
printf '// units\n#include "fabric/link.hpp"\n' > "$tree/models/common/units.hpp"
if python3 "$root/tools/check_layers.py" "$tree" 2> "$tree/out"; then
  echo "an include from models/common to models/fabric passed the check" >&2
  exit 1
fi
grep -q '^models/common/units.hpp:2: includes fabric/link.hpp, of the higher layer models/fabric' "$tree/out" || {
  echo "the check did not name the upward include:" >&2
  cat "$tree/out" >&2
  exit 1
}
