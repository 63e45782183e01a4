// Inverse-CDF sampling over cumulative weights, in a few steps instead of a binary search over
// them all (Workload `sharing` draws a page per operation).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "common/host_prefetch.hpp"

namespace starnuma {

// Where a draw u in [0, total) lands among non-decreasing cumulative weights: the first index
// whose weight exceeds u, exactly what std::upper_bound over them all gives. The range is cut into
// as many equal slices as there are weights, and each slice knows the first and last index a
// draw in it can land on, so a draw searches a few entries instead of all of them.
class WeightIndex {
 public:
  explicit WeightIndex(std::vector<double> cumulative) : c_(std::move(cumulative)) {
    const size_t n = c_.size();
    if (n == 0) return;
    bounds_.resize(n + 1);
    for (size_t j = 0; j < n; ++j) bounds_[j] = first_above(0, n, threshold(j));
    bounds_[n] = n;  // every draw is below the total
    scale_ = static_cast<double>(n) / total();
  }
  double total() const { return c_.back(); }
  size_t find(double u) const { return find_in_slice(slice(u), u); }

  // find() in steps, for a caller that draws ahead and overlaps the steps' host cache misses (the
  // weights of a socket's pages and their slices outgrow the host's caches): the slice a draw
  // falls in (computed, nothing read), then the first weight it may land on, then the search.
  size_t slice(double u) const {
    const size_t n = c_.size();
    size_t j = std::min(static_cast<size_t>(u * scale_), n - 1);
    // The slice's lower edge must not exceed u, its upper edge must (rounding may move j by one).
    while (j > 0 && threshold(j) > u) --j;
    while (j + 1 < n && threshold(j + 1) <= u) ++j;
    return j;
  }
  void prefetch_slice(size_t j) const { host_prefetch(&bounds_[j]); }
  void prefetch_weights(size_t j) const { host_prefetch(&c_[bounds_[j]]); }
  size_t find_in_slice(size_t j, double u) const { return first_above(bounds_[j], bounds_[j + 1], u); }

 private:
  double threshold(size_t j) const { return total() * static_cast<double>(j) / static_cast<double>(c_.size()); }
  size_t first_above(size_t from, size_t to, double u) const {
    return static_cast<size_t>(std::upper_bound(c_.begin() + static_cast<std::ptrdiff_t>(from),
                                                c_.begin() + static_cast<std::ptrdiff_t>(to), u) -
                               c_.begin());
  }
  std::vector<double> c_;       // the cumulative weights
  std::vector<size_t> bounds_;  // per slice j: the first index above its lower edge; then n
  double scale_ = 0;
};

}  // namespace starnuma
