#include "tracking/tracker_timing.hpp"

#include <algorithm>
#include <stdexcept>

namespace starnuma {

TrackerTiming::TrackerTiming(unsigned depth, int64_t issue_fs, int64_t modify_fs)
    : starts_(depth, 0), issue_(issue_fs), modify_(modify_fs) {
  if (depth == 0) throw std::invalid_argument("tracker timing: the queue needs at least one slot");
}

TrackerTiming::Update TrackerTiming::begin(int64_t at) {
  int64_t& oldest = starts_[head_];  // its slot frees when that update starts
  Update u;
  u.accepted = std::max(at, oldest);
  u.ready = u.accepted + issue_;
  u.start = std::max(u.ready, free_);
  oldest = u.start;
  head_ = (head_ + 1) % starts_.size();
  return u;
}

}  // namespace starnuma
