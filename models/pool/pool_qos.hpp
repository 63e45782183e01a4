// The pool device's QoS telemetry (CXL 2.0 and later, "QoS Telemetry for Memory"; docs/cxl-device.md):
// each response carries the device's load, DevLoad, which the device computes from its queues:
// here from how long requests wait in the device (its controller and DRAM) beyond what an idle
// device takes, averaged over its recent responses. Light below `optimal`, Optimal below
// `moderate`, Moderate Overload below `severe`, Severe Overload from it on. The hosts' throttling is the fabric's
// (fabric.qos_*).
#pragma once

#include <array>
#include <memory>

#include "common/component.hpp"
#include "common/units.hpp"
#include "memory/memory_home.hpp"

namespace starnuma {

class PoolQos : public Component {
 public:
  PoolQos(sc_core::sc_module_name n, const ScopeContext& c);

  bool enabled() const { return enabled_.get(); }
  bool reports_stats() const override { return enabled(); }
  // Responses that reported `load` so far (0 when disabled).
  uint64_t responses(DevLoad load) const {
    const auto& c = counts_[static_cast<size_t>(load)];
    return c ? c->value() : 0;
  }
  // The DevLoad of a response whose request waited `wait` in the device: by the device's mean wait
  // over its recent responses (an exponential average over about `window` of them), as a device's
  // queue occupancy smooths out one request's wait (a refresh); counted.
  DevLoad report(Time wait) {
    mean_ps_ += (static_cast<double>(wait.ps()) - mean_ps_) * weight_;
    const DevLoad d = mean_ps_ < optimal_ps_    ? DevLoad::Light
                      : mean_ps_ < moderate_ps_ ? DevLoad::Optimal
                      : mean_ps_ < severe_ps_   ? DevLoad::Moderate
                                                : DevLoad::Severe;
    ++*counts_[static_cast<size_t>(d)];
    return d;
  }

 private:
  Param<bool> enabled_;
  Param<Time> optimal_;
  Param<Time> moderate_;
  Param<Time> severe_;
  Param<unsigned> window_;
  double weight_ = 1, mean_ps_ = 0, optimal_ps_ = 0, moderate_ps_ = 0, severe_ps_ = 0;
  std::array<std::unique_ptr<Counter>, 4> counts_;  // responses per DevLoad, when enabled
};

}  // namespace starnuma
