// `starnuma calibrate`: fits a platform's latency and bandwidth parameters to a real machine's Intel
// MLC output (docs/hardware.md). Each trial set of values is measured as `starnuma mlc` measures
// (mlc.hpp); the fit is a coordinate search in log space on the sum of squared relative errors of
// every measurement both have; the result is an `extends:` platform file with the fitted values.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "mlc.hpp"
#include "option_limits.hpp"
#include "subprocess.hpp"

namespace fs = std::filesystem;

namespace starnuma::cli {

namespace {

struct CalibrateArgs {
  MlcArgs mlc;
  std::string file, out;
  std::vector<std::string> fit;    // parameter paths, e.g. nodes.cxl.internal_latency; a+b: moved together
  std::vector<std::string> nodes;  // NUMA node number = memory node name
  std::vector<std::string> use;    // the file's sections compared: idle, peak, loaded, matrix (empty: all)
  unsigned rounds = 12;
  bool json = false;
};

// One parameter being fitted, or several tied together (--fit a+b): one factor scales them all,
// each from its own starting value, so parameters that are equal stay equal.
struct FreeParameter {
  std::vector<std::string> keys;
  std::string unit;  // unit: "ns", "B/s" or "" (an integer), the same for all keys
  std::vector<double> starts;
  double scale = 1, step = 0.2;
  std::string name() const {
    std::string n;
    for (const std::string& k : keys) n += (n.empty() ? "" : "+") + k;
    return n;
  }
  double value(size_t i, double at_scale) const { return round(starts[i] * at_scale); }
  std::string text(double v) const {
    char s[64];
    if (unit == "ns") std::snprintf(s, sizeof s, "%.4gns", v);
    else if (unit == "B/s") std::snprintf(s, sizeof s, "%.4gGB/s", v / 1e9);
    else std::snprintf(s, sizeof s, "%ld", std::lround(v));
    return s;
  }
  double round(double v) const { return unit.empty() ? std::max(1.0, std::round(v)) : v; }
};

// The platform's parameters by path, from `starnuma describe --json` in a child process.
nlohmann::json describe(const MlcArgs& a) {
  const fs::path out = fs::temp_directory_path() / ("starnuma-calibrate-" + std::to_string(getpid()) + ".json");
  std::vector<std::string> args{"starnuma", "describe", a.platform.platform, "--json"};
  for (const std::string& s : a.platform.sets) args.insert(args.end(), {"--set", s});
  if (wait_for(spawn_self_to(args, out.string(), "")) != 0)
    report_error(msg::kUsage, "calibrate: " + a.platform.platform + " cannot be described (above)");
  std::ifstream in(out);
  nlohmann::json j = nlohmann::json::parse(in);
  fs::remove(out);
  return j;
}

// One key's unit and value, as describe gives them.
std::pair<std::string, double> described_parameter(const nlohmann::json& described, const std::string& key) {
  std::vector<std::string> owners;
  for (const char* kind : {"nodes", "links"})
    for (const auto& item : described[kind]) {
      const std::string path = item["path"];
      owners.push_back(path);
      if (key.rfind(path + ".", 0) != 0) continue;
      const std::string name = key.substr(path.size() + 1);
      if (!item["params"].contains(name)) break;
      const nlohmann::json& p = item["params"][name];
      const std::string unit = p.value("unit", std::string());
      if (!p["value"].is_number() || (unit != "ns" && unit != "B/s" && !unit.empty()) ||
          (unit.empty() && !p["value"].is_number_integer()))
        report_error(msg::kUsage, "--fit " + key + ": " + p["text"].get<std::string>() +
                                      " is not a latency, a bandwidth or a count, which calibrate fits");
      if (p["value"].get<double>() <= 0)
        report_error(msg::kUsage, "--fit " + key + ": starts at 0, which a search by ratios cannot leave");
      return {unit, p["value"].get<double>()};
    }
  std::string some;
  for (size_t k = 0; k < owners.size() && k < 6; ++k) some += (k ? ", " : "") + owners[k];
  report_error(msg::kUsage, "--fit " + key +
                                ": no such parameter (a node's or link's path and a parameter of it, "
                                "e.g. nodes.NAME.internal_latency; paths here: " +
                                some + ", ...)");
}

// --fit KEY or KEY+KEY+...: keys tied together must be of one kind (latencies, bandwidths or counts).
FreeParameter free_parameter(const nlohmann::json& described, const std::string& spec) {
  FreeParameter f;
  for (size_t at = 0;;) {
    const size_t plus = spec.find('+', at);
    const std::string key = spec.substr(at, plus == std::string::npos ? std::string::npos : plus - at);
    if (key.empty()) report_error(msg::kUsage, "--fit " + spec + ": an empty key (KEY or KEY+KEY+...)");
    const auto [unit, value] = described_parameter(described, key);
    if (!f.keys.empty() && unit != f.unit)
      report_error(msg::kUsage, "--fit " + spec + ": " + key + " is not of " + f.keys[0] +
                                    "'s kind; tied parameters move by one factor, so they must be");
    f.keys.push_back(key);
    f.unit = unit;
    f.starts.push_back(value);
    if (plus == std::string::npos) break;
    at = plus + 1;
  }
  return f;
}

struct Residual {
  std::string what;
  double measured, model;
  double error() const { return (model - measured) / measured; }
};

class Fit {
 public:
  Fit(const CalibrateArgs& a, const MlcReport& file, std::vector<FreeParameter>& free)
      : a_(a), file_(file), free_(free) {
    const std::pair<const char*, bool> sections[] = {{"idle", !file.idle_latency_ns.empty()},
                                                     {"peak", !file.peak_injection.empty()},
                                                     {"loaded", !file.loaded_latency.empty()},
                                                     {"matrix", !file.bandwidth_mb_per_s.empty()}};
    for (const std::string& u : a.use) {
      const auto it =
          std::find_if(std::begin(sections), std::end(sections), [&](const auto& x) { return u == x.first; });
      if (it == std::end(sections))
        report_error(msg::kUsage, "--use " + u + ": one of idle, peak, loaded, matrix (the MLC file's sections)");
      if (!it->second) report_error(msg::kUsage, "--use " + u + ": " + a.file + " has no such section");
    }
    for (const auto& [name, present] : sections)
      if (present && (a.use.empty() || std::find(a.use.begin(), a.use.end(), name) != a.use.end())) used_.insert(name);
    // The loaded points below 90 % of the file's peak read bandwidth: near saturation a machine's
    // latency is its queue depth, which MLC's threads and the model's arrivals set differently.
    double peak = 0;
    for (const MlcMix& m : file.peak_injection)
      if (m.name == "ALL Reads") peak = m.mb_per_s;
    for (const MlcLoadedPoint& p : file.loaded_latency) peak = std::max(peak, p.mb_per_s);
    if (used_.count("loaded"))
      for (const MlcLoadedPoint& p : file.loaded_latency)
        if (p.delay > 0 && p.mb_per_s < 0.9 * peak) loaded_.push_back(p);
  }

