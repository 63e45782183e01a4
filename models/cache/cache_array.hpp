// The tag store of a set-associative, write-back cache: which lines are present, which are dirty,
// and which line a fill evicts. An array built with payloads carries a 64-bit value per entry (a
// TLB keeps the physical page there). Timing, MSHRs and the protocol around it belong to the
// component that owns the array.
//
// Each set is one contiguous block of 6 bytes per way: 32-bit tags (the line divided by the number
// of sets, dirty bit on top), then 16-bit recency stamps. A 16-way set is 96 bytes, so a lookup
// touches one or two host cache lines: the arrays of 64 L2s and 16 LLCs are the simulator's
// hottest data, and this keeps them inside the host's caches. Allocation-free after construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace starnuma {

enum class Replacement { Lru, Random };

class CacheArray {
 public:
  struct Victim {
    bool valid = false;
    uint64_t line = 0;  // line address (byte address / line size), or the key
    bool dirty = false;
    uint64_t payload = 0;
  };

  // `lines` = capacity / line size; must be a multiple of `ways`.
  CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed = 1, bool payloads = false);

  uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }

  // A hit updates recency and, for a write, marks the line dirty. Returns whether it hit.
  bool access(uint64_t line, bool write) { return touch(line, write) != kNone; }
  // As access(), returning the entry's payload (null on a miss or without payloads).
  const uint64_t* lookup(uint64_t line, bool write);
  // Whether the line is present, without touching recency.
  bool contains(uint64_t line) const { return find(key_of(line)) != kNone; }
  // Its payload if present, without touching recency.
  const uint64_t* peek(uint64_t line) const;
  // Brings the line's set (tags, stamps, payloads) into the host's caches ahead of a lookup: a
  // hint for the host, no effect on the model.
  void prefetch(uint64_t line) const {
    const uint64_t set = pow2_ ? (line & (sets_ - 1)) : line % sets_;
    const char* block = reinterpret_cast<const char*>(&blocks_[set * stride_]);
    __builtin_prefetch(block);
    __builtin_prefetch(block + 2 * stride_ - 1);
    if (!payload_.empty()) {
      const char* payloads = reinterpret_cast<const char*>(&payload_[set * ways_]);
      __builtin_prefetch(payloads);
      __builtin_prefetch(payloads + sizeof(uint64_t) * ways_ - 1);
    }
  }
  // Inserts a line that missed, as the most recent; returns the line it displaced, if any.
  Victim fill(uint64_t line, bool dirty, uint64_t payload = 0);
  // Removes a line (back-invalidation, inclusion); returns it if it was present.
  Victim invalidate(uint64_t line);

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  static constexpr uint32_t kDirty = uint32_t{1} << 31;
  static constexpr size_t kNone = ~size_t{0};

  struct Key {
    uint64_t set;
    uint32_t tag;
  };
  Key key_of(uint64_t line) const;
  uint64_t line_of_tag(uint64_t set, uint32_t tag) const {
    const uint64_t t = tag & ~kDirty;
    return pow2_ ? (t << set_shift_ | set) : t * sets_ + set;
  }
  // A set block, in 16-bit units: `ways` 32-bit tags (two units each), then `ways` stamps.
  uint32_t tag(uint64_t set, unsigned w) const {
    uint32_t t;
    std::memcpy(&t, &blocks_[set * stride_ + 2 * w], sizeof t);
    return t;
  }
  void set_tag(uint64_t set, unsigned w, uint32_t t) { std::memcpy(&blocks_[set * stride_ + 2 * w], &t, sizeof t); }
  uint16_t* stamps(uint64_t set) { return &blocks_[set * stride_ + 2 * ways_]; }
  size_t find(const Key& k) const;  // set * ways + way, or kNone
  size_t touch(uint64_t line, bool write);
  unsigned choose_victim(uint64_t set);
  void stamp(uint64_t set, unsigned way);
  uint16_t newest(const uint16_t* stamps) const;  // the set's largest stamp

  uint64_t sets_;
  unsigned ways_;
  bool pow2_;
  unsigned set_shift_ = 0;        // log2(sets) when sets is a power of two
  Replacement policy_;
  size_t stride_;                 // 16-bit units per set block (3 per way)
  std::vector<uint16_t> blocks_;  // per set: tags, then stamps (larger: more recent; 0: empty way)
  std::vector<uint64_t> payload_; // per entry, when built with payloads
  uint64_t rng_;                  // xorshift64 state for random replacement
};

}  // namespace starnuma
