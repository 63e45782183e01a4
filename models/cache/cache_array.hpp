// The tag store of a set-associative, write-back cache: which lines are present, which are dirty,
// and which line a fill evicts. Each entry carries a 64-bit payload for users that map keys to
// values (a TLB keeps the physical page there). Timing, MSHRs and the protocol around it belong to the cache
// component that owns the array. Allocation-free after construction; a lookup scans one set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

enum class Replacement { Lru, Random };

class CacheArray {
 public:
  struct Victim {
    bool valid = false;
    uint64_t line = 0;  // line address (byte address / line size)
    bool dirty = false;
    uint64_t payload = 0;
  };

  // `lines` = capacity / line size; must be a multiple of `ways`.
  CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed = 1);

  uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }

  // A hit updates recency and, for a write, marks the line dirty. Returns whether it hit.
  bool access(uint64_t line, bool write) { return lookup(line, write) != nullptr; }
  // As access(), returning the entry's payload (null on a miss).
  const uint64_t* lookup(uint64_t line, bool write);
  // Whether the line is present, without touching recency.
  bool contains(uint64_t line) const;
  // Its payload if present, without touching recency.
  const uint64_t* peek(uint64_t line) const;
  // Inserts a line that missed, as the most recent; returns the line it displaced, if any.
  Victim fill(uint64_t line, bool dirty, uint64_t payload = 0);
  // Removes a line (back-invalidation, inclusion); returns it if it was present.
  Victim invalidate(uint64_t line);

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  uint64_t set_of(uint64_t line) const { return pow2_ ? (line & (sets_ - 1)) : line % sets_; }
  size_t find(uint64_t line) const;  // index into the arrays, or npos
  size_t choose_victim(uint64_t set);

  uint64_t sets_;
  unsigned ways_;
  bool pow2_;
  Replacement policy_;
  std::vector<uint64_t> tags_;     // [set * ways + way], kEmpty when invalid
  std::vector<uint32_t> stamps_;   // recency: larger is more recent
  std::vector<uint8_t> dirty_;
  std::vector<uint64_t> payload_;
  std::vector<uint32_t> clock_;    // per set: the last stamp given
  uint64_t rng_;                   // xorshift64 state for random replacement
};

}  // namespace starnuma
