// One TLB's virtual page -> annex entry index assignment. The TLB observer reports pages, the
// counter annex wants entry indices: a fill takes a free index, an eviction returns it. Fixed
// capacity (open addressing with backward-shift deletion, the last freed index first), so no event
// allocates and the assignment is deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

class PageIndexMap {
 public:
  static constexpr unsigned kNone = ~0u;

  explicit PageIndexMap(unsigned entries);

  unsigned find(uint64_t vpage) const;
  // Gives `vpage` (not present) a free index; kNone when every index is taken.
  unsigned insert(uint64_t vpage);
  // Frees the index of `vpage` and returns it (kNone when absent).
  unsigned erase(uint64_t vpage);
  unsigned entries() const { return entries_; }

 private:
  struct Slot {
    uint64_t vpage = 0;
    unsigned index = kNone;  // kNone: empty slot
  };
  size_t home(uint64_t vpage) const { return static_cast<size_t>((vpage * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }

  unsigned entries_;
  size_t mask_;
  std::vector<Slot> slots_;
  std::vector<unsigned> free_;  // a stack: a replacement refills the index its eviction freed
};

}  // namespace starnuma
