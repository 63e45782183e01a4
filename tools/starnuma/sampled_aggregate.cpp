// The sampled evaluation's aggregate: the windows' results as one run, with the intervals their
// spread gives (docs/sampling.md).
#include "sampled_aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "common/confidence.hpp"
#include "common/diagnostics.hpp"
#include "run/sampled_window.hpp"

namespace starnuma::cli {

namespace {

// Whether a window's figures are in the estimate: all but the boundaries' with units over the
// work, which time the phase's copies for the units (docs/sampling.md, "Units over the work").
bool in_estimate(const nlohmann::ordered_json& w) { return w.value("in_estimate", true); }

// The windows' coherence statistics as one run's: counters summed; a distribution's counts summed,
// its mean weighted by them, its extremes kept. Rates (per simulated time) are left out: each is a
// counter over sim_time_ns, both of which the aggregate has.
nlohmann::ordered_json summed_coherence(const std::vector<nlohmann::ordered_json>& windows) {
  nlohmann::ordered_json sum = nlohmann::ordered_json::object();
  for (const auto& w : windows) {
    if (!w.contains("stats") || !w["stats"].contains("coherence")) continue;
    for (const auto& [k, v] : w["stats"]["coherence"].items()) {
      if (v.is_number_unsigned()) {
        sum[k] = sum.value(k, uint64_t{0}) + v.get<uint64_t>();
      } else if (v.is_object() && v.contains("count") && v.contains("mean")) {
        const uint64_t n = v["count"].get<uint64_t>();
        if (!sum.contains(k)) sum[k] = {{"count", 0}, {"mean", 0.0}, {"min", v["min"]}, {"max", v["max"]}};
        auto& d = sum[k];
        const uint64_t total = d["count"].get<uint64_t>() + n;
        if (n > 0) {
          d["mean"] = (d["mean"].get<double>() * static_cast<double>(d["count"].get<uint64_t>()) +
                       v["mean"].get<double>() * static_cast<double>(n)) /
                      static_cast<double>(total);
          d["min"] = d["count"].get<uint64_t>() ? std::min(d["min"].get<double>(), v["min"].get<double>())
                                                : v["min"].get<double>();
          d["max"] = std::max(d["max"].get<double>(), v["max"].get<double>());
        }
        d["count"] = total;
      }
    }
  }
  return sum;
}

// A window's (phase, unit).
std::pair<uint64_t, uint64_t> held(const nlohmann::ordered_json& w) {
  return {w.value("checkpoint_phase", uint64_t{0}), w.value("checkpoint_unit", uint64_t{0})};
}

// The pass places units and boundaries at its threads' turns, a few hundred instructions of the
// clock past where they fall: a boundary this little before a window's measurement is its start.
constexpr uint64_t kPlacementSlack = 1000;

// Each window's weight in the estimate (the work it stands for, in spacings of the units) and its
// stratum (0: the rest of the work, 1: a phase's start), with what the result says of them.
struct Weights {
  std::vector<double> weight;
  std::vector<size_t> stratum;
  nlohmann::ordered_json said = nlohmann::ordered_json::object();
};
Weights weights(const std::vector<nlohmann::ordered_json>& windows, const nlohmann::ordered_json& manifest,
                uint64_t warmup, uint64_t instructions) {
  Weights w{std::vector<double>(windows.size(), 1.0), std::vector<size_t>(windows.size(), 0)};
  const uint64_t every = manifest.value("unit_every", uint64_t{0});
  if (!every) return w;
  const PhaseStarts ps = phase_starts(manifest, warmup, instructions);
  size_t starts = 0, rest = 0;
  for (const auto& window : windows)
    if (in_estimate(window)) ++(ps.starts.count(held(window)) ? starts : rest);
  // The work the units stand for: every unit of the manifest one spacing, whichever strides ran.
  const double work = static_cast<double>(manifest.at("units").size() * every);
  const double start_stretch = static_cast<double>(std::min(instructions, every));
  // Units at random points of their stretches (checkpoint --unit-jitter) measure a start as often as
  // its share of the work, its aftermath too: every unit stands for its stretch, no stratum.
  const bool at_random = manifest.value("unit_jitter", false);
  const bool stratified = !at_random && instructions < every && starts > 0 && rest > 0 &&
                          work > static_cast<double>(starts) * start_stretch;
  const double start_weight = start_stretch / static_cast<double>(every);
  const double rest_weight =
      stratified ? (work - static_cast<double>(starts) * start_stretch) / (static_cast<double>(rest * every)) : 1.0;
  if (stratified)
    for (size_t k = 0; k < windows.size(); ++k) {
      if (!in_estimate(windows[k])) continue;
      const bool start = ps.starts.count(held(windows[k])) > 0;
      w.weight[k] = start ? start_weight : rest_weight;
      w.stratum[k] = start ? 1 : 0;
    }
  w.said = {{"in_span", ps.in_span},
            {"measured", starts},
            {"unmeasured", ps.in_span - std::min<uint64_t>(ps.in_span, ps.boundaries_measured())},
            {"stratified", stratified},
            {"units_at_random_points", at_random}};
  if (stratified) {
    w.said["weight_of_a_start"] = start_weight;
    w.said["weight_of_the_rest"] = rest_weight;
  }
  return w;
}

// Intervals at `level` of the pooled IPC, AMAT and AMAT's two parts over the windows as units
// (common/confidence.hpp), each window weighted and in its stratum as `w` says: IPC is instructions
// over cycles, AMAT and each part latency-time over accesses, each pooled as the aggregate pools it.
// With one window there is none.
nlohmann::ordered_json confidence(const std::vector<nlohmann::ordered_json>& windows, const Weights& weights,
                                  double level) {
  std::vector<double> instructions, cycles, latency_time, unloaded_time, contention_time, accesses, weight;
  std::vector<size_t> stratum;
  for (size_t k = 0; k < windows.size(); ++k) {
    const auto& w = windows[k];
    if (!in_estimate(w)) continue;
    weight.push_back(weights.weight[k]);
    stratum.push_back(weights.stratum[k]);
    const double instr = w["instructions"].get<double>(), ipc = w["ipc"].get<double>();
    double n = 0;
    for (const auto& [where, count] : w["memory_accesses"].items()) n += count.get<double>();
    instructions.push_back(instr);
    cycles.push_back(ipc > 0 ? instr / ipc : 0);
    latency_time.push_back(n * w["amat_ns"].get<double>());
    unloaded_time.push_back(n * w["amat_unloaded_ns"].get<double>());
    contention_time.push_back(n * w["amat_contention_ns"].get<double>());
    accesses.push_back(n);
  }
  nlohmann::ordered_json c = {{"level", level}, {"units", instructions.size()}};
  const auto put = [&c](const char* key, const std::optional<Interval>& i) {
    if (i) c[key] = {{"low", i->low}, {"high", i->high}, {"relative_half_width", i->relative_half_width()}};
  };
  put("ipc", stratified_ratio_interval(instructions, cycles, weight, stratum, level));
  put("amat_ns", stratified_ratio_interval(latency_time, accesses, weight, stratum, level));
  put("amat_unloaded_ns", stratified_ratio_interval(unloaded_time, accesses, weight, stratum, level));
  put("amat_contention_ns", stratified_ratio_interval(contention_time, accesses, weight, stratum, level));
  return c;
}

// The execution's migrations, the figures a continuous run's stats.json gives: the moves the
// functional pass made at each boundary the manifest lists, summed. The windows' own copies are
// another count: a page copied in flight at several units counts in each (windows_copies).
nlohmann::ordered_json execution_migration(const nlohmann::ordered_json& manifest) {
  uint64_t decided = 0, moved = 0, s2s = 0, to_pool = 0, from_pool = 0;
  const nlohmann::ordered_json& phases = manifest.at("phases");
  for (const auto& p : phases) {
    decided += p.at("pages_decided").get<uint64_t>();
    moved += p.at("pages_moved").get<uint64_t>();
    s2s += p.at("socket_to_socket").get<uint64_t>();
    to_pool += p.at("to_pool").get<uint64_t>();
    from_pool += p.at("from_pool").get<uint64_t>();
  }
  return {{"counted", "the execution's: the functional pass's moves at its boundaries (manifest phases)"},
          {"phases", phases.size()},
          {"pages_decided", decided},
          {"pages_moved", moved},
          {"socket_to_socket", s2s},
          {"to_pool", to_pool},
          {"from_pool", from_pool},
          {"to_pool_fraction", moved ? static_cast<double>(to_pool) / static_cast<double>(moved) : 0.0}};
}

}  // namespace

nlohmann::ordered_json read_json(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) report_error(msg::kInput, path.string() + ": cannot read " + what);
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, path.string() + ": not valid JSON (" + e.what() + ")");
  }
}

