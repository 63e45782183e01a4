// `starnuma mlc`: Intel Memory Latency Checker's measurements of a platform, in MLC's own text
// (platform/mlc_report.hpp) or JSON: the idle latency matrix, the peak injection bandwidths per
// read-write mix, the loaded-latency curve and, if asked, the bandwidth matrix. Every point is a
// simulation of its own (`starnuma latency` or `starnuma bandwidth` in a child process, several
// at once), as SystemC elaborates once per process.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "mlc.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "option_limits.hpp"
#include "platform/mlc_report.hpp"
#include "subprocess.hpp"
#include "sweep/report_script.hpp"

namespace fs = std::filesystem;

namespace starnuma::cli {

namespace {

// Child runs of this starnuma, `jobs` at once, each writing its JSON to a file of a scratch folder.
class Children {
 public:
  Children(const MlcArgs& a) : args_(a), jobs_(a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency())) {
    dir_ = fs::temp_directory_path() / ("starnuma-mlc-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  ~Children() {
    for (const auto& [pid, k] : running_) wait_for(pid);  // an error left them running
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Queues `starnuma COMMAND PLATFORM --set ... ARGS --json`; returns its number.
  size_t add(const std::string& command, std::vector<std::string> extra) {
    std::vector<std::string> a{"starnuma", command, args_.platform.platform};
    for (const std::string& s : args_.platform.sets) a.insert(a.end(), {"--set", s});
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back("--json");
    queued_.push_back(std::move(a));
    return queued_.size() - 1;
  }

  // Runs everything queued; the first failure is a starnuma/usage error with the child's words.
  void run() {
    for (size_t k = 0; k < queued_.size(); ++k) {
      while (running_.size() >= jobs_) reap();
      running_.push_back({spawn_self_to(queued_[k], out(k), err(k)), k});
    }
    while (!running_.empty()) reap();
  }

  nlohmann::json result(size_t k) const {
    std::ifstream in(out(k));
    return nlohmann::json::parse(in);
  }

 private:
  std::string out(size_t k) const { return (dir_ / (std::to_string(k) + ".json")).string(); }
  std::string err(size_t k) const { return (dir_ / (std::to_string(k) + ".err")).string(); }
  void reap() {
    const auto [pid, k] = running_.front();
    running_.erase(running_.begin());
    if (wait_for(pid) != 0) {
      std::ifstream in(err(k));
      std::stringstream words;
      words << in.rdbuf();
      std::string command;
      for (const std::string& s : queued_[k]) command += " " + s;
      report_error(msg::kUsage, "mlc: the measurement" + command + " failed:\n" + words.str());
    }
  }

  const MlcArgs& args_;
  unsigned jobs_;
  fs::path dir_;
  std::vector<std::vector<std::string>> queued_;
  std::vector<std::pair<pid_t, size_t>> running_;
};

std::vector<std::string> bandwidth_args(const std::string& from, const std::string& to, const MlcArgs& a) {
  return {"--from", from, "--to", to, "--pattern", a.pattern, "--requests", std::to_string(a.requests)};
}

}  // namespace

MlcMeasurement measure_mlc(const MlcArgs& a) {
  Children children(a);
  const size_t idle = children.add("latency", {});
  children.run();  // the nodes' names and numbers first
  const nlohmann::json latency = children.result(idle);
  const std::vector<std::string> sockets = latency["sockets"], nodes = latency["nodes"];
  // MLC numbers NUMA nodes; here node k is the k-th memory node of the address map (the sockets
  // first, then the CPU-less nodes, as Linux numbers a CXL expander), and a socket is the node of
  // its own memory.
  auto number = [&](const std::string& name) {
    for (size_t k = 0; k < nodes.size(); ++k)
      if (nodes[k] == name) return static_cast<int>(k);
    std::string known;
    for (const std::string& n : nodes) known += (known.empty() ? "" : ", ") + n;
    report_error(msg::kUsage, "mlc: no memory node named '" + name + "' (memory nodes: " + known + ")");
  };
  if (a.to.empty() && a.from == "all") report_error(msg::kUsage, "mlc: --from all needs --to: which memory node");
  const std::string to = a.to.empty() ? a.from.substr(0, a.from.find(',')) : a.to;
  number(to);

  std::vector<size_t> mixes, loads;
  for (const MlcMixShare& m : mlc_mixes())
    if (std::string(m.name) != "Stream-triad like")  // the same 2:1 traffic at the memory as "2:1 Reads-Writes"
      mixes.push_back(children.add("bandwidth", [&] {
        auto b = bandwidth_args(a.from, to, a);
        b.insert(b.end(), {"--write-fraction", std::to_string(m.write_fraction)});
        return b;
      }()));
  std::vector<std::vector<size_t>> matrix;
  if (a.bandwidth_matrix)
    for (const std::string& s : sockets) {
      matrix.emplace_back();
      for (const std::string& n : nodes) matrix.back().push_back(children.add("bandwidth", bandwidth_args(s, n, a)));
    }
  std::vector<double> fractions = a.loads;
  if (!a.loaded_mb_per_s.empty()) {  // offered bandwidths: their fractions of the capacity the reads found
    children.run();
    const double capacity = children.result(mixes[0])["capacity_GBps"];
    fractions.clear();
    for (double mbps : a.loaded_mb_per_s) fractions.push_back(mbps / 1000 / capacity);
  }
  for (double load : fractions)
    loads.push_back(children.add("bandwidth", [&] {
      auto b = bandwidth_args(a.from, to, a);
      char text[32];
      std::snprintf(text, sizeof text, "%.6g", load);
      b.insert(b.end(), {"--load", text});
      return b;
    }()));
  children.run();

  MlcReport r;
  r.notes = {std::string("starnuma mlc ") + STARNUMA_VERSION + ": Intel MLC's measurements of " + a.platform.platform};
  std::string legend = "NUMA nodes:";
  for (size_t k = 0; k < nodes.size(); ++k) legend += " " + std::to_string(k) + " " + nodes[k];
  r.notes.push_back(legend);
  r.notes.push_back("Bandwidth and loaded latency: " + a.from + " -> node " + std::to_string(number(to)) + " (" + to +
                    "), " + a.pattern + " lines, " + std::to_string(a.requests) +
                    " per point; Inject Delay: each requester's mean gap between requests (ps)");
  for (const std::string& s : sockets) r.idle_latency_ns.rows.push_back(number(s));
  for (size_t k = 0; k < nodes.size(); ++k) r.idle_latency_ns.columns.push_back(static_cast<int>(k));
  for (const std::string& s : sockets) {
    r.idle_latency_ns.values.emplace_back();
    for (const std::string& n : nodes) {
      const nlohmann::json& v = latency["latency_ns"][s][n];
      r.idle_latency_ns.values.back().push_back(v.is_number() ? v.get<double>() : NAN);
    }
  }
  nlohmann::ordered_json j{
      {"platform", a.platform.platform}, {"numa_nodes", nodes}, {"from", a.from}, {"to", to}, {"pattern", a.pattern},
      {"requests", a.requests}};
  j["idle_latency_ns"] = latency["latency_ns"];
  nlohmann::ordered_json peak = nlohmann::ordered_json::array();
  size_t m = 0;
  for (const MlcMixShare& share : mlc_mixes()) {
    if (std::string(share.name) == "Stream-triad like") continue;
    const nlohmann::json b = children.result(mixes[m++]);
    r.peak_injection.push_back({share.name, 1000 * b["achieved_GBps"].get<double>()});
    peak.push_back({{"mix", share.name},
                    {"write_fraction", share.write_fraction},
                    {"MBps", 1000 * b["achieved_GBps"].get<double>()},
                    {"bottleneck", b["bottleneck"]}});
  }
  j["peak_injection"] = peak;

  // The loaded-latency table from saturation (MLC's delay 0: the all-reads run) down.
  const size_t requesters = std::count(a.from.begin(), a.from.end(), ',') + 1;
  r.loaded_traffic = "Using Read-only traffic type";
  nlohmann::ordered_json curve = nlohmann::ordered_json::array();
  auto point = [&](const nlohmann::json& b, double load) {
    // A requester's mean gap between requests, in ps (1 line of 64 B per (load x capacity) GB/s)
    const double gap =
        load > 0 ? 64e3 / (load * b["capacity_GBps"].get<double>()) * static_cast<double>(requesters) : 0.0;
    r.loaded_latency.push_back(
        {std::lround(gap), b["mean_latency_ns"].get<double>(), 1000 * b["achieved_GBps"].get<double>()});
    curve.push_back({{"load", load},
                     {"gap_ps", gap},
                     {"MBps", 1000 * b["achieved_GBps"].get<double>()},
                     {"mean_latency_ns", b["mean_latency_ns"]},
                     {"p50_latency_ns", b["p50_latency_ns"]},
                     {"p99_latency_ns", b["p99_latency_ns"]},
                     {"p999_latency_ns", b["p999_latency_ns"]}});
  };
  point(children.result(mixes[0]), 0);
  for (size_t k = fractions.size(); k-- > 0;) point(children.result(loads[k]), fractions[k]);
  j["loaded_latency"] = curve;

  if (a.bandwidth_matrix) {
    r.bandwidth_mb_per_s.columns = r.idle_latency_ns.columns;
    r.bandwidth_mb_per_s.rows = r.idle_latency_ns.rows;
    nlohmann::ordered_json bm = nlohmann::ordered_json::object();
    for (size_t s = 0; s < sockets.size(); ++s) {
      r.bandwidth_mb_per_s.values.emplace_back();
      for (size_t n = 0; n < nodes.size(); ++n) {
        const double mbps = 1000 * children.result(matrix[s][n])["achieved_GBps"].get<double>();
        r.bandwidth_mb_per_s.values.back().push_back(mbps);
        bm[sockets[s]][nodes[n]] = mbps;
      }
    }
    j["bandwidth_matrix_MBps"] = bm;
  }

  return {r, j, children.result(mixes[0])["capacity_GBps"].get<double>()};
}

MlcReport read_mlc_file(const std::string& option, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) report_error(msg::kInput, option + " " + path + ": cannot be read");
  std::stringstream s;
  s << in.rdbuf();
  return parse_mlc(s.str(), path);
}

namespace {

// The figure of --plot: the model's loaded-latency curve and peaks, and each --against machine's,
// drawn by tools/report/plot_mlc.py from a JSON file of them all.
void plot(const MlcArgs& a, const MlcMeasurement& m) {
  const std::string script = report_script("plot_mlc.py");
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  series.push_back({{"label", "starnuma: " + fs::path(a.platform.platform).stem().string()},
                    {"peak_injection", m.json["peak_injection"]},
                    {"loaded_latency", m.json["loaded_latency"]}});
  for (const std::string& file : a.against) {
    const MlcReport r = read_mlc_file("--against", file);
    nlohmann::ordered_json peaks = nlohmann::ordered_json::array(), curve = nlohmann::ordered_json::array();
    for (const MlcMix& mix : r.peak_injection) peaks.push_back({{"mix", mix.name}, {"MBps", mix.mb_per_s}});
    for (const MlcLoadedPoint& p : r.loaded_latency)
      curve.push_back({{"MBps", p.mb_per_s}, {"mean_latency_ns", p.latency_ns}});
    if (peaks.empty() && curve.empty())
      report_error(msg::kInput, "--against " + file + ": no peak injection bandwidths or loaded latencies to draw");
    series.push_back(
        {{"label", fs::path(file).filename().string()}, {"peak_injection", peaks}, {"loaded_latency", curve}});
  }
  const nlohmann::ordered_json data{
      {"title", "starnuma mlc " + a.platform.platform + ": " + m.json["from"].get<std::string>() + " -> " +
                    m.json["to"].get<std::string>()},
      {"series", series}};
  const fs::path json = fs::temp_directory_path() / ("starnuma-mlc-plot-" + std::to_string(getpid()) + ".json");
  {
    std::ofstream out(json);
    out << json_text(data) << '\n';
  }
  std::string out, err;
  const int rc = run_program({"python3", script, a.plot, json.string()}, out, err);
  std::error_code ec;
  fs::remove(json, ec);
  if (rc != 0)
    report_error(msg::kInput, "--plot " + a.plot + ": " + script + " failed" +
                                  (rc == 127 ? " to start (install Debian's python3-matplotlib)" : ":\n" + err));
}

int mlc(const MlcArgs& a) {
  const MlcMeasurement m = measure_mlc(a);
  if (!a.plot.empty()) plot(a, m);
  if (a.json) {
    std::cout << json_text(m.json) << '\n';
    return 0;
  }
  std::cout << mlc_text(m.report) << "\nLoaded latency percentiles (ns)\nInject\tp50\tp99\tp99.9\n";
  for (const auto& p : m.json["loaded_latency"]) {
    char row[128];
    std::snprintf(row, sizeof row, " %05ld\t%.1f\t%.1f\t%.1f\n", std::lround(p["gap_ps"].get<double>()),
                  p["p50_latency_ns"].get<double>(), p["p99_latency_ns"].get<double>(),
                  p["p999_latency_ns"].get<double>());
    std::cout << row;
  }
  return 0;
}

}  // namespace

void add_traffic_options(CLI::App& cmd, MlcArgs& a) {
  add_platform_args(cmd, a.platform);
  cmd.add_option("--from", a.from, "Requesting sockets (MLC's traffic threads): socket0, a list, or all")
      ->capture_default_str();
  cmd.add_option("--to", a.to, "Memory node they access (MLC's -j): default, the first requester's own memory");
  cmd.add_option("--pattern", a.pattern, "random (MLC's default) or sequential lines")
      ->check(CLI::IsMember({"random", "sequential"}))
      ->capture_default_str();
  cmd.add_option("--requests", a.requests, "Lines per bandwidth point")
      ->transform(kCount)
      ->check(CLI::Range(1000, 100000000))
      ->capture_default_str();
  cmd.add_option("--jobs", a.jobs, "Measurement points at once (0: one per host core)")->capture_default_str();
}

Command add_mlc(CLI::App& app) {
  auto a = std::make_shared<MlcArgs>();
  CLI::App* cmd = app.add_subcommand(
      "mlc",
      "Intel Memory Latency Checker's measurements of a platform: idle latency matrix, peak bandwidth per read-write "
      "mix, loaded-latency curve (docs/hardware.md)");
  add_traffic_options(*cmd, *a);
  cmd->add_option("--loads", a->loads, "Offered loads of the loaded-latency curve, fractions of the path's capacity")
      ->delimiter(',')
      ->check(kFinite & CLI::Range(0.001, 1.0))
      ->capture_default_str();
  cmd->add_flag("--bandwidth-matrix", a->bandwidth_matrix,
                "Also the read bandwidth from every socket to every memory node (MLC's --bandwidth_matrix)");
  cmd->add_flag("--json", a->json, "Machine-readable output, with each point's latency percentiles");
  cmd->add_option("--plot", a->plot,
                  "Also draw the loaded-latency curve and the peaks per mix to this PNG (matplotlib)")
      ->check(kNonEmpty);
  cmd->add_option("--against", a->against,
                  "A real machine's MLC output drawn beside the model's in --plot (repeatable)")
      ->check(CLI::ExistingFile);
  return {cmd, [a] {
            if (!a->against.empty() && a->plot.empty())
              report_error(msg::kUsage, "--against draws a machine beside the model: give --plot FILE.png too");
            return mlc(*a);
          }};
}

}  // namespace starnuma::cli
