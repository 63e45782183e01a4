// Systematic sampling over a sampled run's windows (docs/sampling.md, "Choosing the number of
// units"): the windows lie on a grid over the execution, boundary p at (p - 1)(U + 1) and its U
// units after it, evenly spaced; a stride s takes every window whose place is a multiple of s.
// `sample --target-error` runs a coarse stride first and finer ones until the interval is narrow
// enough, each stride dividing the one before so that no window run is wasted.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace starnuma {

// A window's place on the grid.
inline uint64_t grid_place(uint64_t phase, uint64_t unit, uint64_t units_per_phase) {
  return (phase - 1) * (units_per_phase + 1) + unit;
}

// How many of the windows at `places` a stride takes.
inline size_t windows_at(const std::vector<uint64_t>& places, uint64_t stride) {
  size_t n = 0;
  for (uint64_t g : places) n += g % stride == 0;
  return n;
}

// The strides from the coarsest that still takes two windows down to 1, each a multiple of the next:
// the prime factors of U + 1 one at a time (so every stride up to U + 1 takes every boundary, whose
// windows its units need), then doubling.
inline std::vector<uint64_t> stride_chain(const std::vector<uint64_t>& places, uint64_t units_per_phase) {
  std::vector<uint64_t> up = {1};
  uint64_t rest = units_per_phase + 1;
  for (uint64_t f = 2; rest > 1;) {
    if (rest % f != 0) {
      ++f;
      continue;
    }
    rest /= f;
    if (windows_at(places, up.back() * f) < 2) break;
    up.push_back(up.back() * f);
  }
  if (up.back() == units_per_phase + 1)
    while (windows_at(places, up.back() * 2) >= 2) up.push_back(up.back() * 2);
  return {up.rbegin(), up.rend()};
}

// The units a relative half-width of `target` needs, from `n` units giving `got`: the width falls
// as one over the square root of the units (Student's t held at its value for n).
inline uint64_t units_needed(size_t n, double got, double target) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(n) * (got / target) * (got / target)));
}

}  // namespace starnuma
