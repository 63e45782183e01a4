// Fixed-length time slots of one resource (a data bus, an activate window), each taken by at most
// one event. An event takes the first free slot at or after the one it is ready in, whatever the
// order of the calls: a request timed early but issued late (temporal decoupling) still finds the
// gap before a later one, so the result does not depend on the simulation quantum.
//
// The slots live in a ring of kSlots, 64 to a word; each word is tagged with the stretch of time
// it holds, so a word holding an older stretch is free without anything ever being swept, and a
// slot older than the ring (kSlots behind the newest booking) counts as taken: with a backlog that
// long, nothing may start there. A limit of zero length is no limit: such a calendar is off. Everything is in the object
// itself (no heap): a controller keeps its calendars side by side.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "common/divisor.hpp"

namespace starnuma {

class SlotCalendar {
 public:
  static constexpr int64_t kSlots = 1024;  // 3.4 us of 3.33 ns bursts: beyond a quantum and a loaded channel's backlog

  explicit SlotCalendar(int64_t slot_ps = 0) : length_(slot_ps) {
    for (Word& w : words_) w.stretch = -1;
  }
  int64_t slot_ps() const { return length_.value(); }

  // The slot holding time `t` (ps, >= 0).
  int64_t slot_of(int64_t t) const { return length_.div(t); }
  // The first free slot >= `slot` (>= 0).
  int64_t first_free(int64_t slot) const {
    for (;;) {
      const Word& w = word(slot);
      const int64_t stretch = stretch_of(slot);
      if (w.stretch < stretch) return slot;  // the word holds an older stretch: all free
      const uint64_t bit = static_cast<uint64_t>(slot) % 64;
      if (w.stretch == stretch) {
        const uint64_t open = ~w.taken & (~uint64_t{0} << bit);
        if (open) return slot - static_cast<int64_t>(bit) + __builtin_ctzll(open);
      }
      slot += 64 - static_cast<int64_t>(bit);  // full
      if (w.stretch > stretch)  // older than the ring: on to the oldest stretch the ring may hold
        slot = std::max(slot, (w.stretch - kSlots / 64 + 1) * 64);
    }
  }
  // Takes slot `s` (free, as first_free found it).
  void take(int64_t s) {
    Word& w = word(s);
    if (w.stretch != stretch_of(s)) {
      w.stretch = stretch_of(s);
      w.taken = 0;
    }
    w.taken |= uint64_t{1} << (static_cast<uint64_t>(s) % 64);
  }
  // The first time >= `t` inside a free slot: t itself if its slot is free, else the start of the
  // next free one.
  int64_t first_time(int64_t t) const {
    int64_t slot;
    return first_time(t, slot);
  }
  // The same, and the slot it is in (for take()).
  int64_t first_time(int64_t t, int64_t& slot) const {
    if (length_.value() == 0) return slot = t;  // off
    const int64_t ready = slot_of(t);
    slot = first_free(ready);
    return slot == ready ? t : slot * length_.value();
  }
  // Takes the slot holding time `t`.
  void take_time(int64_t t) {
    if (length_.value() > 0) take(slot_of(t));
  }
  // Takes a slot that first_time() gave.
  void take_found(int64_t slot) {
    if (length_.value() > 0) take(slot);
  }

 private:
  struct Word {
    int64_t stretch;  // which 64 slots the word holds: slot / 64
    uint64_t taken;
  };
  static int64_t stretch_of(int64_t s) { return static_cast<int64_t>(static_cast<uint64_t>(s) / 64); }
  Word& word(int64_t s) { return words_[static_cast<uint64_t>(s) % kSlots / 64]; }
  const Word& word(int64_t s) const { return words_[static_cast<uint64_t>(s) % kSlots / 64]; }

  Reciprocal length_;  // the slot's length
  std::array<Word, kSlots / 64> words_{};
};

}  // namespace starnuma
