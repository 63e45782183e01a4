// The subcommands that look at a platform or the catalogue without running a workload: `list`,
// `check`, `describe`, `latency`, `bandwidth` and `profile`.
#include "cli.hpp"
#include "common/json_text.hpp"

#include <iomanip>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "platform/describe.hpp"
#include "platform/platform.hpp"
#include "platform/probes.hpp"
#include "common/output_file.hpp"
#include "run/profile.hpp"
#include "option_limits.hpp"
#include "plugin/plugins.hpp"

namespace starnuma::cli {

namespace {

struct BandwidthArgs {
  std::string from, to, op = "read", pattern = "sequential";
  std::optional<double> write_fraction;  // --write-fraction; --op write is 1
  double load = 0;                       // 0: saturate
  uint64_t requests = 100000;
  unsigned outstanding = 1024;
  uint64_t seed = 1;
};

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
  if (bw.write_fraction && bw.op == "write")
    report_error(msg::kUsage, "--op write and --write-fraction do not go together (--op write is --write-fraction 1)");
  o.write_fraction = bw.write_fraction.value_or(bw.op == "write" ? 1.0 : 0.0);
  if (bw.load > 0) o.load = bw.load;
  o.random = bw.pattern == "random";
  o.requests = bw.requests;
  o.outstanding = bw.outstanding;
  o.seed = bw.seed;
  BandwidthResult r = measure_bandwidth(*platform, o);
  nlohmann::ordered_json j{{"offered_GBps", r.offered_gbps},
                           {"achieved_GBps", r.achieved_gbps},
                           {"write_fraction", o.write_fraction},
                           {"mean_latency_ns", r.mean_latency_ns},
                           {"p50_latency_ns", r.p50_latency_ns},
                           {"p99_latency_ns", r.p99_latency_ns},
                           {"p999_latency_ns", r.p999_latency_ns},
                           {"bottleneck", r.bottleneck},
                           {"bottleneck_utilization", r.bottleneck_utilization},
                           {"capacity_GBps", r.capacity_gbps},
                           {"requests", r.requests}};
  if (json) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  const std::string mix = o.write_fraction == 0   ? "read"
                          : o.write_fraction == 1 ? "write"
                                                  : format_real(100 * o.write_fraction) + " % writes";
  std::cout << mix << " " << bw.pattern << " from " << bw.from << " to " << bw.to << ", " << r.requests << " lines, "
            << (o.load ? "Poisson arrivals at load " + format_real(*o.load)
                       : "saturating (" + std::to_string(o.outstanding) + " in flight)")
            << "\n"
            << "  path capacity  " << format_real(r.capacity_gbps) << " GB/s\n"
            << "  offered        " << format_real(r.offered_gbps) << " GB/s\n"
            << "  achieved       " << format_real(r.achieved_gbps) << " GB/s\n"
            << "  mean latency   " << format_real(r.mean_latency_ns) << " ns\n"
            << "  p50 latency    " << format_real(r.p50_latency_ns) << " ns\n"
            << "  p99 latency    " << format_real(r.p99_latency_ns) << " ns\n"
            << "  p99.9 latency  " << format_real(r.p999_latency_ns) << " ns\n"
            << "  bottleneck     " << r.bottleneck << " (" << format_real(100 * r.bottleneck_utilization)
            << " % busy)\n";
  return 0;
}

int profile(const ProfileOptions& o, bool json) {
  SharingProfile p = profile_sharing(o);
  for (const std::string& s : p.shortfalls) std::cerr << "starnuma profile: warning: " << s << '\n';
  if (json) std::cout << json_text(p.to_json()) << '\n';
  else
    std::cout << o.workload << " on " << o.sockets << " sockets x " << o.cores_per_socket
              << " cores, after a 2 MiB-per-core LLC\n\n"
              << format_profile(p);
  return 0;
}

}  // namespace

