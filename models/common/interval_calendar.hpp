// The busy stretches of one resource that serves one thing at a time for a variable length (a
// DRAM bank from its activate to the end of its precharge). A request fits into the first idle
// stretch at or after its time that is long enough, whatever the order of the calls, so requests
// issued out of time order (temporal decoupling) are served as if in time order unless they
// overlap. Stretches that ended more than `window` before the latest request are forgotten.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace starnuma {

class IntervalCalendar {
 public:
  explicit IntervalCalendar(int64_t window_ps = 20'000'000) : window_(window_ps) { busy_.reserve(16); }

  // The earliest start >= `t` of an idle stretch of `length`.
  int64_t fit(int64_t t, int64_t length) const {
    if (busy_.size() == first_ || t >= busy_.back().end) return t;
    // The first stretch that ends after t, searched back from the newest (late calls land near it).
    auto it = busy_.end() - 1;
    const auto oldest = busy_.begin() + static_cast<std::ptrdiff_t>(first_);
    while (it != oldest && std::prev(it)->end > t) --it;
    int64_t start = t;
    for (; it != busy_.end() && start + length > it->start; ++it) start = std::max(start, it->end);
    return start;
  }

  // Marks [start, end) busy; it must be idle (as fit() found it).
  void insert(int64_t start, int64_t end) {
    if (start > newest_) newest_ = start;
    if (busy_.size() == busy_.capacity()) compact();
    if (busy_.size() == first_ || start >= busy_.back().end) {
      if (busy_.size() > first_ && start == busy_.back().end) busy_.back().end = end;
      else busy_.push_back(Busy{start, end});
      return;
    }
    auto it = std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(first_), busy_.end(), start,
                               [](int64_t s, const Busy& b) { return s < b.start; });
    busy_.insert(it, Busy{start, end});
  }

 private:
  struct Busy {
    int64_t start, end;
  };
  void compact() {
    while (first_ < busy_.size() && busy_[first_].end < newest_ - window_) ++first_;
    if (first_ > 0 && first_ * 2 >= busy_.size()) {
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(first_));
      first_ = 0;
    }
  }

  int64_t window_;
  std::vector<Busy> busy_;  // disjoint, sorted; entries before `first_` are forgotten
  size_t first_ = 0;
  int64_t newest_ = 0;
};

}  // namespace starnuma