  std::vector<Residual> residuals(const std::vector<double>& values) {
    MlcArgs m = a_.mlc;
    for (size_t k = 0; k < free_.size(); ++k)
      for (size_t i = 0; i < free_[k].keys.size(); ++i)
        m.platform.sets.push_back(free_[k].keys[i] + "=" + free_[k].text(free_[k].value(i, values[k])));
    m.bandwidth_matrix = used_.count("matrix") > 0;
    m.loaded_mb_per_s.clear();
    for (const MlcLoadedPoint& p : loaded_) m.loaded_mb_per_s.push_back(p.mb_per_s);
    if (m.loaded_mb_per_s.empty()) m.loads = {0.5};
    const MlcMeasurement got = measure_mlc(m);
    ++evaluations_;
    std::vector<Residual> r;
    const nlohmann::json& names = got.json["numa_nodes"];
    auto node = [&](int number) {
      if (!node_names_.empty()) {
        auto it = node_names_.find(number);
        if (it == node_names_.end())
          report_error(msg::kUsage, a_.file + ": NUMA node " + std::to_string(number) + " is not in --nodes");
        return it->second;
      }
      if (number < 0 || static_cast<size_t>(number) >= names.size())
        report_error(msg::kUsage, a_.file + ": NUMA node " + std::to_string(number) + ", but " +
                                      a_.mlc.platform.platform + " has " + std::to_string(names.size()) +
                                      " memory nodes (" + names.dump() + ")");
      return names[number].get<std::string>();
    };
    const MlcMatrix& idle = used_.count("idle") ? file_.idle_latency_ns : MlcMatrix{};
    if (node_names_.empty() && !idle.empty() && idle.columns.size() != names.size())
      report_error(msg::kUsage, a_.file + ": measures " + std::to_string(idle.columns.size()) + " NUMA nodes, " +
                                    a_.mlc.platform.platform + " has " + std::to_string(names.size()) +
                                    " memory nodes (" + names.dump() +
                                    "): not the measured machine's structure (--nodes NUMBER=NAME maps a file's "
                                    "nodes to some of the platform's)");
    for (size_t i = 0; i < idle.rows.size(); ++i)
      for (size_t c = 0; c < idle.columns.size(); ++c) {
        if (std::isnan(idle.values[i][c])) continue;
        const std::string from = node(idle.rows[i]), to = node(idle.columns[c]);
        const nlohmann::json& row = got.json["idle_latency_ns"];
        if (!row.contains(from))
          report_error(msg::kUsage, a_.file + ": NUMA node " + std::to_string(idle.rows[i]) + " (" + from +
                                        ") measures latencies, but it is no socket of the platform");
        const nlohmann::json& v = row[from][to];
        if (!v.is_number())
          report_error(msg::kUsage, a_.file + ": " + from + " reaches " + to + ", which it cannot in the platform");
        r.push_back({"idle latency " + from + " -> " + to + " (ns)", idle.values[i][c], v.get<double>()});
      }
    if (used_.count("matrix")) {
      const MlcMatrix& bw = file_.bandwidth_mb_per_s;
      for (size_t i = 0; i < bw.rows.size(); ++i)
        for (size_t c = 0; c < bw.columns.size(); ++c) {
          if (std::isnan(bw.values[i][c])) continue;
          const std::string from = node(bw.rows[i]), to = node(bw.columns[c]);
          const nlohmann::json& v = got.json["bandwidth_matrix_MBps"][from][to];
          if (!v.is_number())
            report_error(msg::kUsage, a_.file + ": the bandwidth matrix has " + from + " -> " + to +
                                          ", which the platform cannot measure");
          r.push_back({"bandwidth " + from + " -> " + to + " (MB/s)", bw.values[i][c], v.get<double>()});
        }
    }
    if (used_.count("peak"))
      for (const MlcMix& mix : file_.peak_injection)
        for (const MlcMix& ours : got.report.peak_injection)
          if (ours.name == mix.name) r.push_back({"peak " + mix.name + " (MB/s)", mix.mb_per_s, ours.mb_per_s});
    // The model's curve: saturation, then the offered points in reverse order.
    const auto& curve = got.report.loaded_latency;
    for (size_t k = 0; k < loaded_.size() && loaded_.size() + 1 == curve.size(); ++k) {
      char what[96];
      std::snprintf(what, sizeof what, "loaded latency at %.0f MB/s (ns)", loaded_[k].mb_per_s);
      r.push_back({what, loaded_[k].latency_ns, curve[curve.size() - 1 - k].latency_ns});
    }
    if (r.empty()) report_error(msg::kUsage, a_.file + ": no measurement the platform can be compared with");
    return r;
  }