// "3" for the window of boundary 3, "3.2" for unit 2 inside the phase after it; of a window's
// results or of an entry of per_window.
std::string window_name(const nlohmann::ordered_json& w) {
  const bool entry = w.contains("phase");
  const uint64_t phase = entry ? w["phase"].get<uint64_t>() : w.value("checkpoint_phase", uint64_t{0});
  const uint64_t unit = w.value(entry ? "unit" : "checkpoint_unit", uint64_t{0});
  return std::to_string(phase) + (unit ? "." + std::to_string(unit) : "");
}

PhaseStarts phase_starts(const nlohmann::ordered_json& manifest, uint64_t warmup, uint64_t instructions) {
  PhaseStarts ps;
  const uint64_t every = manifest.value("unit_every", uint64_t{0});
  if (!every || !manifest.contains("units") || manifest["units"].empty()) return ps;
  const uint64_t reach = std::min(instructions, every);
  std::vector<std::pair<uint64_t, uint64_t>> boundaries;  // the clock there, the phase
  for (const auto& p : manifest.at("phases"))
    boundaries.emplace_back(p.at("clock_instructions").get<uint64_t>(), p.at("phase").get<uint64_t>());
  uint64_t first = UINT64_MAX, last = 0;  // the units' measurements' starts
  for (const auto& u : manifest.at("units")) {
    const uint64_t measures = u.at("clock_instructions").get<uint64_t>() + warmup;
    first = std::min(first, measures);
    last = std::max(last, measures);
    for (const auto& [at, phase] : boundaries)
      if (at + kPlacementSlack >= measures && at < measures + reach) {
        ps.starts[{u.at("phase").get<uint64_t>(), u.at("unit").get<uint64_t>()}] = phase;
        break;
      }
  }
  for (const auto& [at, phase] : boundaries) ps.in_span += at + kPlacementSlack >= first && at < last + every;
  return ps;
}

