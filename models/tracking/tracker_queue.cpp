#include "tracking/tracker_queue.hpp"

#include <algorithm>
#include <stdexcept>

namespace starnuma {

TrackerQueue::TrackerQueue(unsigned depth, int64_t issue_fs, int64_t modify_fs)
    : ring_(depth), issue_(issue_fs), modify_(modify_fs) {
  if (depth == 0) throw std::invalid_argument("tracker queue: it needs at least one slot");
}

void TrackerQueue::push(int64_t at, uint64_t addr) {
  if (!has_room(1)) throw std::logic_error("tracker queue: a flush pushed into a full queue");
  // In time order: a core behind in simulated time may hand over a flush after one of a core
  // ahead (temporal decoupling); it goes before it, as it would have in time. Equal times keep
  // the order they came in.
  size_t i = size_;
  for (; i > 0 && slot(i - 1).accepted > at; --i) slot(i) = slot(i - 1);
  slot(i) = Update{at, addr, false, 0, 0};
  newest_ = i;
  ++size_;
}

void TrackerQueue::push_write(uint64_t addr, uint64_t data) {
  if (empty()) throw std::logic_error("tracker queue: a write without its read");
  Update& u = slot(newest_);
  u.writes = true;
  u.write_addr = addr;
  u.write_data = data;
}

int64_t TrackerQueue::start_time(int64_t free) const { return std::max(front().accepted + issue_, free); }

TrackerQueue::Update TrackerQueue::pop() {
  if (empty()) throw std::logic_error("tracker queue: nothing to start");
  const Update u = ring_[head_];
  head_ = (head_ + 1) % ring_.size();
  --size_;
  if (newest_ > 0) --newest_;
  return u;
}

}  // namespace starnuma
