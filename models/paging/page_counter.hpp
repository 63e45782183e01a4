// Exact per-socket counts of every page's LLC misses in one migration phase: the perfect, free
// knowledge the StarNUMA paper grants its baseline's migration policy (section IV-C).
#pragma once

#include <cstdint>

#include "common/flat_map.hpp"

namespace starnuma {

class PageCounter {
 public:
  static constexpr unsigned kMaxSockets = 64;
  void count(uint64_t vpage, size_t socket) { ++counts_[vpage * kMaxSockets + socket]; }
  // f(vpage, socket, count) for every non-zero count, in the table's order.
  template <class F>
  void for_each(F&& f) const {
    counts_.for_each(
        [&](uint64_t key, uint32_t n) { f(key / kMaxSockets, static_cast<size_t>(key % kMaxSockets), n); });
  }
  void clear() { counts_.clear(); }

 private:
  FlatMap<uint32_t> counts_;
};

}  // namespace starnuma
