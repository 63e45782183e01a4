// The tag store of a set-associative, write-back cache: which lines are present, which are dirty,
// and which line a fill evicts. An array built with payloads carries a 64-bit value per entry (a
// TLB keeps the physical page there). An array built with tag states keeps a state of a few bits in
// each tag (an LLC keeps its copies' coherence states and which of its cores may hold them there,
// where the lookup already is). Timing,
// MSHRs and the protocol around it belong to the component that owns the array.
//
// Each set is one block of 32-bit tags (the line divided by the number of sets, dirty bit on top)
// kept in recency order: the most recently used line first, empty ways last. A hit moves its tag
// to the front; a fill evicts the last entry (an empty way if there is one, else the least
// recently used line) and enters at the front. That is exact LRU with no recency stamps, and the
// victim needs no search. Blocks are aligned so that a set of up to 16 ways is one host cache
// line: the arrays of 64 L2s and 16 LLCs are the simulator's hottest data, larger than the host's
// caches, and a lookup costs one host memory access. Allocation-free after construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/divisor.hpp"
#include "common/enum_names.hpp"
#include "common/host_prefetch.hpp"

namespace starnuma {

enum class Replacement { Lru, Random };
template <>
const std::vector<std::string>& names_of<Replacement>();

class CacheArray {
 public:
  struct Victim {
    bool valid = false;
    uint64_t line = 0;  // line address (byte address / line size), or the key
    bool dirty = false;
    uint64_t payload = 0;
    unsigned state = 0;  // its tag state (arrays with tag states)
  };

  // `lines` = capacity / line size; must be a multiple of `ways`. `state_bits`: each tag keeps a
  // state of that many bits (at most kMaxStateBits; its keys are then below 2^(31 - state_bits)).
  CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed = 1, bool payloads = false,
             unsigned state_bits = 0);
  static constexpr unsigned kMaxStateBits = 16;
  // The most state bits an array of `lines` in `ways` ways can keep when every line it may hold is
  // below `line_end` (0 when none fit).
  static unsigned state_bits_for(uint64_t lines, unsigned ways, uint64_t line_end);

  uint64_t sets() const { return sets_.value(); }
  unsigned ways() const { return ways_; }
  unsigned state_bits() const { return 31 - state_shift_; }

