// The busy stretches of one resource that serves one thing at a time for a variable length (a
// DRAM bank from its activate to the end of its precharge). A request fits into the first idle
// stretch at or after its time that is long enough, whatever the order of the calls, so requests
// issued out of time order (temporal decoupling) are served as if in time order unless they
// overlap.
//
// The stretches are a ring, sorted by start. The oldest is forgotten only once it ended before
// the floor (request_floor_fs: SystemC time, or earlier while an initiator that fell behind it
// still sends), which no later request precedes; while it has not, the ring grows instead. Eight
// fit before any growth: a bank's backlog is rarely longer.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "common/request_floor.hpp"

namespace starnuma {

class IntervalCalendar {
 public:
  static constexpr unsigned kInitial = 8;  // a power of two: the stretches are a ring

  IntervalCalendar() : busy_(kInitial) {}

  // The earliest start >= `t` of an idle stretch of `length`.
  int64_t fit(int64_t t, int64_t length) const { return fit(t, length, std::numeric_limits<int64_t>::max()); }
  // The same as if only the stretches of requests ready by `ready` had been booked: under temporal
  // decoupling the others were booked by requests later in time, which time order would have
  // served after this one.
  int64_t fit(int64_t t, int64_t length, int64_t ready) const {
    if (t < forgotten_end_) t = forgotten_end_;  // a caller behind SystemC time: what was forgotten may have been busy
    if (count_ == 0 || t >= at(count_ - 1).end) return t;
    unsigned i = count_ - 1;  // back from the newest to the first stretch that ends after t
    while (i > 0 && at(i - 1).end > t) --i;
    int64_t start = t;
    for (; i < count_ && start + length > at(i).start; ++i)
      if (at(i).end > start && at(i).ready <= ready) start = at(i).end;
    return start;
  }

  // Marks [start, end) busy for a request ready at `ready`; it must be idle (as fit() found it).
  void insert(int64_t start, int64_t end, int64_t ready) {
    if (count_ == busy_.size()) {
      if (at(0).end <= request_floor_fs() / 1000) {  // forget the oldest: it ended before any later request
        if (at(0).end > forgotten_end_) forgotten_end_ = at(0).end;
        head_ = (head_ + 1) & mask();
        --count_;
      } else {
        grow();
      }
    }
    unsigned i = count_;  // the newest, unless issued out of time order
    while (i > 0 && at(i - 1).start > start) {
      at(i) = at(i - 1);
      --i;
    }
    at(i) = Busy{start, end, ready};
    ++count_;
  }
  size_t capacity() const { return busy_.size(); }

 private:
  struct Busy {
    int64_t start, end, ready;
  };
  unsigned mask() const { return static_cast<unsigned>(busy_.size()) - 1; }
  // The i-th stretch from the oldest kept.
  Busy& at(unsigned i) { return busy_[(head_ + i) & mask()]; }
  const Busy& at(unsigned i) const { return busy_[(head_ + i) & mask()]; }
  void grow() {
    std::vector<Busy> bigger(busy_.size() * 2);
    for (unsigned i = 0; i < count_; ++i) bigger[i] = at(i);
    busy_.swap(bigger);
    head_ = 0;
  }

  std::vector<Busy> busy_;  // a ring from head_, disjoint, sorted by start
  unsigned head_ = 0, count_ = 0;
  int64_t forgotten_end_ = 0;  // the latest end of a stretch no longer kept
};

}  // namespace starnuma