// The windows' results as one run, as the paper aggregates its checkpoints: every count summed,
// IPC as instructions over the summed time (windows back to back), AMAT and its parts weighted by
// each window's memory accesses, link utilisation by each window's simulated time, each window
// counted for the work it stands for (weights()); the windows left out of the estimate count only
// in the windows' copies and the host's time.
nlohmann::ordered_json aggregate(const std::vector<nlohmann::ordered_json>& windows, double level,
                                 const nlohmann::ordered_json& manifest, uint64_t warmup, uint64_t measured) {
  const Weights weight = weights(windows, manifest, warmup, measured);
  nlohmann::ordered_json a;
  const nlohmann::ordered_json& first = windows.front();
  a["platform"] = first["platform"];
  a["workload"] = first["workload"];
  a["placement"] = "sampled";
  const auto estimated = static_cast<size_t>(std::count_if(windows.begin(), windows.end(), in_estimate));
  a["windows"] = estimated;
  if (estimated < windows.size()) a["windows_timing_copies"] = windows.size() - estimated;
  a["measured_over"] = first.value("measured_over", "per-thread budgets");
  double instructions = 0, cycles_weight = 0, accesses = 0, amat = 0, unloaded = 0, contention = 0, sim_ns = 0,
         host = 0;
  nlohmann::ordered_json counts = nlohmann::ordered_json::object(), util = nlohmann::ordered_json::object(),
                         weighted_counts = nlohmann::ordered_json::object();
  double weighted_ns = 0;
  uint64_t moved = 0, to_pool = 0, from_pool = 0, s2s = 0, dropped = 0, shootdowns = 0, llc_misses = 0;
  double os_busy = 0;
  double weighted_instructions = 0;
  for (size_t index = 0; index < windows.size(); ++index) {
    const auto& w = windows[index];
    const double weight_k = weight.weight[index];
    host += w["host_seconds"].get<double>();
    if (w.contains("migration")) {
      const auto& m = w["migration"];
      moved += m["pages_moved"].get<uint64_t>();
      to_pool += m["to_pool"].get<uint64_t>();
      from_pool += m["from_pool"].get<uint64_t>();
      s2s += m["socket_to_socket"].get<uint64_t>();
      dropped += m["dropped"].get<uint64_t>();
      shootdowns += m["shootdowns_sent"].get<uint64_t>();
      os_busy += m.value("os_core_busy_ns", 0.0);
    }
    if (!in_estimate(w)) continue;
    const double instr = w["instructions"].get<double>(), ipc = w["ipc"].get<double>();
    instructions += instr;
    weighted_instructions += weight_k * instr;
    if (ipc > 0) cycles_weight += weight_k * instr / ipc;
    double n = 0;
    for (const auto& [k, v] : w["memory_accesses"].items()) {
      counts[k] = (counts.contains(k) ? counts[k].get<uint64_t>() : 0) + v.get<uint64_t>();
      weighted_counts[k] = weighted_counts.value(k, 0.0) + weight_k * v.get<double>();
      n += v.get<double>();
    }
    accesses += weight_k * n;
    amat += weight_k * n * w["amat_ns"].get<double>();
    unloaded += weight_k * n * w["amat_unloaded_ns"].get<double>();
    contention += weight_k * n * w["amat_contention_ns"].get<double>();
    const double t = w["sim_time_ns"].get<double>();
    sim_ns += t;
    weighted_ns += weight_k * t;
    for (const auto& [k, v] : w["link_utilization"].items())
      util[k] = (util.contains(k) ? util[k].get<double>() : 0.0) + weight_k * t * v.get<double>();
    llc_misses += w["llc_misses"].get<uint64_t>();
  }
  a["ipc"] = cycles_weight > 0 ? weighted_instructions / cycles_weight : 0.0;
  a["amat_ns"] = accesses > 0 ? amat / accesses : 0.0;
  a["amat_unloaded_ns"] = accesses > 0 ? unloaded / accesses : 0.0;
  a["amat_contention_ns"] = accesses > 0 ? contention / accesses : 0.0;
  nlohmann::ordered_json breakdown = nlohmann::ordered_json::object();
  for (const auto& [k, v] : weighted_counts.items()) breakdown[k] = accesses > 0 ? v.get<double>() / accesses : 0.0;
  a["access_breakdown"] = breakdown;
  a["memory_accesses"] = counts;
  for (auto& [k, v] : util.items()) v = weighted_ns > 0 ? v.get<double>() / weighted_ns : 0.0;
  a["link_utilization"] = util;
  a["instructions"] = static_cast<uint64_t>(instructions);
  a["llc_misses"] = llc_misses;
  a["migration"] = execution_migration(manifest);
  a["windows_copies"] = {{"pages_moved", moved},
                         {"socket_to_socket", s2s},
                         {"to_pool", to_pool},
                         {"from_pool", from_pool},
                         {"to_pool_fraction", moved ? static_cast<double>(to_pool) / static_cast<double>(moved) : 0.0},
                         {"dropped", dropped},
                         {"shootdowns_sent", shootdowns},
                         {"os_core_busy_ns", os_busy}};
  a["sim_time_ns"] = sim_ns;
  a["host_seconds"] = host;
  a["coherence"] = summed_coherence(windows);
  a["confidence"] = confidence(windows, weight, level);
  if (!weight.said.empty()) a["phase_starts"] = weight.said;
  nlohmann::ordered_json per = nlohmann::ordered_json::array();
  for (size_t index = 0; index < windows.size(); ++index) {
    const auto& w = windows[index];
    const auto migration = [&](const char* key) -> uint64_t {
      return w.contains("migration") ? w["migration"].value(key, uint64_t{0}) : 0;
    };
    uint64_t decided = 0;
    if (w.contains("migration") && w["migration"].contains("per_phase"))
      for (const auto& p : w["migration"]["per_phase"]) decided += p.value("pages_decided", uint64_t{0});
    per.push_back({{"phase", w["checkpoint_phase"]},
                   {"unit", w.value("checkpoint_unit", uint64_t{0})},
                   {"ipc", w["ipc"]},
                   {"instructions", w["instructions"]},
                   {"amat_ns", w["amat_ns"]},
                   {"sim_time_ns", w["sim_time_ns"]},
                   {"pages_decided", decided},
                   {"pages_moved", migration("pages_moved")},
                   {"to_pool", migration("to_pool")},
                   {"copies_in_flight", w.value("checkpoint_copies_in_flight", uint64_t{0})}});
    if (!in_estimate(w)) per.back()["in_estimate"] = false;
    if (weight.stratum[index]) per.back()["starts_a_phase"] = true;
    if (weight.weight[index] != 1.0) per.back()["weight"] = weight.weight[index];
  }
  a["per_window"] = per;
  // What any window did short of what it was asked, named by its phase.
  nlohmann::ordered_json shortfalls = nlohmann::ordered_json::array();
  for (const auto& w : windows)
    for (const auto& s : w.value("shortfalls", nlohmann::ordered_json::array()))
      shortfalls.push_back("window " + window_name(w) + ": " + s.get<std::string>());
  a["shortfalls"] = shortfalls;
  return a;
}

