#include "core/run_control.hpp"

#include <string>

#include "common/diagnostics.hpp"
#include "common/stats.hpp"
#include "core/core.hpp"

namespace starnuma {

void RunControl::release() {
  if (current_starts_measurement_) {
    measurement_start_ = sc_core::sc_time_stamp();
    reset_all_stats();
  }
  arrived_ = 0;
  ++generation_;
  released_.notify(sc_core::SC_ZERO_TIME);
}

void RunControl::barrier(uint64_t id, bool starts_measurement) {
  if (arrived_ == 0) {
    current_id_ = id;
    current_starts_measurement_ = starts_measurement;
  } else if (id != current_id_) {
    report_error(msg::kInput, "threads reached different barriers at once (" + std::to_string(current_id_) + " and " +
                                  std::to_string(id) + "): every thread must pass the barriers in the same order");
  }
  const uint64_t generation = generation_;
  if (++arrived_ == active_) {
    release();
    return;
  }
  while (generation_ == generation) sc_core::wait(released_);
}

void RunControl::warmed_up() {
  if (warming_ == 0) return;
  if (--warming_ == 0) {
    measurement_start_ = sc_core::sc_time_stamp();
    reset_all_stats([](const sc_core::sc_object& o) { return dynamic_cast<const Core*>(&o) != nullptr; });
  }
}

void RunControl::finished() {
  --active_;
  if (active_ == 0) end_ = sc_core::sc_time_stamp();
  if (arrived_ > 0 && arrived_ == active_) release();
}

}  // namespace starnuma
