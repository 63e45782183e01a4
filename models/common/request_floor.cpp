#include "common/request_floor.hpp"

#include <algorithm>
#include <vector>

#include <systemc>

namespace starnuma {

namespace {
std::vector<FloorHold*>& registered() {
  static std::vector<FloorHold*> all;
  return all;
}
}  // namespace

namespace request_floor_detail {
Holders& holders() {
  static Holders h;
  return h;
}

int64_t earliest_held() {
  Holders& h = holders();
  h.earliest = std::numeric_limits<int64_t>::max();
  for (const FloorHold* f : registered()) h.earliest = std::min(h.earliest, f->at_);
  h.earliest_known = true;
  return h.earliest;
}
}  // namespace request_floor_detail

using request_floor_detail::holders;

FloorHold::FloorHold() { registered().push_back(this); }

FloorHold::~FloorHold() {
  release();
  auto& all = registered();
  all.erase(std::find(all.begin(), all.end(), this));
}

const sc_core::sc_process_b* FloorHold::running_process() { return sc_core::sc_get_current_process_b(); }

void FloorHold::hold_running_process() {
  const sc_core::sc_process_b* running = running_process();
  if (!running) return;
  for (FloorHold* f : registered())
    if (f->process_ == running) f->hold_served();
}

void FloorHold::take(int64_t at) {
  at = std::max(at, request_floor_fs());  // what was forgotten before the floor stays forgotten
  if (at >= at_) return;
  auto& h = holders();
  if (at_ == kNone) ++h.count;
  at_ = at;
  if (at < h.earliest) h.earliest = at;  // still the earliest if it was known (a hold only moves back here)
}

void FloorHold::follow(int64_t at) {
  auto& h = holders();
  if (at_ == h.earliest) h.earliest_known = false;  // it may have held the earliest
  if (at >= sim_now_fs()) {
    release();
    return;
  }
  at_ = at;
}

void FloorHold::release() {
  if (at_ == kNone) return;
  auto& h = holders();
  if (at_ == h.earliest) h.earliest_known = false;
  at_ = kNone;
  if (--h.count == 0) {
    h.earliest = kNone;
    h.earliest_known = true;
  }
}

}  // namespace starnuma
