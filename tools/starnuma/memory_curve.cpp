// `starnuma memory-curve`: the bandwidth-latency curve of one memory node's DDR5 controller, with
// the closed-form limits of its organisation beside it.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/json_text.hpp"
#include "common/text.hpp"
#include "memory/memory_curve.hpp"
#include "platform/probes.hpp"

namespace starnuma::cli {

int memory_curve(const PlatformArgs& args, const MemoryCurveArgs& mc, bool json) {
  auto platform = Platform::build(args.platform, args.sets);
  Ddr5Controller& ddr = memory_controller(*platform, mc.node);
  MemoryCurveOptions o;
  o.random = mc.pattern == "random";
  o.write_fraction = mc.write_fraction;
  o.loads = mc.loads;
  o.outstanding = mc.outstanding;
  o.requests = mc.requests;
  o.seed = mc.seed;
  const std::vector<MemoryCurvePoint> points = measure_memory_curve(ddr, o);
  const Ddr5Controller::Bounds b = ddr.bounds();

  nlohmann::ordered_json j{{"platform", args.platform},
                           {"node", mc.node},
                           {"pattern", mc.pattern},
                           {"write_fraction", mc.write_fraction},
                           {"channels", ddr.channels()},
                           {"unloaded_read_latency_ns", ddr.unloaded_read_latency().ns()},
                           {"bounds_GBps",
                            {{"peak", b.peak_gbps},
                             {"refresh", b.refresh_gbps},
                             {"activate", b.activate_gbps},
                             {"bank", b.bank_gbps},
                             {"bound", b.bound_gbps}}}};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const MemoryCurvePoint& p : points)
    rows.push_back({{"load", p.load},
                    {"closed_loop", p.load == 0},
                    {"offered_GBps", p.offered_gbps},
                    {"achieved_GBps", p.achieved_gbps},
                    {"mean_read_latency_ns", p.mean_read_latency_ns},
                    {"p99_read_latency_ns", p.p99_read_latency_ns},
                    {"bus_utilization", p.bus_utilization}});
  j["points"] = rows;
  if (json) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << mc.pattern << " accesses, " << format_real(100 * mc.write_fraction) << " % writes, on " << mc.node
            << "'s memory (" << ddr.channels() << " channels), " << mc.requests << " per point\n"
            << std::fixed << std::setprecision(1) << "  limits (GB/s): peak " << b.peak_gbps << ", refresh "
            << b.refresh_gbps << ", activate rate " << b.activate_gbps << ", banks " << b.bank_gbps << "\n\n"
            << "  offered GB/s  achieved GB/s  mean read ns  p99 read ns  bus busy\n";
  for (const MemoryCurvePoint& p : points) {
    std::ostringstream offered;
    offered << std::fixed << std::setprecision(1) << p.offered_gbps;
    std::cout << std::fixed << std::setprecision(1) << std::setw(14)
              << (p.load == 0 ? std::string("closed loop") : offered.str()) << std::setw(15) << p.achieved_gbps
              << std::setw(14) << p.mean_read_latency_ns << std::setw(13) << p.p99_read_latency_ns << std::setw(9)
              << std::setprecision(0) << 100 * p.bus_utilization << " %\n";
  }
  if (mc.outstanding > 0)
    std::cout << "\n  closed loop: " << mc.outstanding << " accesses in flight, each reissued when it completes\n";
  return 0;
}

}  // namespace starnuma::cli