  // A hit updates recency and, for a write, marks the line dirty; `add_state`'s bits are set in its
  // tag state. Returns whether it hit.
  bool access(uint64_t line, bool write, unsigned add_state = 0) {
    return touch(key_of(line), write, state_bits(add_state));
  }
  // As access(), returning the entry's payload (null on a miss or without payloads).
  const uint64_t* lookup(uint64_t line, bool write);
  // The same two, the payload writable (a functional model keeps its per-entry state there).
  uint64_t* lookup_payload(uint64_t line) { return const_cast<uint64_t*>(lookup(line, false)); }
  uint64_t* peek_payload(uint64_t line) { return const_cast<uint64_t*>(peek(line)); }
  // Whether the line is present, without touching recency.
  bool contains(uint64_t line) const { return find(key_of(line)) != kNone; }
  // Its payload if present, without touching recency.
  const uint64_t* peek(uint64_t line) const;
  // Brings the line's set (and its payloads) into the host's caches ahead of a lookup: a hint for
  // the host, no effect on the model.
  void prefetch(uint64_t line) const {
    const uint64_t set = sets_.mod(line);
    const uint32_t* block = &tags_[set * stride_];
    host_prefetch(block);
    if (ways_ > 16) host_prefetch(block + ways_ - 1);
    if (!payload_.empty()) {
      const uint64_t* payloads = &payload_[set * ways_];
      host_prefetch(payloads);
      host_prefetch(payloads + ways_ - 1);
    }
  }
  // Whether a fill into `line`'s set would now displace a dirty line, and which (`victim`); with
  // random replacement the victim is not known ahead, so false. For host prefetch hints.
  bool dirty_victim(uint64_t line, uint64_t& victim) const {
    const uint64_t set = sets_.mod(line);
    const uint32_t last = tags_[set * stride_ + ways_ - 1];
    if (policy_ != Replacement::Lru || last == kEmpty || !(last & kDirty)) return false;
    victim = line_of_tag(set, last);
    return true;
  }
  // The line a fill into `line`'s set would now displace, with its tag state: false with random
  // replacement (not known ahead) or while the set has an empty way. For host prefetch hints.
  bool lru_victim(uint64_t line, uint64_t& victim, unsigned& state) const {
    const uint64_t set = sets_.mod(line);
    const uint32_t last = tags_[set * stride_ + ways_ - 1];
    if (policy_ != Replacement::Lru || last == kEmpty) return false;
    victim = line_of_tag(set, last);
    state = state_of(last);
    return true;
  }
  // The tag state of a line present (0 if absent), without touching recency; and its change.
  unsigned state(uint64_t line) const {
    const Key k = key_of(line);
    const size_t i = find(k);
    return i == kNone ? 0 : state_of(tags_[k.set * stride_ + i]);
  }
  // Only the state's bits in `mask` change.
  void set_state(uint64_t line, unsigned state, unsigned mask = ~0u);
  // The tag state of a line present (0 if absent), which becomes `to` if it was `from`: one lookup.
  unsigned state_promoting(uint64_t line, unsigned from, unsigned to);
  // Inserts a line that missed, as the most recent, with its tag state; returns the line it
  // displaced, if any.
  Victim fill(uint64_t line, bool dirty, uint64_t payload = 0, unsigned state = 0);
  // Removes a line (back-invalidation, inclusion); returns it if it was present.
  Victim invalidate(uint64_t line);
  // Every line present as f(entry) (a Victim: line, dirty, payload, state), set by set, each set's
  // least recent first: filling them in this order into an empty array of the same geometry
  // rebuilds its recency (a checkpoint's TLBs and LLCs).
  template <class F>
  void for_each_oldest_first(F&& f) const {
    for (uint64_t set = 0; set < sets(); ++set)
      for (unsigned w = ways_; w-- > 0;) {
        const uint32_t tag = tags_[set * stride_ + w];
        if (tag == kEmpty) continue;
        f(Victim{true, line_of_tag(set, tag), (tag & kDirty) != 0, payload_.empty() ? 0 : payload_[set * ways_ + w],
                 state_of(tag)});
      }
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  static constexpr uint32_t kDirty = uint32_t{1} << 31;
  static constexpr size_t kNone = ~size_t{0};

  struct Key {
    uint64_t set;
    uint32_t tag;
  };
  Key key_of(uint64_t line) const {
    const uint64_t set = sets_.mod(line);
    const uint64_t tag = sets_.div(line);
    if (tag >= key_mask_) out_of_range(line);  // kEmpty's key bits are never a key
    return Key{set, static_cast<uint32_t>(tag)};
  }
  [[noreturn]] static void out_of_range(uint64_t line);
  uint64_t line_of_tag(uint64_t set, uint32_t tag) const {
    const uint64_t t = tag & key_mask_;
    return sets_.mul(t) + set;
  }
  // A tag's state and a state's tag bits (between the key and the dirty bit): none in an array
  // without tag states.
  unsigned state_of(uint32_t tag) const { return (tag & states_) >> state_shift_; }
  uint32_t state_bits(unsigned state) const { return (static_cast<uint32_t>(state) << state_shift_) & states_; }
  uint32_t* block(uint64_t set) { return &tags_[set * stride_]; }
  size_t find(const Key& k) const;                         // the way's position in recency order, or kNone
  bool touch(const Key& k, bool write, uint32_t add = 0);  // a hit: dirty if written, `add` set, then to the front
  // Moves the entry at position `from` of `set` to the front (the ways before it move back one).
  void to_front(uint64_t set, size_t from);
  size_t choose_victim(uint64_t set);
  // A fill of the last way of a full block: the payloads move down one way, `payload` goes first.
  void shift_in(uint64_t* payloads, uint64_t payload) const;

  struct FreeAligned {
    void operator()(uint32_t* p) const { std::free(p); }
  };

  Divisor sets_;
  unsigned ways_;
  Replacement policy_;
  unsigned state_shift_;  // the state's lowest bit in a tag
  uint32_t states_;       // the state's bits of a tag
  uint32_t key_mask_;     // the key's bits of a tag: all but the dirty bit and the state's
  size_t stride_;         // tags per set block: `ways` rounded up so blocks do not straddle host lines
  std::unique_ptr<uint32_t[], FreeAligned> tags_;  // per set, in recency order; kEmpty: an empty way
  std::vector<uint64_t> payload_;                  // per entry, in the same order, when built with payloads
  uint64_t rng_;                                   // xorshift64 state for random replacement
};

}  // namespace starnuma
