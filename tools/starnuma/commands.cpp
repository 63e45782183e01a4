#include "commands.hpp"
#include "common/json_text.hpp"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "platform/describe.hpp"
#include "platform/platform.hpp"
#include "platform/probes.hpp"
#include "common/output_file.hpp"
#include "run/profile.hpp"
#include "run/simulation.hpp"

namespace starnuma::cli {

int list(bool json, bool markdown, bool workloads_only) {
  if (workloads_only && markdown) report_error(msg::kUsage, "--workloads and --markdown do not go together");
  if (json) std::cout << json_text((workloads_only ? catalog_json()["workloads"] : catalog_json())) << '\n';
  else if (workloads_only) std::cout << workloads_text();
  else if (markdown) std::cout << catalog_markdown();
  else std::cout << catalog_text();
  return 0;
}

int check(const PlatformArgs& args) {
  auto platform = Platform::build(args.platform, args.sets);
  std::cout << args.platform << ": ok (" << platform->nodes().size() << " nodes, " << platform->links().size()
            << " links)\n";
  return 0;
}

int describe(const PlatformArgs& args, bool json) {
  auto platform = Platform::build(args.platform, args.sets);
  if (json) std::cout << json_text(describe_json(*platform)) << '\n';
  else std::cout << describe_text(*platform);
  return 0;
}

int latency(const PlatformArgs& args, bool json, bool paths) {
  auto platform = Platform::build(args.platform, args.sets);
  LatencyMatrix m = measure_unloaded_latency(*platform, paths);
  if (json) {
    nlohmann::ordered_json j;
    j["sockets"] = m.sockets;
    j["nodes"] = m.nodes;
    nlohmann::ordered_json lat = nlohmann::ordered_json::object();
    for (size_t s = 0; s < m.sockets.size(); ++s) {
      nlohmann::ordered_json row = nlohmann::ordered_json::object();
      for (size_t n = 0; n < m.nodes.size(); ++n)
        row[m.nodes[n]] =
            m.latency[s][n].ps() < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(m.latency[s][n].ns());
      lat[m.sockets[s]] = row;
    }
    j["latency_ns"] = lat;
    if (paths) {
      nlohmann::ordered_json p = nlohmann::ordered_json::object();
      for (size_t s = 0; s < m.sockets.size(); ++s)
        for (size_t n = 0; n < m.nodes.size(); ++n) {
          nlohmann::ordered_json steps = nlohmann::ordered_json::array();
          for (const PathStep& step : m.paths[s][n].steps)
            steps.push_back({{"where", step.where}, {"what", step.what}, {"ns", step.time.ns()}});
          p[m.sockets[s]][m.nodes[n]] = {{"route", m.routes[s][n]}, {"steps", steps}};
        }
      j["paths"] = p;
    }
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Unloaded read latency (ns), measured by probe transactions; rows: requesting socket, columns: memory "
               "node\n\n";
  size_t w = 9;
  for (const auto& n : m.nodes) w = std::max(w, n.size() + 1);
  std::cout << std::left << std::setw(10) << "";
  for (const auto& n : m.nodes) std::cout << std::right << std::setw(static_cast<int>(w)) << n;
  std::cout << '\n';
  for (size_t s = 0; s < m.sockets.size(); ++s) {
    std::cout << std::left << std::setw(10) << m.sockets[s];
    for (size_t n = 0; n < m.nodes.size(); ++n)
      std::cout << std::right << std::setw(static_cast<int>(w))
                << (m.latency[s][n].ps() < 0 ? std::string("-") : format_real(m.latency[s][n].ns()));
    std::cout << '\n';
  }
  if (paths) {
    for (size_t s = 0; s < m.sockets.size(); ++s)
      for (size_t n = 0; n < m.nodes.size(); ++n) {
        if (m.latency[s][n].ps() < 0) continue;
        std::cout << '\n'
                  << m.sockets[s] << " -> " << m.nodes[n] << ": " << format_time(m.latency[s][n]) << "  ("
                  << m.routes[s][n] << ")\n";
        for (const PathStep& step : m.paths[s][n].steps)
          std::cout << "    " << std::right << std::setw(8) << format_time(step.time) << "  " << std::left
                    << std::setw(36) << step.what << step.where << '\n';
      }
  }
  return 0;
}

int bandwidth(const PlatformArgs& args, const BandwidthArgs& bw, bool json) {
  auto platform = Platform::build(args.platform, args.sets);
  BandwidthOptions o;
  for (size_t at = 0; at <= bw.from.size();) {  // a comma-separated list
    const size_t comma = std::min(bw.from.find(',', at), bw.from.size());
    o.from.push_back(bw.from.substr(at, comma - at));
    at = comma + 1;
  }
  o.to = bw.to;
  o.op = bw.op == "write" ? MemOp::Write : MemOp::Read;
  if (bw.load > 0) o.load = bw.load;
  o.random = bw.pattern == "random";
  o.requests = bw.requests;
  o.outstanding = bw.outstanding;
  o.seed = bw.seed;
  BandwidthResult r = measure_bandwidth(*platform, o);
  nlohmann::ordered_json j{{"offered_GBps", r.offered_gbps},       {"achieved_GBps", r.achieved_gbps},
                           {"mean_latency_ns", r.mean_latency_ns}, {"p99_latency_ns", r.p99_latency_ns},
                           {"bottleneck", r.bottleneck},           {"bottleneck_utilization", r.bottleneck_utilization},
                           {"capacity_GBps", r.capacity_gbps},     {"requests", r.requests}};
  if (json) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << bw.op << " " << bw.pattern << " from " << bw.from << " to " << bw.to << ", " << r.requests << " lines, "
            << (o.load ? "Poisson arrivals at load " + format_real(*o.load)
                       : "saturating (" + std::to_string(o.outstanding) + " in flight)")
            << "\n"
            << "  path capacity  " << format_real(r.capacity_gbps) << " GB/s\n"
            << "  offered        " << format_real(r.offered_gbps) << " GB/s\n"
            << "  achieved       " << format_real(r.achieved_gbps) << " GB/s\n"
            << "  mean latency   " << format_real(r.mean_latency_ns) << " ns\n"
            << "  p99 latency    " << format_real(r.p99_latency_ns) << " ns\n"
            << "  bottleneck     " << r.bottleneck << " (" << format_real(100 * r.bottleneck_utilization)
            << " % busy)\n";
  return 0;
}

int profile(const std::string& workload, unsigned sockets, unsigned cores, uint64_t instructions, uint64_t seed,
            bool json) {
  ProfileOptions o;
  o.workload = workload;
  o.sockets = sockets;
  o.cores_per_socket = cores;
  o.instructions = instructions;
  o.seed = seed;
  SharingProfile p = profile_sharing(o);
  if (json) std::cout << json_text(p.to_json()) << '\n';
  else
    std::cout << workload << " on " << sockets << " sockets x " << cores << " cores, after a 2 MiB-per-core LLC\n\n"
              << format_profile(p);
  return 0;
}

int run(const PlatformArgs& args, const RunArgs& ra, bool json) {
  auto platform = Platform::build(args.platform, args.sets);
  RunOptions o;
  o.workload = ra.workload;
  o.instructions = ra.instructions;
  o.warmup = ra.warmup;
  if (!ra.placement.empty()) o.placement = enum_named<Placement>(ra.placement);
  o.seed = ra.seed;
  if (ra.pool_fraction >= 0) o.pool_fraction = ra.pool_fraction;
  const Parsed<Size> region = parse_size(ra.oracle_region);
  if (!region) report_error(msg::kUsage, "--oracle-region " + ra.oracle_region + ": " + region.error);
  o.oracle_region = region.value->bytes();
  o.progress = ra.progress;
  o.detailed_sockets = ra.detailed_sockets;
  o.trace_in = ra.trace_in;
  if (!ra.trace_space.empty())
    o.trace_space = ra.trace_space == "shared" ? trace::TraceSpace::Shared : trace::TraceSpace::Separate;
  o.trace_phase = ra.trace_phase;
  o.initial_placement = ra.initial_placement;
  o.seed_given = ra.seed_given;
  o.instructions_given = ra.instructions_given;
  o.dump_trackers = ra.dump_trackers;
  o.checkpoint = ra.checkpoint;
  o.workload_given = ra.workload_given;
  if (!ra.timeline.empty()) {
    const Parsed<Time> interval = parse_time(ra.timeline);
    if (!interval || interval.value->ps() <= 0)
      report_error(msg::kUsage,
                   "--timeline " + ra.timeline + ": " + (interval ? "give a positive time" : interval.error));
    if (ra.out.empty()) report_error(msg::kUsage, "--timeline: the timeline goes into stats.json; give --out");
    o.timeline = sc_core::sc_time(static_cast<double>(interval.value->ps()), sc_core::SC_PS);
  }
  if (!ra.waves.empty()) {
    o.waves = wave_options(ra.waves, ra.waves_window, ra.waves_filter);
  } else if (!ra.waves_window.empty() || !ra.waves_filter.empty()) {
    report_error(msg::kUsage, "--waves-window and --waves-filter shape the waves of --waves FILE; give it");
  }
  if (!ra.transactions.empty()) {
    o.transactions =
        transaction_options(ra.transactions, ra.trace_every, ra.trace_addresses, ra.trace_sockets, ra.trace_window);
  } else if (ra.trace_every != 1000 || !ra.trace_addresses.empty() || !ra.trace_sockets.empty() ||
             !ra.trace_window.empty()) {
    report_error(msg::kUsage,
                 "--trace-every, --trace-addresses, --trace-sockets and --trace-window shape the trace "
                 "of --trace-transactions FILE; give it");
  }
  // Each output its own file: two options naming one path would lose one of them.
  {
    std::map<std::string, std::string> outputs;
    const auto claim = [&outputs](const std::string& option, const std::string& path) {
      if (path.empty()) return;
      const std::string key = std::filesystem::weakly_canonical(path).string();
      if (auto [it, fresh] = outputs.emplace(key, option); !fresh)
        report_error(msg::kUsage, option + " " + path + ": " + it->second + " writes that file too; give each its own");
    };
    if (!ra.out.empty()) claim("--out", ra.out + "/stats.json");
    claim("--waves", ra.waves);
    claim("--trace-transactions", ra.transactions);
    claim("--dump-trackers", ra.dump_trackers);
  }
  // Output paths are checked before the run: a wrong one must not cost a simulation.
  if (!ra.out.empty()) check_output_path(ra.out + "/stats.json");
  if (!ra.dump_trackers.empty()) check_output_path(ra.dump_trackers);
  RunResult r = run_workload(*platform, o);
  if (!ra.out.empty()) write_file_atomically(ra.out + "/stats.json", json_text(r.to_json()) + "\n");
  if (json) std::cout << json_text(r.summary_json()) << '\n';
  else std::cout << format_summary(r);
  return 0;
}

}  // namespace starnuma::cli
