// Measurements made by sending transactions through an elaborated platform's fabric (its TLM
// target socket), as `starnuma latency` and `starnuma bandwidth` do. Each runs the simulation, so
// it can be called once per process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "platform/platform.hpp"

namespace starnuma {
class Ddr5Controller;
class FabricNode;
}  // namespace starnuma

namespace starnuma {

struct LatencyMatrix {
  std::vector<std::string> sockets;              // requesters
  std::vector<std::string> nodes;                // memory homes, in address-map order
  std::vector<std::vector<Time>> latency;        // [socket][node]; negative: no route (separate hosts)
  std::vector<std::vector<std::string>> routes;  // [socket][node], "a -upi-> b"
  std::vector<std::vector<PathTrace>> paths;     // filled when asked for
};

// One read from every socket to every memory node, each on an idle system (10 us apart, longer
// than any queue or open-row timeout), with the time it took.
LatencyMatrix measure_unloaded_latency(Platform& platform, bool with_paths);

struct BandwidthOptions {
  std::vector<std::string> from;  // requesting sockets ("all": every socket); arrivals go to them in turn
  std::string to;                 // memory node
  // Share of the accesses that are writes (write-backs of whole lines), spread evenly: 0 all reads,
  // 0.25 MLC's 3:1 reads-writes, 1 all writes.
  double write_fraction = 0;
  std::optional<double> load;  // fraction of the path capacity, Poisson arrivals; none: saturate
  bool random = false;         // random lines over the node's memory; default: sequential lines
  uint64_t requests = 100000;
  unsigned outstanding = 1024;  // saturation: requests in flight (a closed loop)
  uint64_t seed = 1;
};

struct BandwidthResult {
  double capacity_gbps = 0;  // the path's narrowest stage for the mix's data (both directions carry some)
  double offered_gbps = 0;   // --load: load x capacity; saturation: what the window offers at unloaded latency
  double achieved_gbps = 0;  // lines moved / (last completion - first issue)
  double mean_latency_ns = 0;
  double p50_latency_ns = 0, p99_latency_ns = 0, p999_latency_ns = 0;
  std::string bottleneck;  // the busiest stage
  double bottleneck_utilization = 0;
  uint64_t requests = 0;
};

// The DDR5 controller behind a memory node (a socket or the pool), or null.
Ddr5Controller* memory_of(FabricNode* node);
// The controller of the memory node named `node`; a starnuma/usage error names the nodes if none.
Ddr5Controller& memory_controller(Platform& platform, const std::string& node);

// Raises a starnuma/usage error for an unknown socket or node.
BandwidthResult measure_bandwidth(Platform& platform, const BandwidthOptions& options);

}  // namespace starnuma
