// The pool device's dynamic capacity (CXL 3.x, Dynamic Capacity Device; docs/cxl-device.md,
// "Dynamic capacity"): how much of the device's memory its host may use, and a schedule of
// Add Capacity and Release Capacity events. The device's range in the address map stays its
// whole capacity; what is online is a frontier below which the OS may place pages (paging/page_map.hpp).
// The OS's side, which moves pages out of released capacity, is os/dcd_agent.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/param.hpp"
#include "common/scope.hpp"
#include "common/units.hpp"

namespace starnuma {

struct DcdEvent {
  enum class Kind { Add, Release };
  Kind kind = Kind::Add;
  uint64_t bytes = 0;
  bool at_phase = false;  // when the phases' clock reaches phase `phase`, else at time `at`
  Time at;
  uint64_t phase = 0;
  std::string text;  // as written, for reports
};

// Parses a schedule: events separated by ';', each "add SIZE at TIME", "release SIZE at TIME",
// or with "at phase N". Returns the events, or an error naming the event that is wrong.
struct DcdSchedule {
  std::vector<DcdEvent> events;
  std::string error;
};
DcdSchedule parse_dcd_schedule(std::string_view text);

class PoolDcd : public ParamScope {
 public:
  PoolDcd(const ScopeContext& c, Size device_capacity);

  bool enabled() const { return enabled_.get(); }
  uint64_t block() const { return block_.get().bytes(); }
  uint64_t initial() const { return initial_.get().bytes(); }
  const std::vector<DcdEvent>& schedule() const { return events_; }
  std::string schedule_text() const { return schedule_.get(); }

 private:
  Param<bool> enabled_;
  Param<Size> block_;
  Param<Size> initial_;
  Param<std::string> schedule_;
  std::vector<DcdEvent> events_;
};

}  // namespace starnuma
