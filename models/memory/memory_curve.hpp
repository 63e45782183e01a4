// The bandwidth-latency curve of one DDR5 controller, driven directly (no fabric): Poisson
// arrivals of reads and writes at a series of offered loads, from idle to beyond saturation, and
// a closed-loop saturation point, as DRAM studies draw them (docs/memory.md).
#pragma once

#include <cstdint>
#include <vector>

#include "memory/ddr5.hpp"

namespace starnuma {

struct MemoryCurveOptions {
  bool random = true;           // uniformly random lines over the controller; else consecutive lines
  double write_fraction = 0.0;  // share of the accesses that are writes
  std::vector<double> loads;    // offered loads, fractions of the controller's peak
  unsigned outstanding = 0;     // > 0: also a closed-loop point with this many accesses in flight
  uint64_t requests = 100000;   // accesses per point
  uint64_t seed = 1;
};

struct MemoryCurvePoint {
  double load = 0;  // offered fraction of the peak; 0 for the closed-loop point
  double offered_gbps = 0;
  double achieved_gbps = 0;         // lines moved / (last data - first arrival)
  double mean_read_latency_ns = 0;  // arrival at the controller to the first data
  double p99_read_latency_ns = 0;
  double bus_utilization = 0;
};

// Runs every point on `controller` (cleared before each) and returns them in order, the
// closed-loop point last.
std::vector<MemoryCurvePoint> measure_memory_curve(Ddr5Controller& controller, const MemoryCurveOptions& options);

}  // namespace starnuma
