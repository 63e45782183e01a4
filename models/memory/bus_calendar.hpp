// The time slots of a data bus, each one burst long. A burst takes the first free slot at or after
// the time its data is ready, so a burst whose bank answered early does not wait behind one whose
// bank is still busy (the reordering a DRAM scheduler does). Slots are kept for a bounded window
// ahead of the earliest request still possible; allocation-free after construction.
#pragma once

#include <cstdint>
#include <vector>

namespace starnuma {

class BusCalendar {
 public:
  explicit BusCalendar(size_t window_slots = 1 << 14) : used_(window_slots / 64 + 1, 0), window_(used_.size() * 64) {}

  // Reserves the first free slot >= `slot` and returns it.
  int64_t reserve(int64_t slot) {
    if (slot < base_) slot = base_;  // older than the window: treat as the oldest slot kept
    // Slide the window so `slot` is inside it; slots that fall off are forgotten (in the past).
    while (slot >= base_ + static_cast<int64_t>(window_)) advance();
    for (int64_t s = slot;; ++s) {
      if (s >= base_ + static_cast<int64_t>(window_)) advance();
      const size_t i = static_cast<size_t>(s % static_cast<int64_t>(window_));
      uint64_t& word = used_[i / 64];
      const uint64_t bit = uint64_t{1} << (i % 64);
      if (!(word & bit)) {
        word |= bit;
        return s;
      }
    }
  }

 private:
  // Forgets the oldest 64 slots (one word), moving the window forward.
  void advance() {
    const size_t i = static_cast<size_t>(base_ % static_cast<int64_t>(window_));
    used_[i / 64] = 0;
    base_ += 64 - static_cast<int64_t>(i % 64);
  }

  std::vector<uint64_t> used_;
  size_t window_;
  int64_t base_ = 0;
};

}  // namespace starnuma