Command add_list(CLI::App& app) {
  struct Args {
    bool json = false, markdown = false, workloads_only = false;
    std::vector<std::string> plugins;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("list", "List every component type and generator with its parameters");
  cmd->add_flag("--json", a->json, "Machine-readable output");
  cmd->add_flag("--markdown", a->markdown, "The YAML reference as Markdown (docs/yaml-reference.md)");
  cmd->add_flag("--workloads", a->workloads_only, "Only the workloads and their parameters");
  cmd->add_option("--plugin", a->plugins, "Load this plug-in (a shared library) first: its types are listed too")
      ->type_name("LIB");
  return {cmd, [a] {
            for (const std::string& lib : a->plugins) load_plugin(lib);
            return list(a->json, a->markdown, a->workloads_only);
          }};
}

Command add_check(CLI::App& app) {
  auto a = std::make_shared<PlatformArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Validate a platform file; exit 1 listing every error");
  add_platform_args(*cmd, *a);
  return {cmd, [a] { return check(*a); }};
}

Command add_describe(CLI::App& app) {
  auto a = std::make_shared<std::pair<PlatformArgs, bool>>();
  CLI::App* cmd = app.add_subcommand("describe", "Print the elaborated platform: components, parameters, links");
  add_platform_args(*cmd, a->first);
  cmd->add_flag("--json", a->second, "Machine-readable output");
  return {cmd, [a] { return describe(a->first, a->second); }};
}

Command add_latency(CLI::App& app) {
  struct Args {
    PlatformArgs platform;
    bool json = false, paths = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "latency", "Unloaded latency from every socket to every memory node, measured by probe transactions");
  add_platform_args(*cmd, a->platform);
  cmd->add_flag("--json", a->json, "Machine-readable output");
  cmd->add_flag("--paths", a->paths, "Show each hop's contribution");
  return {cmd, [a] { return latency(a->platform, a->json, a->paths); }};
}

Command add_bandwidth(CLI::App& app) {
  struct Args {
    PlatformArgs platform;
    BandwidthArgs bw;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  BandwidthArgs& bw = a->bw;
  CLI::App* cmd = app.add_subcommand(
      "bandwidth", "Drive traffic from a socket to a memory node; report achieved bandwidth and latency");
  add_platform_args(*cmd, a->platform);
  cmd->add_option("--from", bw.from, "Requesting sockets: socket0, a list (socket0,socket5), or all")->required();
  cmd->add_option("--to", bw.to, "Memory node, e.g. socket5 or pool")->required();
  cmd->add_option("--op", bw.op, "read or write")->check(CLI::IsMember({"read", "write"}));
  cmd->add_option("--write-fraction", bw.write_fraction,
                  "Share of the accesses that are writes, spread evenly (0.25: MLC's 3:1 reads-writes)")
      ->check(kFinite & CLI::Range(0.0, 1.0));
  cmd->add_option("--load", bw.load,
                  "Offered load as a fraction of the path capacity (Poisson); without it the path is saturated")
      ->check(kFinite & CLI::Range(1e-6, 100.0));
  cmd->add_option("--pattern", bw.pattern, "sequential or random lines")
      ->check(CLI::IsMember({"sequential", "random"}));
  cmd->add_option("--requests", bw.requests, "Lines to move")->transform(kCount)->check(CLI::Range(1, 100000000));
  cmd->add_option("--outstanding", bw.outstanding, "Requests in flight when saturating")->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", bw.seed, "Random seed (Poisson arrivals, random pattern)")->check(kSeed);
  cmd->add_flag("--json", a->json, "Machine-readable output");
  return {cmd, [a] { return bandwidth(a->platform, a->bw, a->json); }};
}

Command add_profile(CLI::App& app) {
  auto a = std::make_shared<std::pair<ProfileOptions, bool>>();
  ProfileOptions& o = a->first;
  CLI::App* cmd = app.add_subcommand(
      "profile",
      "Sharing profile of a workload after an LLC filter (StarNUMA Fig. 2): pages and accesses by sharer count");
  cmd->add_option("--workload", o.workload, "Workload and parameters")->capture_default_str();
  cmd->add_option("--sockets", o.sockets, "Sockets")
      ->check(CLI::Range(1, limits::kMaxProfileSockets))
      ->capture_default_str();
  cmd->add_option("--cores-per-socket", o.cores_per_socket, "Cores (threads) per socket")
      ->check(CLI::Range(1, limits::kMaxProfileCores))
      ->capture_default_str();
  cmd->add_option("--instructions", o.instructions, "Instructions per thread")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the workload")->check(kSeed)->capture_default_str();
  cmd->add_flag("--json", a->second, "Machine-readable output");
  return {cmd, [a] { return profile(a->first, a->second); }};
}

}  // namespace starnuma::cli
