// The timing of one tracker update (StarNUMA section III-D; rtl/tracker_update.sv), in femtoseconds
// of simulated time: its queue of `depth` flushes and its serial read-modify-writes. Pure
// arithmetic, the same for both engines: the memory's latency is the caller's (SocketTracking
// times each request through the fabric).
//
// A flush enters the queue when a slot is free, that is when the update `depth` flushes earlier
// has started (issued its read). Until then the annex cannot hand the flush over (valid/ready
// backpressure) and holds its TLB: the access whose TLB event caused the flush waits. An update
// starts `issue` after its flush entered the queue, or when the previous update's last response is
// back, whichever is later; its write goes out `modify` after the read data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

class TrackerTiming {
 public:
  TrackerTiming(unsigned depth, int64_t issue_fs, int64_t modify_fs);

  struct Update {
    int64_t accepted;  // the flush entered the queue: its time, or later when the queue was full
    int64_t ready;     // accepted + issue: the earliest its read could go out
    int64_t start;     // its read goes out (>= ready: the tracker finished the previous update)
  };
  // A flush produced at `at` is queued; its update's read issues at the returned `start`.
  Update begin(int64_t at);
  // The update's last request so far (its read, then its write) is answered at `done`.
  void answered(int64_t done) { free_ = done; }
  // When the update's write goes out, after its read was answered.
  int64_t write_issue() const { return free_ + modify_; }

 private:
  std::vector<int64_t> starts_;  // ring: start of the last `depth` updates
  size_t head_ = 0;
  int64_t issue_, modify_;
  int64_t free_ = 0;  // the previous update's last response is back
};

}  // namespace starnuma