  static double cost(const std::vector<Residual>& r) {
    double sum = 0;
    for (const Residual& x : r) sum += x.error() * x.error();
    return sum;
  }

  // Coordinate search in log space: each parameter tries its value times and over (1 + step),
  // keeps a better one, else halves its step; until every step is under 0.2 % or the rounds end.
  void run() {
    std::vector<double> values;
    for (const FreeParameter& f : free_) values.push_back(f.scale);
    double best = cost(residuals(values));
    for (unsigned round = 0; round < a_.rounds; ++round) {
      bool moving = false;
      for (size_t k = 0; k < free_.size(); ++k) {
        FreeParameter& f = free_[k];
        if (f.step < 0.002) continue;
        moving = true;
        bool better = false;
        for (double factor : {1 + f.step, 1 / (1 + f.step)}) {
          std::vector<double> trial = values;
          trial[k] = values[k] * factor;
          bool moved = false;  // a count may round back to where it was
          for (size_t i = 0; i < f.keys.size(); ++i) moved |= f.value(i, trial[k]) != f.value(i, values[k]);
          if (!moved) continue;
          const double c = cost(residuals(trial));
          if (c < best) {
            best = c;
            values = trial;
            better = true;
            break;
          }
        }
        if (!better) f.step /= 2;
      }
      if (!moving) break;
    }
    for (size_t k = 0; k < free_.size(); ++k) free_[k].scale = values[k];
  }