std::map<uint64_t, uint64_t> boundary_positions(const nlohmann::ordered_json& manifest) {
  std::map<uint64_t, uint64_t> at;
  for (const auto& p : manifest.value("phases", nlohmann::ordered_json::array()))
    at[p.at("phase").get<uint64_t>()] = p.at("mean_instructions").get<uint64_t>();
  return at;
}

std::map<std::pair<uint64_t, uint64_t>, NextBoundary> next_boundaries(const nlohmann::ordered_json& manifest,
                                                                      uint64_t stretch) {
  std::map<uint64_t, NextBoundary> boundary;  // phase: its file, its clock
  for (const auto& p : manifest.value("phases", nlohmann::ordered_json::array()))
    boundary[p.at("phase").get<uint64_t>()] = {p.at("file").get<std::string>(),
                                               p.at("clock_instructions").get<uint64_t>()};
  std::map<std::pair<uint64_t, uint64_t>, NextBoundary> crossing;
  for (const auto& u : manifest.value("units", nlohmann::ordered_json::array())) {
    const uint64_t phase = u.at("phase").get<uint64_t>(), clock = u.at("clock_instructions").get<uint64_t>();
    const auto next = boundary.find(phase + 1);
    if (next != boundary.end() && clock + stretch > next->second.after)
      crossing[{phase, u.at("unit").get<uint64_t>()}] = {next->second.file,
                                                         next->second.after - std::min(clock, next->second.after)};
  }
  return crossing;
}

