// A node that owns a range of physical memory and serves accesses to it (a socket's home agent
// with its DDR5, or the pool device). The coherence directory of a home attaches here later.
#pragma once

#include <cstdint>

#include "common/units.hpp"
#include "common/mem_access.hpp"

namespace starnuma {

class Ddr5Controller;

// CXL QoS telemetry (docs/cxl-device.md, "QoS telemetry"): the load a memory device reports in
// each response, from its own queues.
enum class DevLoad : uint8_t { Light, Optimal, Moderate, Severe };

class MemoryHome {
 public:
  virtual ~MemoryHome() = default;
  virtual Size memory_capacity() const = 0;
  // Serves an access that reached the home's fabric port at `arrival`, at `offset` inside the
  // home's range; returns when the response leaves the port.
  virtual Time serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) = 0;
  // What serve() takes for a read on an idle home (bank precharged).
  virtual Time unloaded_service() const = 0;
  // The DDR5 controller behind the home, for probes that pause its refresh or read its queues;
  // null for a home modelled otherwise.
  virtual Ddr5Controller* dram_controller() { return nullptr; }
  // Whether its responses carry a DevLoad (a CXL device with QoS telemetry on), and the one the
  // last serve() reported.
  virtual bool reports_devload() const { return false; }
  virtual DevLoad last_devload() const { return DevLoad::Light; }
  uint64_t requests() const { return requests_; }
  uint64_t responses() const { return responses_; }

 protected:
  uint64_t requests_ = 0, responses_ = 0;  // conservation check: every request is answered
};

}  // namespace starnuma