  void set_nodes(const std::vector<std::string>& pairs) {
    for (const std::string& p : pairs) {
      const size_t eq = p.find('=');
      char* end = nullptr;
      const long n = eq == std::string::npos ? -1 : std::strtol(p.c_str(), &end, 10);
      if (eq == std::string::npos || end != p.c_str() + eq || n < 0)
        report_error(msg::kUsage, "--nodes " + p + ": NUMBER=NAME, e.g. 2=cxl");
      node_names_[static_cast<int>(n)] = p.substr(eq + 1);
    }
  }
  unsigned evaluations() const { return evaluations_; }

 private:
  const CalibrateArgs& a_;
  const MlcReport& file_;
  std::vector<FreeParameter>& free_;
  std::vector<MlcLoadedPoint> loaded_;
  std::map<int, std::string> node_names_;
  std::set<std::string> used_;  // the file's sections compared
  unsigned evaluations_ = 0;
};

// The fitted values as a platform file extending the calibrated one: dotted keys become maps.
std::string extends_file(const CalibrateArgs& a, const std::vector<FreeParameter>& free, double rms_before,
                         double rms_after) {
  nlohmann::ordered_json tree = nlohmann::ordered_json::object();
  for (const FreeParameter& f : free)
    for (size_t i = 0; i < f.keys.size(); ++i) {
      nlohmann::ordered_json* at = &tree;
      std::string key = f.keys[i];
      for (size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1))
        at = &(*at)[key.substr(0, dot)];
      (*at)[key] = f.text(f.value(i, f.scale));
    }
  std::ostringstream y;
  char head[256];
  std::snprintf(
      head, sizeof head,
      "# Calibrated by `starnuma calibrate` (starnuma %s) from %s: RMS error %.1f %% before, %.1f %% after.\n",
      STARNUMA_VERSION, a.file.c_str(), 100 * rms_before, 100 * rms_after);
  y << head << "extends: " << fs::absolute(a.mlc.platform.platform).lexically_normal().string() << '\n';
  // Block style, two spaces per level: every value is a scalar or a map.
  const std::function<void(const nlohmann::ordered_json&, int)> write = [&](const nlohmann::ordered_json& j,
                                                                            int depth) {
    for (const auto& [k, v] : j.items()) {
      y << std::string(2 * depth, ' ') << k << ':';
      if (v.is_object()) {
        y << '\n';
        write(v, depth + 1);
      } else {
        y << ' ' << v.get<std::string>() << '\n';
      }
    }
  };
  write(tree, 0);
  return y.str();
}

double rms(const std::vector<Residual>& r) { return std::sqrt(Fit::cost(r) / static_cast<double>(r.size())); }

int calibrate(const CalibrateArgs& a) {
  if (a.fit.empty()) report_error(msg::kUsage, "calibrate: name the parameters to fit with --fit (docs/hardware.md)");
  const MlcReport file = read_mlc_file("--mlc", a.file);
  const nlohmann::json described = describe(a.mlc);
  std::vector<FreeParameter> free;
  for (const std::string& key : a.fit) free.push_back(free_parameter(described, key));
  Fit fit(a, file, free);
  fit.set_nodes(a.nodes);
  const std::vector<Residual> before = fit.residuals(std::vector<double>(free.size(), 1.0));
  fit.run();
  std::vector<double> fitted;
  for (const FreeParameter& f : free) fitted.push_back(f.scale);
  const std::vector<Residual> after = fit.residuals(fitted);
  const std::string yaml = extends_file(a, free, rms(before), rms(after));
  if (!a.out.empty()) write_file_atomically(a.out, yaml);

  if (a.json) {
    nlohmann::ordered_json j{{"platform", a.mlc.platform.platform},
                             {"mlc", a.file},
                             {"evaluations", fit.evaluations()},
                             {"rms_error_before", rms(before)},
                             {"rms_error_after", rms(after)}};
    for (const FreeParameter& f : free)
      for (size_t i = 0; i < f.keys.size(); ++i)
        j["fitted"][f.keys[i]] = {{"start", f.starts[i]},
                                  {"value", f.value(i, f.scale)},
                                  {"unit", f.unit},
                                  {"text", f.text(f.value(i, f.scale))},
                                  {"tied_as", f.name()}};
    for (size_t k = 0; k < after.size(); ++k)
      j["residuals"].push_back({{"what", after[k].what},
                                {"measured", after[k].measured},
                                {"before", before[k].model},
                                {"after", after[k].model},
                                {"error", after[k].error()}});
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::printf("%-52s %12s %12s %8s %12s %8s\n", "measurement", "measured", "before", "error", "after", "error");
  for (size_t k = 0; k < after.size(); ++k)
    std::printf("%-52s %12.1f %12.1f %+7.1f%% %12.1f %+7.1f%%\n", after[k].what.c_str(), after[k].measured,
                before[k].model, 100 * before[k].error(), after[k].model, 100 * after[k].error());
  std::printf("\nRMS error %.1f %% before, %.1f %% after (%u measurements of the platform)\n\n", 100 * rms(before),
              100 * rms(after), fit.evaluations());
  for (const FreeParameter& f : free)
    for (size_t i = 0; i < f.keys.size(); ++i)
      std::printf("%s: %s -> %s%s\n", f.keys[i].c_str(), f.text(f.starts[i]).c_str(),
                  f.text(f.value(i, f.scale)).c_str(), f.keys.size() > 1 ? (" (tied: " + f.name() + ")").c_str() : "");
  if (a.out.empty()) std::cout << '\n' << yaml;
  else std::cout << "\nwrote " << a.out << '\n';
  return 0;
}

}  // namespace

Command add_calibrate(CLI::App& app) {
  auto a = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit a platform's latency and bandwidth parameters to a real machine's Intel MLC output; write the fitted "
      "platform (docs/hardware.md)");
  add_traffic_options(*cmd, a->mlc);  // --from and --to: where the file's bandwidths were measured
  cmd->add_option("--mlc", a->file, "The machine's MLC output (its text, as MLC prints it)")->required();
  cmd->add_option("--fit", a->fit,
                  "A parameter to fit, by path: nodes.NAME.KEY or links.NAME.KEY; KEY+KEY+... moves several by "
                  "one factor (repeatable)");
  cmd->add_option("--use", a->use,
                  "The file's sections to compare: idle, peak, loaded, matrix (default: every one it has)")
      ->delimiter(',');
  cmd->add_option("--nodes", a->nodes,
                  "NUMBER=NAME: the file's NUMA node NUMBER is the platform's node NAME "
                  "(default: the address map's order, sockets first)")
      ->delimiter(',');
  cmd->add_option("--rounds", a->rounds, "Rounds of the coordinate search at most")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--out", a->out, "Write the fitted platform here (default: print it)")->check(kNonEmpty);
  cmd->add_flag("--json", a->json, "Machine-readable output");
  return {cmd, [a] { return calibrate(*a); }};
}

}  // namespace starnuma::cli