nlohmann::ordered_json copies_by_next_boundary(const std::vector<nlohmann::ordered_json>& windows,
                                               const nlohmann::ordered_json& manifest) {
  const std::map<uint64_t, uint64_t> boundary_at = boundary_positions(manifest);
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const auto& w : windows) {
    if (w.value("checkpoint_unit", uint64_t{0}) != 0 || !w.contains("migration") ||
        w["migration"].value("per_phase", nlohmann::ordered_json::array()).empty())
      continue;
    const nlohmann::ordered_json& r = w["migration"]["per_phase"][0];
    const auto started = r.value("copies_started_at_instructions", std::vector<uint64_t>{});
    const uint64_t moves = r.value("pages_to_copy", uint64_t{0});
    if (started.empty() || moves == 0) continue;  // nothing to copy, or no rate to go by
    const uint64_t phase = w.value("checkpoint_phase", uint64_t{0});
    const auto at = boundary_at.find(phase), next = boundary_at.find(phase + 1);
    const uint64_t length = at != boundary_at.end() && next != boundary_at.end() && next->second > at->second
                                ? next->second - at->second
                                : manifest.value("phase_instructions", uint64_t{0});
    phases.push_back({{"phase", phase},
                      {"pages_to_copy", moves},
                      {"started_by_next_boundary",
                       copies_started_by(started, r.value("instructions_observed", uint64_t{0}), moves, length)}});
  }
  return phases;
}

nlohmann::ordered_json core_counts(const nlohmann::ordered_json& stats) {
  nlohmann::ordered_json cores = nlohmann::ordered_json::array();
  if (!stats.contains("nodes")) return cores;
  for (const auto& [name, node] : stats["nodes"].items()) {
    if (name.rfind("socket", 0) != 0) continue;
    for (const auto& [core, c] : node.items())
      if (core.rfind("core", 0) == 0 && c.is_object() && c.contains("instructions") && c.contains("cycles"))
        cores.push_back({c["instructions"], c["cycles"], c.value("barriers", uint64_t{0}), name + "." + core});
  }
  return cores;
}

