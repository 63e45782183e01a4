// The earliest time at which a request may still reach a shared resource: what a resource that
// books requests issued out of time order (a DRAM bank's calendar, a bus's slots) may forget
// before.
//
// Initiators run at or ahead of SystemC time, except one that waited in SystemC inside an access
// (a page walk's read started in time order, a first touch, a tracker's full queue): SystemC time
// went on meanwhile, and the core's other accesses, sent after it returns, are timed from the
// core's own, earlier time (they overlap the wait, as an out-of-order core's do). Such an
// initiator holds the floor at its access's time until its accesses catch up with SystemC time
// again. Forgetting at SystemC time instead met those accesses in the resources' past and placed
// them late (docs/memory.md, "The floor").
#pragma once

#include <cstdint>
#include <limits>

#include "common/local_time.hpp"

namespace sc_core {
class sc_process_b;
}

namespace starnuma {

namespace request_floor_detail {
// How many initiators hold the floor, and the earliest of their times (fs).
struct Holders {
  unsigned count = 0;
  int64_t earliest = std::numeric_limits<int64_t>::max();
  bool earliest_known = true;
};
Holders& holders();
int64_t earliest_held();  // recomputes `earliest` after a hold moved on
}  // namespace request_floor_detail

// SystemC time, or the earliest time an initiator that fell behind it may still send at (fs).
inline int64_t request_floor_fs() {
  const int64_t now = sim_now_fs();
  const request_floor_detail::Holders& h = request_floor_detail::holders();
  if (h.count == 0) return now;
  const int64_t held = h.earliest_known ? h.earliest : request_floor_detail::earliest_held();
  return held < now ? held : now;
}

// One initiator's hold on the floor (a core's caches own one; so does a tracker).
class FloorHold {
 public:
  FloorHold();
  ~FloorHold();
  FloorHold(const FloorHold&) = delete;
  FloorHold& operator=(const FloorHold&) = delete;

  // The initiator's process sends an access at `at` (fs, at or after its last): a hold follows it,
  // and ends once the initiator is back at or ahead of SystemC time.
  void serve(int64_t at) {
    if (at_ != kNone) follow(at);
    served_at_ = at;
    if (!process_) process_ = running_process();
  }
  // Before the initiator waits in SystemC inside the access it sent last.
  void hold_served() { hold(served_at_); }
  // The same for the initiator whose process is running (code below a core's access that waits:
  // a tracker's full queue); nothing if no hold serves from it.
  static void hold_running_process();
  // Holds the floor at `at` (fs), or moves a hold back to it; never before the floor itself.
  void hold(int64_t at) {
    if (at < at_) take(at);
  }
  // The initiator sends nothing before SystemC time from now on (a barrier passed, its stream ended).
  void release();
  bool held() const { return at_ != kNone; }

 private:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  static const sc_core::sc_process_b* running_process();
  void take(int64_t at);
  void follow(int64_t at);
  friend int64_t request_floor_detail::earliest_held();

  int64_t at_ = kNone;
  int64_t served_at_ = 0;
  const sc_core::sc_process_b* process_ = nullptr;  // the process that serves its accesses
};

}  // namespace starnuma
