#!/usr/bin/env bash
# The C++ sources' layout against .clang-format: `check` (what CI runs) fails on any difference and
# names the places; `fix` rewrites the files in place. Only tracked and new files, never generated
# ones (the build directories are not in the list).
#
#   bash tools/format.sh check
#   bash tools/format.sh fix
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dirs=(models stimulus tools tests testbenches examples)
# Quoted, so git (whose '*' crosses folders) matches them, not the shell (whose '*' does not).
patterns=()
for d in "${dirs[@]}"; do patterns+=("$d/*.cpp" "$d/*.hpp"); done
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${patterns[@]}")
((${#files[@]})) || { echo "error: no C++ sources found under ${dirs[*]}" >&2; exit 1; }

case "${1:-}" in
  check) clang-format --dry-run -Werror "${files[@]}" && echo "format: ${#files[@]} files match .clang-format" ;;
  fix) clang-format -i "${files[@]}" ;;
  *) echo "usage: bash tools/format.sh check|fix" >&2; exit 1 ;;
esac
