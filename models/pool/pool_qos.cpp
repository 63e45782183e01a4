#include "pool/pool_qos.hpp"

namespace starnuma {

using namespace literals;

PoolQos::PoolQos(sc_core::sc_module_name n, const ScopeContext& c)
    : Component(n, c),
      enabled_(*this, "enabled", false,
               "QoS telemetry (CXL QoS Telemetry for Memory; docs/cxl-device.md): each response carries the "
               "device's load (DevLoad) from how long its request waited in the device; hosts throttle by it "
               "when fabric.qos_throttle is on"),
      optimal_(*this, "optimal", 50_ns,
               "A mean wait in the device (beyond an idle device's time) of at least this reports Optimal Load; "
               "less: Light Load",
               between(Time(), 100_us)),
      moderate_(*this, "moderate", 200_ns, "From this wait on: Moderate Overload", between(Time(), 100_us)),
      severe_(*this, "severe", 800_ns, "From this wait on: Severe Overload", between(Time(), 100_us)),
      window_(*this, "window", 16,
              "Responses the device averages its requests' wait over (an exponential average of weight 1/window)",
              between(1u, 65536u)) {
  weight_ = 1.0 / window_.get();
  optimal_ps_ = static_cast<double>(optimal_.get().ps());
  moderate_ps_ = static_cast<double>(moderate_.get().ps());
  severe_ps_ = static_cast<double>(severe_.get().ps());
  if (!(optimal_.get() <= moderate_.get() && moderate_.get() <= severe_.get()))
    error_at(moderate_.get() < optimal_.get() ? "moderate" : "severe",
             "must be at least " + (moderate_.get() < optimal_.get() ? optimal_.value_text() : moderate_.value_text()) +
                 ": the loads' waits rise from optimal to moderate to severe");
  if (!enabled()) return;
  const char* names[] = {"light", "optimal", "moderate", "severe"};
  const char* what[] = {"Responses reporting Light Load", "Responses reporting Optimal Load",
                        "Responses reporting Moderate Overload", "Responses reporting Severe Overload"};
  for (size_t k = 0; k < 4; ++k) counts_[k] = std::make_unique<Counter>(*this, names[k], "responses", what[k]);
}

}  // namespace starnuma
