// `starnuma memory-curve`: the bandwidth-latency curve of one memory node's DDR5 controller, with
// the closed-form limits of its organisation beside it.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "common/json_text.hpp"
#include "common/text.hpp"
#include "memory/memory_curve.hpp"
#include "platform/probes.hpp"

namespace starnuma::cli {

namespace {

struct MemoryCurveArgs {
  PlatformArgs platform;
  std::string node = "socket0", pattern = "random";
  double write_fraction = 0;
  std::vector<double> loads{0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0};
  unsigned outstanding = 256;
  uint64_t requests = 100000;
  uint64_t seed = 1;
  bool json = false;
};

int memory_curve(const MemoryCurveArgs& mc) {
  const PlatformArgs& args = mc.platform;
  const bool json = mc.json;
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

}  // namespace

Command add_memory_curve(CLI::App& app) {
  auto a = std::make_shared<MemoryCurveArgs>();
  CLI::App* cmd = app.add_subcommand(
      "memory-curve", "Bandwidth-latency curve of one memory node's DDR5 controller, from idle to saturation");
  add_platform_args(*cmd, a->platform);
  cmd->add_option("--node", a->node, "Memory node, e.g. socket0 or pool")->capture_default_str();
  cmd->add_option("--pattern", a->pattern, "random or sequential lines")
      ->check(CLI::IsMember({"random", "sequential"}))
      ->capture_default_str();
  cmd->add_option("--write-fraction", a->write_fraction, "Share of the accesses that are writes")
      ->check(kFinite & CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--loads", a->loads, "Offered loads, fractions of the controller's peak (Poisson)")
      ->check(kFinite & CLI::Range(0.001, 2.0))
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--outstanding", a->outstanding, "Accesses in flight at the closed-loop point (0: none)")
      ->check(CLI::Range(0, 65536))
      ->capture_default_str();
  cmd->add_option("--requests", a->requests, "Accesses per point")
      ->transform(kCount)
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "Random seed (arrivals, addresses, reads or writes)")
      ->check(kSeed)
      ->capture_default_str();
  cmd->add_flag("--json", a->json, "Machine-readable output");
  return {cmd, [a] { return memory_curve(*a); }};
}

}  // namespace starnuma::cli
