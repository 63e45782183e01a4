#include "fabric/channel.hpp"

#include <algorithm>
#include <iterator>

namespace starnuma {

Channel::Channel(StatOwner& owner, const std::string& direction, Bandwidth bandwidth, Time latency)
    : bandwidth_(bandwidth),
      latency_(latency),
      ps_per_byte_(1e12 / bandwidth.bytes_per_s()),
      messages_(owner, direction + "_messages", "messages", "Messages sent in direction " + direction),
      bytes_(owner, direction + "_bytes", "B", "Bytes sent in direction " + direction),
      queued_(owner, direction + "_queued", "messages", "Messages that waited for the link to free"),
      utilization_stat_(owner, direction + "_utilization", "fraction", "Busy fraction of the simulated time",
                        [this](sc_core::sc_time t) {
                          return utilization(Time::from_ps(static_cast<int64_t>(t.to_seconds() * 1e12 + 0.5)));
                        }),
      wait_stat_(owner, direction + "_mean_wait", "ns", "Mean queueing wait per message",
                 [this](sc_core::sc_time) { return mean_wait_ns(); }) {}

namespace {
// How far behind the latest arrival a message may still arrive and find its gap: well beyond a
// quantum plus the spread of path latencies.
constexpr int64_t kWindowPs = 20'000'000;
}  // namespace

int64_t Channel::occupy(int64_t arrival, int64_t service) {
  if (arrival > newest_) newest_ = arrival;
  // Old stretches are forgotten only when the vector would grow: a stretch that ended before the
  // window also ended before any arrival the window admits, so when it goes makes no difference.
  if (busy_.size() == busy_.capacity()) compact();
  // The common case: the message comes after every stretch kept; it starts at the later of its
  // arrival and the last stretch's end, and extends that stretch or opens a new one.
  if (busy_.size() == first_ || arrival >= busy_.back().start) {
    if (busy_.size() > first_ && arrival <= busy_.back().end) {
      const int64_t start = busy_.back().end;
      busy_.back().end += service;
      return start;
    }
    busy_.push_back(Busy{arrival, arrival + service});
    return arrival;
  }
  // The first stretch that ends after the arrival (the last one does), then walk forward to a gap
  // that fits. Late arrivals land near the end, so the search gallops back from there: it touches
  // the recently used stretches instead of halving the whole window.
  size_t hi = busy_.size() - 1, lo = first_;
  for (size_t step = 1; hi >= first_ + step; step *= 2) {
    if (busy_[hi - step].end <= arrival) {
      lo = hi - step + 1;
      break;
    }
    hi -= step;
  }
  auto it =
      std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(lo), busy_.begin() + static_cast<std::ptrdiff_t>(hi),
                       arrival, [](int64_t t, const Busy& b) { return t < b.end; });
  int64_t start = arrival;
  while (it != busy_.end() && start + service > it->start) {
    start = std::max(start, it->end);
    ++it;
  }
  const int64_t end = start + service;
  // Insert [start, end) before `it`, merging with touching neighbours.
  const bool joins_prev = it != busy_.begin() + static_cast<std::ptrdiff_t>(first_) && std::prev(it)->end == start;
  const bool joins_next = it != busy_.end() && it->start == end;
  if (joins_prev && joins_next) {
    std::prev(it)->end = it->end;
    busy_.erase(it);
  } else if (joins_prev) {
    std::prev(it)->end = end;
  } else if (joins_next) {
    it->start = start;
  } else {
    busy_.insert(it, Busy{start, end});
  }
  return start;
}

void Channel::compact() {
  // Forget stretches that ended before the window; drop them once they are half the vector.
  while (first_ < busy_.size() && busy_[first_].end < newest_ - kWindowPs) ++first_;
  if (first_ > 64 && first_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

double Channel::utilization(Time elapsed) const {
  if (elapsed.ps() <= 0) return 0.0;
  // Temporal decoupling books messages ahead of SystemC time: what lies past the end is not yet sent.
  const int64_t end = accounting_from_ps_ + elapsed.ps();
  int64_t busy = busy_ps_;
  for (size_t k = busy_.size(); k-- > first_ && busy_[k].end > end;)
    busy -= busy_[k].end - std::max(busy_[k].start, end);
  return static_cast<double>(std::max<int64_t>(busy, 0)) / static_cast<double>(elapsed.ps());
}

double Channel::mean_wait_ns() const {
  return messages_.value() ? static_cast<double>(wait_ps_) / 1e3 / static_cast<double>(messages_.value()) : 0.0;
}

void Channel::attach_waves(Waves& waves, const std::string& scope) {
  busy_signal_ = waves.level(scope, "busy", 1);
  queue_signal_ = waves.level(scope, "queue", 16);
  if (busy_signal_ != Waves::kOff || queue_signal_ != Waves::kOff) waves_ = &waves;
}

}  // namespace starnuma
