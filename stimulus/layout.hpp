// What every workload's streams are built from: a thread's static share of a loop, and its arrays
// laid out page by page in the virtual address space.
#pragma once

#include <cstdint>

#include "common/geometry.hpp"

namespace starnuma {

// Thread t's share [begin, end) of n loop items under OpenMP's schedule(static).
struct Share {
  uint64_t begin = 0, end = 0;
  uint64_t size() const { return end - begin; }
};

inline Share static_share(uint64_t n, unsigned t, unsigned threads) {
  // 128-bit products: n may be close to 2^50 and the thread count large.
  __extension__ typedef unsigned __int128 u128;
  return Share{static_cast<uint64_t>(u128{n} * t / threads), static_cast<uint64_t>(u128{n} * (t + 1) / threads)};
}

// Allocates a workload's arrays one after another from `base`, each page aligned.
class ArrayAllocator {
 public:
  static constexpr uint64_t kBase = uint64_t{1} << 36;  // where the graph kernels' arrays start
  explicit ArrayAllocator(uint64_t base = kBase) : begin_(base), next_(base) {}
  uint64_t allocate(uint64_t bytes) {
    const uint64_t at = next_;
    next_ += (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
    return at;
  }
  uint64_t begin() const { return begin_; }
  uint64_t end() const { return next_; }
  uint64_t bytes() const { return next_ - begin_; }

 private:
  uint64_t begin_, next_;
};

}  // namespace starnuma
