// Fixed-length time slots of one resource (a data bus, an activate window), each taken by at most
// one event. An event takes the first free slot at or after the one it is ready in, whatever the
// order of the calls: a request timed early but issued late (temporal decoupling) still finds the
// gap before a later one, so the result does not depend on the simulation quantum. Slots are kept
// for a bounded window ahead of the oldest slot still possible; allocation-free after construction.
#pragma once

#include <cstdint>
#include <vector>

namespace starnuma {

class BusCalendar {
 public:
  explicit BusCalendar(size_t window_slots = 1 << 12) : taken_(window_slots / 64 + 1, 0), window_(taken_.size() * 64) {}

  // Whether slot `s` is free: not older than the window and not taken (slots beyond the window are free).
  bool free(int64_t s) const {
    if (s < base_) return false;
    if (s >= base_ + static_cast<int64_t>(window_)) return true;
    const size_t i = index(s);
    return !(taken_[i / 64] & bit(i));
  }
  // The first free slot >= `slot` (clamped to the oldest slot kept).
  int64_t first_free(int64_t slot) const {
    if (slot < base_) slot = base_;
    while (!free(slot)) ++slot;
    return slot;
  }
  // Takes slot `s` (free, not older than the window).
  void take(int64_t s) {
    if (s >= base_ + 2 * static_cast<int64_t>(window_)) {  // far ahead: everything kept is past
      std::fill(taken_.begin(), taken_.end(), 0);
      base_ = s - s % 64;
    }
    while (s >= base_ + static_cast<int64_t>(window_)) advance();
    const size_t i = index(s);
    taken_[i / 64] |= bit(i);
  }
  // Takes the first free slot >= `slot` and returns it.
  int64_t reserve(int64_t slot) {
    slot = first_free(slot);
    take(slot);
    return slot;
  }

 private:
  size_t index(int64_t s) const { return static_cast<size_t>(s % static_cast<int64_t>(window_)); }
  static uint64_t bit(size_t i) { return uint64_t{1} << (i % 64); }
  // Forgets the oldest slots up to the next word boundary, moving the window forward.
  void advance() {
    const size_t i = index(base_);
    taken_[i / 64] = 0;
    base_ += 64 - static_cast<int64_t>(i % 64);
  }

  std::vector<uint64_t> taken_;
  size_t window_;
  int64_t base_ = 0;
};

}  // namespace starnuma
