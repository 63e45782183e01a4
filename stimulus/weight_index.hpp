// Inverse-CDF sampling over cumulative weights, in a few steps instead of a binary search over
// them all (Workload `sharing` draws a page per operation).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace starnuma {

// Where a draw u in [0, total) lands among non-decreasing cumulative weights: the first index
// whose weight exceeds u, exactly what std::upper_bound over them all gives. The range is cut into
// as many equal slices as there are weights, and each slice knows the first and last index a
// draw in it can land on, so a draw searches a few entries instead of all of them.
class WeightIndex {
 public:
  explicit WeightIndex(const std::vector<double>& cumulative) {
    const size_t n = cumulative.size();
    if (n == 0) return;
    const double total = cumulative.back();
    bounds_.resize(n + 1);
    for (size_t j = 0; j <= n; ++j)  // the last bound: every draw is below `total`
      bounds_[j] = j == n ? n : first_above(cumulative, 0, n, total * static_cast<double>(j) / static_cast<double>(n));
    scale_ = static_cast<double>(n) / total;
  }
  // `c`: the weights it was built over.
  size_t find(const std::vector<double>& c, double u) const {
    const size_t n = c.size();
    size_t j = std::min(static_cast<size_t>(u * scale_), n - 1);
    // The slice's lower edge must not exceed u, its upper edge must (rounding may move j by one).
    while (j > 0 && threshold(c, j) > u) --j;
    while (j + 1 < n && threshold(c, j + 1) <= u) ++j;
    return first_above(c, bounds_[j], bounds_[j + 1], u);
  }

 private:
  static double threshold(const std::vector<double>& c, size_t j) {
    return c.back() * static_cast<double>(j) / static_cast<double>(c.size());
  }
  static size_t first_above(const std::vector<double>& c, size_t from, size_t to, double u) {
    return static_cast<size_t>(std::upper_bound(c.begin() + static_cast<std::ptrdiff_t>(from),
                                                c.begin() + static_cast<std::ptrdiff_t>(to), u) -
                               c.begin());
  }
  std::vector<size_t> bounds_;  // per slice j: the first index above its lower edge; then n
  double scale_ = 0;
};

}  // namespace starnuma
