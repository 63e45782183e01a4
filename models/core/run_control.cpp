#include "core/run_control.hpp"

#include <numeric>
#include <string>

#include "common/diagnostics.hpp"
#include "common/stats.hpp"
#include "core/core.hpp"

namespace starnuma {

namespace {
bool is_core(const sc_core::sc_object& o) { return dynamic_cast<const Core*>(&o) != nullptr; }
}  // namespace

RunControl::RunControl(const std::vector<unsigned>& group_threads, unsigned initialising_groups, bool warming_up)
    : active_(std::accumulate(group_threads.begin(), group_threads.end(), 0u)),
      warming_(warming_up ? active_ : 0),
      initialising_groups_(initialising_groups) {
  for (unsigned n : group_threads) groups_.emplace_back().active = n;
}

void RunControl::release(Group& g) {
  if (g.current_starts_measurement) {
    if (groups_.size() == 1) {
      measurement_start_ = sc_core::sc_time_stamp();
      reset_all_stats();
    } else if (initialising_groups_ > 0 && --initialising_groups_ == 0) {
      // The group's own cores restart as they leave the barrier (Core::pass_barrier).
      measurement_start_ = sc_core::sc_time_stamp();
      reset_all_stats(is_core);
    }
  }
  g.arrived = 0;
  ++g.generation;
  ++generation_;
  g.released.notify(sc_core::SC_ZERO_TIME);
}

bool RunControl::barrier(uint64_t id, bool starts_measurement, size_t group) {
  Group& g = groups_.at(group);
  if (g.arrived == 0) {
    g.current_id = id;
    g.current_starts_measurement = starts_measurement;
  } else if (id != g.current_id) {
    report_error(msg::kInput, "threads reached different barriers at once (" + std::to_string(g.current_id) + " and " +
                                  std::to_string(id) + "): every thread must pass the barriers in the same order");
  }
  const uint64_t generation = g.generation;
  if (++g.arrived == g.active) {
    release(g);
  } else {
    while (g.generation == generation) sc_core::wait(g.released);
  }
  return starts_measurement && groups_.size() > 1;
}

void RunControl::warming(uint64_t n) {
  if (warmup_over_ || (warmup_done_ += n) < warmup_total_) return;
  warmup_over_ = true;
  // The threads held at a barrier end their warm-up now, with the others; their cores restart
  // their accounts from the measurement's start when the barrier releases them (Core::run_window).
  warmup_ended_held_ = held_warming_;
  held_warming_ = 0;
  for (unsigned k = 0; k < warmup_ended_held_; ++k) warmed_up();
}

bool RunControl::leave_held_warming() {
  if (warmup_ended_held_ > 0) {
    --warmup_ended_held_;
    return true;
  }
  --held_warming_;
  return false;
}

void RunControl::warmed_up() {
  if (warming_ == 0) return;
  if (--warming_ == 0) {
    measurement_start_ = sc_core::sc_time_stamp();
    reset_all_stats(is_core);
  }
}

void RunControl::finished(size_t group) {
  Group& g = groups_.at(group);
  --g.active;
  if (--active_ == 0) end_ = sc_core::sc_time_stamp();
  if (g.arrived > 0 && g.arrived == g.active) release(g);
}

}  // namespace starnuma
