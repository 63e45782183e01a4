// The input queue of one tracker update (rtl/tracker_update.sv) and the timing of its serial
// read-modify-writes, in femtoseconds of simulated time. The engine (C++ models or RTL) folds a
// flush into the metadata when the queue accepts it; the requests it made wait here, in order,
// until the tracker serves them at their time (SocketTracking's process for this tracker issues
// them to the fabric). Allocation-free after construction.
//
// A flush enters the queue when a slot is free; a slot frees when its update starts (issues its
// read). Until then the annex cannot hand the flush over (valid/ready backpressure) and holds its
// TLB. An update starts `issue` after its flush entered the queue, or when the previous update's
// last response is back, whichever is later; its write goes out `modify` after the read data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

class TrackerQueue {
 public:
  TrackerQueue(unsigned depth, int64_t issue_fs, int64_t modify_fs);

  struct Update {
    int64_t accepted = 0;  // the flush entered the queue
    uint64_t read_addr = 0;
    bool writes = false;  // the entry changed: a write follows the read
    uint64_t write_addr = 0, write_data = 0;
  };

  bool empty() const { return size_ == 0; }
  // Whether `flushes` more flushes fit.
  bool has_room(unsigned flushes) const { return size_ + flushes <= ring_.size(); }
  // A flush accepted at `at`, whose update reads the metadata entry at `addr`. Needs room. The
  // queue keeps its updates in the order of their times, not of the calls.
  void push(int64_t at, uint64_t addr);
  // The newest update writes `data` to `addr` after its read.
  void push_write(uint64_t addr, uint64_t data);

  // The oldest update: when it can start (its read issue) once the previous update's last
  // response was back at `free`, and how long it waited for that beyond `issue` (queue wait).
  int64_t start_time(int64_t free) const;
  int64_t queue_wait(int64_t free) const { return start_time(free) - (front().accepted + issue_); }
  const Update& front() const { return ring_[head_]; }
  // The oldest update starts: it leaves the queue (its slot is free).
  Update pop();
  // When an update's write goes out, its read answered at `read_done`.
  int64_t write_issue(int64_t read_done) const { return read_done + modify_; }

 private:
  // The i-th update from the oldest.
  Update& slot(size_t i) { return ring_[(head_ + i) % ring_.size()]; }

  std::vector<Update> ring_;  // from head_, by the time each flush entered the queue
  size_t head_ = 0, size_ = 0;
  size_t newest_ = 0;  // where the last flush pushed went
  int64_t issue_, modify_;
};

}  // namespace starnuma
