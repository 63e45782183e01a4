// Fixed-length time slots of one resource (a data bus, an activate window), each taken by at most
// one event. An event takes the first free slot at or after the one it is ready in, whatever the
// order of the calls: a request timed early but issued late (temporal decoupling) still finds the
// gap before a later one, so the result does not depend on the simulation quantum.
//
// The slots live in a ring, 64 to a word; each word is tagged with the stretch of time it holds,
// so a word holding an older stretch is free without anything ever being swept. A word is reused
// only once its stretch lies wholly before the floor (request_floor_fs: SystemC time, or earlier
// while an initiator that fell behind it still sends): no request can arrive before it. When a booking would reuse a
// word still at or after the floor, the ring doubles instead, so nothing a later request may need
// is ever forgotten, however far ahead of the floor bookings reach (a request delayed for
// microseconds in a congested fabric). A limit of zero length is no limit: such a calendar is off.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/divisor.hpp"
#include "common/request_floor.hpp"

namespace starnuma {

class SlotCalendar {
 public:
  static constexpr size_t kInitialWords = 16;  // 1024 slots: 3.4 us of 3.33 ns bursts

  explicit SlotCalendar(int64_t slot_ps = 0) : length_(slot_ps), words_(kInitialWords, Word{-1, 0}) {}
  int64_t slot_ps() const { return length_.value(); }
  // Slots the ring holds now (it grows with the spread of bookings ahead of the floor).
  size_t capacity() const { return words_.size() * 64; }

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
      // A newer stretch in the word: `slot` is before the floor (a caller running behind SystemC
      // time); what was there is forgotten, so on to the oldest stretch the ring may hold.
      if (w.stretch > stretch) slot = std::max(slot, (w.stretch - static_cast<int64_t>(words_.size()) + 1) * 64);
    }
  }
  // Takes slot `s` (free, as first_free found it).
  void take(int64_t s) {
    const int64_t stretch = stretch_of(s);
    if (word(s).stretch > stretch) return;  // before the floor, forgotten (first_free never gives it)
    if (word(s).stretch != stretch) {
      if (word(s).stretch >= 0 && word(s).stretch < stretch && word(s).stretch >= floor_stretch()) grow(stretch);
      Word& w = word(s);
      w.stretch = stretch;
      w.taken = 0;
    }
    word(s).taken |= uint64_t{1} << (static_cast<uint64_t>(s) % 64);
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
  // Takes a slot that first_time() gave.
  void take_found(int64_t slot) {
    if (length_.value() > 0) take(slot);
  }

 private:
  struct Word {
    int64_t stretch;  // which 64 slots the word holds: slot / 64 (-1: none yet)
    uint64_t taken;
  };
  static int64_t stretch_of(int64_t s) { return static_cast<int64_t>(static_cast<uint64_t>(s) / 64); }
  Word& word(int64_t s) { return words_[static_cast<uint64_t>(stretch_of(s)) & (words_.size() - 1)]; }
  const Word& word(int64_t s) const { return words_[static_cast<uint64_t>(stretch_of(s)) & (words_.size() - 1)]; }
  int64_t floor_stretch() const { return stretch_of(slot_of(request_floor_fs() / 1000)); }
  // Doubles the ring until `stretch` has a word of its own beside every stretch at or after the floor.
  void grow(int64_t stretch) {
    const int64_t floor = floor_stretch();
    std::vector<Word> live;
    for (const Word& w : words_)
      if (w.stretch >= floor) live.push_back(w);
    size_t size = words_.size() * 2;
    const auto fits = [&] {
      std::vector<bool> used(size, false);
      for (const Word& w : live) used[static_cast<uint64_t>(w.stretch) & (size - 1)] = true;
      return !used[static_cast<uint64_t>(stretch) & (size - 1)];
    };
    while (!fits()) size *= 2;
    words_.assign(size, Word{-1, 0});
    for (const Word& w : live) words_[static_cast<uint64_t>(w.stretch) & (size - 1)] = w;
  }

  Reciprocal length_;        // the slot's length
  std::vector<Word> words_;  // a power of two of them
};

}  // namespace starnuma
