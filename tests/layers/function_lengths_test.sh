#!/usr/bin/env bash
# tools/check_function_lengths.py: the source tree passes it, and a tree with a function over the
# limit fails it, naming the file, the line and the function, whatever braces its strings,
# comments, default arguments and lambdas hold.
set -euo pipefail
root=$1
python3 "$root/tools/check_function_lengths.py" "$root"

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/tools/starnuma" "$tree/models/run"
{
  printf 'namespace starnuma {\n// a comment with { a brace\n'
  printf 'int short_one(const std::vector<int>& v = {}) { return "}}"[0]; }\n'
  printf 'Runner::Runner(int a) : a_(a), b_{a} {\n  run([] {\n'
  for i in $(seq 1 160); do printf '    step(%d);\n' "$i"; done
  printf '  });\n}\n}  // namespace starnuma\n'
} > "$tree/models/run/long.cpp"
if python3 "$root/tools/check_function_lengths.py" "$tree" 2> "$tree/out"; then
  echo "a 164-line constructor passed the check" >&2
  exit 1
fi
grep -q '^models/run/long.cpp:4: Runner::Runner is 164 lines (at most 150)$' "$tree/out" || {
  echo "the check did not name the long function:" >&2
  cat "$tree/out" >&2
  exit 1
}
if grep -q short_one "$tree/out"; then
  echo "the check counted a short function:" >&2
  cat "$tree/out" >&2
  exit 1
fi
