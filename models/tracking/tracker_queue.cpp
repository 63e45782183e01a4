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
  Update& u = ring_[(head_ + size_) % ring_.size()];
  u = Update{at, addr, false, 0, 0};
  ++size_;
}

void TrackerQueue::push_write(uint64_t addr, uint64_t data) {
  if (empty()) throw std::logic_error("tracker queue: a write without its read");
  Update& u = ring_[(head_ + size_ - 1) % ring_.size()];
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
  return u;
}

}  // namespace starnuma