nlohmann::ordered_json thread_drift(const std::vector<nlohmann::ordered_json>& windows,
                                    const nlohmann::ordered_json& manifest) {
  // Each thread's instructions and cycles over the windows, in the statistics' order (socket, core).
  std::vector<double> instructions, cycles;
  double barriers = 0;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> position;  // (phase, unit): the mean thread's instructions
  for (const auto& p : manifest.value("phases", nlohmann::ordered_json::array()))
    position[{p.at("phase").get<uint64_t>(), 0}] = p.at("mean_instructions").get<uint64_t>();
  for (const auto& u : manifest.value("units", nlohmann::ordered_json::array()))
    position[{u.at("phase").get<uint64_t>(), u.at("unit").get<uint64_t>()}] = u.at("mean_instructions").get<uint64_t>();
  std::vector<uint64_t> at;
  std::vector<std::string> names;
  for (const auto& w : windows) {
    if (!in_estimate(w) || !w.contains("stats") || !w["stats"].contains("cores")) continue;
    const auto& cores = w["stats"]["cores"];
    if (instructions.empty()) {
      instructions.assign(cores.size(), 0);
      cycles.assign(cores.size(), 0);
      for (const auto& c : cores) names.push_back(c.size() > 3 ? c[3].get<std::string>() : std::string());
    }
    if (cores.size() != instructions.size()) report_internal("thread_drift: windows with different cores");
    for (size_t t = 0; t < cores.size(); ++t) {
      instructions[t] += cores[t][0].get<double>();
      cycles[t] += cores[t][1].get<double>();
      barriers += cores[t][2].get<double>();
    }
    const auto p = position.find({w.value("checkpoint_phase", uint64_t{0}), w.value("checkpoint_unit", uint64_t{0})});
    if (p != position.end()) at.push_back(p->second);
  }
  // Paced by time, each thread ran at the rate its clock gave it: what drifts is the windows' rate over that one.
  std::map<std::string, double> paced;
  if (const auto& pace = manifest.value("pace", nlohmann::ordered_json::object()); pace.value("by", "") == "time")
    for (const auto& t : pace.at("threads"))
      if (t.at("cycles").get<double>() > 0)
        paced[t.at("core").get<std::string>()] = t.at("instructions").get<double>() / t.at("cycles").get<double>();
  std::vector<double> rates, drifting;
  double work = 0;
  for (size_t t = 0; t < instructions.size(); ++t)
    if (cycles[t] > 0) {
      rates.push_back(instructions[t] / cycles[t]);
      work += instructions[t];
      if (paced.empty()) continue;
      const auto p = paced.find(names[t]);
      if (p == paced.end() || p->second <= 0)
        report_error(msg::kInput,
                     "the checkpoints' manifest has no paced rate for " + names[t] + ", a core of the windows");
      drifting.push_back(rates.back() / p->second);
    }
  if (rates.size() < 2) return nlohmann::ordered_json::object();
  const auto mean_of = [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m += x;
    return m / static_cast<double>(v.size());
  };
  const auto cv_of = [&mean_of](const std::vector<double>& v) {
    const double m = mean_of(v);
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return std::sqrt(ss / static_cast<double>(v.size())) / m;
  };
  const double mean = mean_of(rates);
  if (mean <= 0) return nlohmann::ordered_json::object();
  const double cv = cv_of(rates);
  const double drifting_cv = drifting.empty() ? cv : cv_of(drifting);
  // Where the windows end: one spacing (the units' K, or the boundaries' mean distance, or a phase
  // with one boundary) past the last one's place, in the mean thread's instructions from the start.
  std::sort(at.begin(), at.end());
  const uint64_t every = manifest.value("unit_every", uint64_t{0});
  double spacing = static_cast<double>(manifest.value("phase_instructions", uint64_t{0}));
  if (every > 0) spacing = static_cast<double>(every);
  else if (at.size() > 1) spacing = static_cast<double>(at.back() - at.front()) / static_cast<double>(at.size() - 1);
  const double end = at.empty() ? 0 : static_cast<double>(at.back()) + spacing;
  nlohmann::ordered_json d = {{"threads", rates.size()},
                              {"rate_cv", cv},
                              {"fastest_over_mean", *std::max_element(rates.begin(), rates.end()) / mean},
                              {"slowest_over_mean", *std::min_element(rates.begin(), rates.end()) / mean}};
  // A barrier brings the threads back together: they drift only between two.
  const double per_barrier = barriers > 0 ? work / barriers : INFINITY;
  d["instructions_per_barrier"] =
      std::isinf(per_barrier) ? nlohmann::ordered_json() : nlohmann::ordered_json(per_barrier);
  d["instructions_at_end"] = end;
  // Paced by time: the spread of the windows' rates over the pace's, which the pass did not follow.
  d["paced_by"] = paced.empty() ? "turns" : "time";
  if (!paced.empty()) d["rate_over_paced_cv"] = drifting_cv;
  d["relative_drift"] = end > 0 ? drifting_cv * std::min(1.0, per_barrier / end) : drifting_cv;
  d["warning_above"] = kDriftWarning;
  return d;
}

}  // namespace starnuma::cli
