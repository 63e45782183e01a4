// The sampled evaluation of the StarNUMA paper (Fig. 6): `starnuma checkpoint` (step B, the
// functional pass that decides every phase's migrations and writes checkpoints) and `starnuma
// sample` (step C, one timing window per checkpoint, each its own `starnuma run --checkpoint`
// process, several at once, then the aggregate).
#include <unistd.h>

#include <algorithm>
#include <tuple>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "option_limits.hpp"
#include "common/diagnostics.hpp"
#include "common/confidence.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "platform/platform.hpp"
#include "os/checkpoint.hpp"
#include "run/functional_pass.hpp"
#include "run/sampled_window.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/workload_registry.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {

namespace {

namespace fs = std::filesystem;

// The windows' workload, built here once: each window is forked from this process (fork_self) and
// takes it instead of building it again, which at the paper's sizes is most of a window's cost.
// Returns the host seconds it took.
double build_workload_once(const std::string& checkpoint_file) {
  const auto start = std::chrono::steady_clock::now();
  const Checkpoint c = read_checkpoint(checkpoint_file);
  if (is_program_mix(c.workload)) return 0;  // the window refuses it, and says why
  unsigned threads = 0;
  for (unsigned cores : c.cores_per_socket) threads += cores;
  const auto sockets = static_cast<unsigned>(c.cores_per_socket.size());
  keep_workload(c.workload, threads, sockets, c.seed, make_workload(c.workload, threads, sockets, c.seed));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

nlohmann::ordered_json read_json(const fs::path& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) report_error(msg::kInput, path.string() + ": cannot read " + what);
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, path.string() + ": not valid JSON (" + e.what() + ")");
  }
}

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

// 95 % intervals of the pooled IPC and AMAT over the windows as units (common/confidence.hpp):
// IPC is instructions over cycles, AMAT latency-time over accesses, each pooled as the aggregate
// pools it. With one window there is none.
nlohmann::ordered_json confidence(const std::vector<nlohmann::ordered_json>& windows) {
  std::vector<double> instructions, cycles, latency_time, accesses;
  for (const auto& w : windows) {
    const double instr = w["instructions"].get<double>(), ipc = w["ipc"].get<double>();
    double n = 0;
    for (const auto& [k, v] : w["memory_accesses"].items()) n += v.get<double>();
    instructions.push_back(instr);
    cycles.push_back(ipc > 0 ? instr / ipc : 0);
    latency_time.push_back(n * w["amat_ns"].get<double>());
    accesses.push_back(n);
  }
  nlohmann::ordered_json c = {{"level", 0.95}, {"units", windows.size()}};
  const auto put = [&c](const char* key, const std::optional<Interval>& i) {
    if (i) c[key] = {{"low", i->low}, {"high", i->high}, {"relative_half_width", i->relative_half_width()}};
  };
  put("ipc", ratio_interval(instructions, cycles));
  put("amat_ns", ratio_interval(latency_time, accesses));
  return c;
}

// "3" for the window of boundary 3, "3.2" for unit 2 inside the phase after it; of a window's
// results or of an entry of per_window.
std::string window_name(const nlohmann::ordered_json& w) {
  const bool entry = w.contains("phase");
  const uint64_t phase = entry ? w["phase"].get<uint64_t>() : w.value("checkpoint_phase", uint64_t{0});
  const uint64_t unit = w.value(entry ? "unit" : "checkpoint_unit", uint64_t{0});
  return std::to_string(phase) + (unit ? "." + std::to_string(unit) : "");
}

// The windows' results as one run, as the paper aggregates its checkpoints: every count summed,
// IPC as instructions over the summed time (windows back to back), AMAT and its parts weighted by
// each window's memory accesses, link utilisation by each window's simulated time.
nlohmann::ordered_json aggregate(const std::vector<nlohmann::ordered_json>& windows) {
  nlohmann::ordered_json a;
  const nlohmann::ordered_json& first = windows.front();
  a["platform"] = first["platform"];
  a["workload"] = first["workload"];
  a["placement"] = "sampled";
  a["windows"] = windows.size();
  double instructions = 0, cycles_weight = 0, accesses = 0, amat = 0, unloaded = 0, contention = 0, sim_ns = 0,
         host = 0;
  nlohmann::ordered_json counts = nlohmann::ordered_json::object(), util = nlohmann::ordered_json::object();
  uint64_t moved = 0, to_pool = 0, from_pool = 0, s2s = 0, dropped = 0, shootdowns = 0, llc_misses = 0;
  double os_busy = 0;
  for (const auto& w : windows) {
    const double instr = w["instructions"].get<double>(), ipc = w["ipc"].get<double>();
    instructions += instr;
    if (ipc > 0) cycles_weight += instr / ipc;
    double n = 0;
    for (const auto& [k, v] : w["memory_accesses"].items()) {
      counts[k] = (counts.contains(k) ? counts[k].get<uint64_t>() : 0) + v.get<uint64_t>();
      n += v.get<double>();
    }
    accesses += n;
    amat += n * w["amat_ns"].get<double>();
    unloaded += n * w["amat_unloaded_ns"].get<double>();
    contention += n * w["amat_contention_ns"].get<double>();
    const double t = w["sim_time_ns"].get<double>();
    sim_ns += t;
    host += w["host_seconds"].get<double>();
    for (const auto& [k, v] : w["link_utilization"].items())
      util[k] = (util.contains(k) ? util[k].get<double>() : 0.0) + t * v.get<double>();
    llc_misses += w["llc_misses"].get<uint64_t>();
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
  }
  a["ipc"] = cycles_weight > 0 ? instructions / cycles_weight : 0.0;
  a["amat_ns"] = accesses > 0 ? amat / accesses : 0.0;
  a["amat_unloaded_ns"] = accesses > 0 ? unloaded / accesses : 0.0;
  a["amat_contention_ns"] = accesses > 0 ? contention / accesses : 0.0;
  nlohmann::ordered_json breakdown = nlohmann::ordered_json::object();
  for (const auto& [k, v] : counts.items()) breakdown[k] = accesses > 0 ? v.get<double>() / accesses : 0.0;
  a["access_breakdown"] = breakdown;
  a["memory_accesses"] = counts;
  for (auto& [k, v] : util.items()) v = sim_ns > 0 ? v.get<double>() / sim_ns : 0.0;
  a["link_utilization"] = util;
  a["instructions"] = static_cast<uint64_t>(instructions);
  a["llc_misses"] = llc_misses;
  a["migration"] = {{"pages_moved", moved},
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
  a["confidence"] = confidence(windows);
  nlohmann::ordered_json per = nlohmann::ordered_json::array();
  for (const auto& w : windows) {
    const auto migration = [&](const char* key) -> uint64_t {
      return w.contains("migration") ? w["migration"].value(key, uint64_t{0}) : 0;
    };
    uint64_t decided = 0;
    if (w.contains("migration") && w["migration"].contains("per_phase"))
      for (const auto& p : w["migration"]["per_phase"]) decided += p.value("pages_decided", uint64_t{0});
    per.push_back({{"phase", w["checkpoint_phase"]},
                   {"unit", w.value("checkpoint_unit", uint64_t{0})},
                   {"ipc", w["ipc"]},
                   {"amat_ns", w["amat_ns"]},
                   {"sim_time_ns", w["sim_time_ns"]},
                   {"pages_decided", decided},
                   {"pages_moved", migration("pages_moved")},
                   {"to_pool", migration("to_pool")},
                   {"copies_in_flight", w.value("checkpoint_copies_in_flight", uint64_t{0})}});
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

// Each unit's --copies-done: how many of its boundary's copies a continuous run would have started
// by the unit, read from the boundary's window (its copies' starts in the mean thread's
// instructions from the phase's start; copies_started_by), at the unit's distance from the
// boundary in the pass, by the same clock.
void unit_copies_done(const fs::path& manifest_path, const nlohmann::ordered_json& manifest,
                      const std::vector<std::pair<uint64_t, uint64_t>>& held,
                      const std::vector<std::string>& window_out, std::vector<std::string>& copies_done) try {
  std::map<uint64_t, nlohmann::ordered_json> boundary;  // phase: its window's migration record
  std::map<uint64_t, uint64_t> boundary_at;             // phase: the mean thread's instructions there
  for (size_t k = 0; k < held.size(); ++k) {
    if (held[k].second != 0) continue;
    const nlohmann::ordered_json w = read_json(fs::path(window_out[k]) / "stats.json", "a window's results");
    if (w.contains("migration") && !w["migration"]["per_phase"].empty())
      boundary[held[k].first] = w["migration"]["per_phase"][0];
  }
  for (const auto& p : manifest.value("phases", nlohmann::ordered_json::array()))
    boundary_at[p.at("phase").get<uint64_t>()] = p.at("mean_instructions");
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> unit_at;
  for (const auto& u : manifest.value("units", nlohmann::ordered_json::array()))
    unit_at[{u.at("phase").get<uint64_t>(), u.at("unit").get<uint64_t>()}] = u.at("mean_instructions");
  for (size_t k = 0; k < held.size(); ++k) {
    if (held[k].second == 0) continue;
    const auto b = boundary.find(held[k].first);
    if (b == boundary.end()) continue;  // the phase's window moved nothing: neither does the unit
    const nlohmann::ordered_json& r = b->second;
    const uint64_t offset = unit_at.at(held[k]) - std::min(unit_at.at(held[k]), boundary_at[held[k].first]);
    copies_done[k] = std::to_string(copies_started_by(
        r.value("copies_started_at_instructions", std::vector<uint64_t>{}),
        r.value("instructions_observed", uint64_t{0}), r.value("pages_to_copy", uint64_t{0}), offset));
  }
} catch (const nlohmann::json::exception& e) {
  report_error(msg::kInput, manifest_path.string() + ": " + e.what() +
                                " (written by an older starnuma? make the checkpoints again)");
}

struct CheckpointArgs {
  PlatformArgs platform;
  FunctionalPassOptions pass;
  bool json = false;
};

struct SampleArgs {
  PlatformArgs platform;
  std::string checkpoints;         // folder `checkpoint` wrote
  uint64_t instructions = 100000;  // per thread and window
  uint64_t warmup = 20000;
  unsigned jobs = 0;  // windows at once; 0: the host's cores
  unsigned detailed_sockets = 0;
  std::string out;
  bool json = false;
  double target_error = 0;  // the IPC interval's relative half-width asked for; 0: none
};

int checkpoint(const CheckpointArgs& ca) {
  if (ca.pass.out.empty() && !ca.pass.streams_only) report_error(msg::kUsage, "checkpoint: --out FOLDER is required");
  auto platform = Platform::build(ca.platform.platform, ca.platform.sets);
  FunctionalPassOptions o = ca.pass;
  const bool json = ca.json;
  o.progress = o.progress && !json;
  const FunctionalPassResult r = run_functional_pass(*platform, o);
  if (o.streams_only && !json) {
    std::cout << std::fixed << std::setprecision(2) << r.accesses << " operations read in " << r.pass_seconds
              << " s: " << r.accesses / r.pass_seconds / 1e6 << " M operations/s\n";
    return 0;
  }
  if (json) {
    std::cout << json_text(r.manifest) << '\n';
    return 0;
  }
  std::cout << r.manifest["workload"].get<std::string>() << " on " << r.manifest["platform"].get<std::string>() << ", "
            << r.manifest["knowledge"].get<std::string>() << " knowledge, phases of "
            << r.manifest["phase_instructions"] << " instructions per thread\n\n"
            << "phase   HI        LO      candidates  pages moved  to pool  from pool  pool pages\n";
  for (const auto& p : r.manifest["phases"])
    std::cout << std::left << std::setw(8) << p["phase"].get<uint64_t>() << std::setw(10) << p["hi"].get<uint64_t>()
              << std::setw(8) << p["lo"].get<uint64_t>() << std::setw(12) << p["candidates"].get<uint64_t>()
              << std::setw(13) << p["pages_moved"].get<uint64_t>() << std::setw(9) << p["to_pool"].get<uint64_t>()
              << std::setw(11) << p["from_pool"].get<uint64_t>() << p["pool_pages"].get<uint64_t>() << '\n';
  std::cout << std::fixed << std::setprecision(1) << '\n'
            << r.accesses << " accesses (" << r.llc_misses << " LLC misses) in " << std::setprecision(2)
            << r.pass_seconds << " s: " << (r.pass_seconds > 0 ? r.accesses / r.pass_seconds / 1e6 : 0)
            << " M accesses/s (" << r.host_seconds << " s with the workload's set-up); checkpoints in " << o.out
            << '\n';
  return 0;
}

// A target error the windows did not meet is a shortfall, on stderr and in the results.
void report_target_error(nlohmann::ordered_json& result, double target) {
  if (target <= 0) return;
  const auto& c = result["confidence"];
  const double got = c.contains("ipc") ? c["ipc"]["relative_half_width"].get<double>() : INFINITY;
  if (got <= target) return;
  std::ostringstream why;
  why << std::fixed << std::setprecision(1) << "the 95 % interval of IPC is ";
  if (std::isinf(got)) why << "unknown with one window";
  else why << "+-" << 100 * got << " %";
  why << ", wider than --target-error " << 100 * target << " %: more windows (checkpoints) are needed";
  result["shortfalls"].push_back(why.str());
  std::cerr << "warning: " << why.str() << '\n';
}

// The checkpoints a manifest lists, in the execution's order: a boundary (unit 0), then the units
// inside the phase after it; each file's path and what it holds, (phase, unit).
void list_checkpoints(const fs::path& dir, const nlohmann::ordered_json& manifest, std::vector<std::string>& files,
                      std::vector<std::pair<uint64_t, uint64_t>>& held) {
  try {
    std::vector<std::tuple<uint64_t, uint64_t, std::string>> listed;
    for (const char* list : {"phases", "units"})
      for (const auto& p : manifest.value(list, nlohmann::ordered_json::array()))
        listed.emplace_back(p.at("phase").get<uint64_t>(), p.value("unit", uint64_t{0}),
                            (dir / p.at("file").get<std::string>()).string());
    std::sort(listed.begin(), listed.end());
    for (const auto& [phase, unit, file] : listed) {
      files.push_back(file);
      held.emplace_back(phase, unit);
    }
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, (dir / "manifest.json").string() + ": " + e.what());
  }
}

int sample(const SampleArgs& sa) {
  const bool json = sa.json;
  const fs::path dir(sa.checkpoints);
  const nlohmann::ordered_json manifest = read_json(dir / "manifest.json",
                                                    "the checkpoints' manifest (not a folder "
                                                    "`starnuma checkpoint` wrote?)");
  std::vector<std::string> files;
  std::vector<std::pair<uint64_t, uint64_t>> held;  // what the manifest says each file holds: (phase, unit)
  list_checkpoints(dir, manifest, files, held);
  if (files.empty()) report_error(msg::kInput, (dir / "manifest.json").string() + ": lists no checkpoints");
  const bool keep = !sa.out.empty();
  if (keep) {  // --out is replaced whole: it must not hold the input, nor be inside it
    const fs::path in = fs::weakly_canonical(dir), to = fs::weakly_canonical(sa.out);
    const auto within = [](const fs::path& inner, const fs::path& outer) {
      const auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
      return o == outer.end();
    };
    if (within(in, to) || within(to, in))
      report_error(msg::kUsage, "--out " + sa.out + " and --checkpoints " + sa.checkpoints +
                                    ": --out is replaced whole, so it may neither hold nor lie inside the checkpoints");
  }
  std::optional<OutputFolder> folder;  // all or nothing: built beside --out, renamed over it at the end
  if (keep) folder.emplace(sa.out, "sampled.json");
  const fs::path out =
      keep ? fs::path(folder->file("")) : fs::temp_directory_path() / ("starnuma-sample-" + std::to_string(getpid()));
  const unsigned jobs = sa.jobs ? sa.jobs : std::max(1u, std::thread::hardware_concurrency());
  const double build_seconds = build_workload_once(files.front());

  std::vector<std::string> window_out(files.size());
  std::vector<std::string> copies_done(files.size());  // a unit's --copies-done, from its boundary's window
  std::vector<pid_t> running;
  std::vector<size_t> running_index;
  int failed = 0;
  size_t failed_index = 0;
  const auto reap_one = [&] {
    const int code = wait_for(running.front());
    if (code && !failed) {
      failed = code;
      failed_index = running_index.front();
    }
    running.erase(running.begin());
    running_index.erase(running_index.begin());
  };
  // Boundaries first: a unit's window needs its boundary's to know which copies are in flight.
  for (const bool units : {false, true}) {
    if (units && !failed) unit_copies_done(dir / "manifest.json", manifest, held, window_out, copies_done);
    for (size_t k = 0; k < files.size() && !failed; ++k) {
      if ((held[k].second != 0) != units) continue;
      window_out[k] = (out / ("window-" + std::to_string(k + 1))).string();
      std::vector<std::string> a{"starnuma",
                                 "run",
                                 sa.platform.platform,
                                 "--checkpoint",
                                 files[k],
                                 "--instructions",
                                 std::to_string(sa.instructions),
                                 "--warmup",
                                 std::to_string(sa.warmup),
                                 "--out",
                                 window_out[k],
                                 "--no-progress",
                                 "--json",
                                 "--detailed-sockets",
                                 std::to_string(sa.detailed_sockets)};
      if (!copies_done[k].empty()) a.insert(a.end(), {"--copies-done", copies_done[k]});
      for (const auto& set : sa.platform.sets) a.insert(a.end(), {"--set", set});
      while (running.size() >= jobs) reap_one();
      running.push_back(fork_self(a));
      running_index.push_back(k);
    }
    while (!running.empty()) reap_one();
  }
  if (failed) {
    std::error_code ec;
    if (!keep) fs::remove_all(out, ec);
    std::cerr << "sample: the window of " << files[failed_index] << " failed (above)\n";
    return failed;
  }
  std::vector<nlohmann::ordered_json> windows;
  for (size_t k = 0; k < window_out.size(); ++k) {
    nlohmann::ordered_json j = read_json(fs::path(window_out[k]) / "stats.json", "a window's results");
    // Of a window's statistics tree the aggregate keeps the coherence counters (summed_coherence).
    nlohmann::ordered_json coherence = j["stats"].value("coherence", nlohmann::ordered_json::object());
    j["stats"] = {{"coherence", std::move(coherence)}};
    // A file replaced or swapped since the pass would time another phase under this one's name.
    const std::pair<uint64_t, uint64_t> holds{j.value("checkpoint_phase", uint64_t{0}),
                                              j.value("checkpoint_unit", uint64_t{0})};
    if (holds != held[k]) {
      std::error_code ec;
      if (!keep) fs::remove_all(out, ec);
      const auto name = [](const std::pair<uint64_t, uint64_t>& h) {
        return "phase " + std::to_string(h.first) + (h.second ? " unit " + std::to_string(h.second) : "");
      };
      report_error(msg::kInput, files[k] + ": holds " + name(holds) + ", the manifest says " + name(held[k]) +
                                    " (checkpoint files swapped or replaced since the pass: make them again)");
    }
    windows.push_back(std::move(j));
  }
  nlohmann::ordered_json result = aggregate(windows);
  result["checkpoints"] = sa.checkpoints;
  result["instructions_per_window"] = sa.instructions;
  result["warmup_per_window"] = sa.warmup;
  // The host's cost: the windows' own, and the one build they shared (a window that could not
  // take it built its own: host_workload_shared false in its stats.json).
  result["host_seconds"] = result["host_seconds"].get<double>() + build_seconds;
  result["host_build_seconds"] = build_seconds;
  size_t unshared = 0;
  for (const auto& w : windows) unshared += !w.value("host_workload_shared", false);
  result["host_workload_builds"] = 1 + unshared;
  report_target_error(result, sa.target_error);
  if (keep) {
    write_file_atomically((out / "sampled.json").string(), json_text(result) + "\n");
    folder->commit();
  } else {
    std::error_code ec;
    fs::remove_all(out, ec);
  }
  if (json) {
    std::cout << json_text(result) << '\n';
    return 0;
  }
  std::cout << std::fixed << result["workload"].get<std::string>() << " on " << result["platform"].get<std::string>()
            << ": " << windows.size() << " windows of " << sa.instructions << " instructions per thread (after "
            << sa.warmup << " of warm-up)\n\n"
            << "window  IPC     AMAT (ns)  pages moved  to pool\n";
  for (const auto& w : result["per_window"])
    std::cout << std::left << std::setw(8) << window_name(w) << std::setw(8) << std::setprecision(3)
              << w["ipc"].get<double>() << std::setw(11) << std::setprecision(1) << w["amat_ns"].get<double>()
              << std::setw(13) << w["pages_moved"].get<uint64_t>() << w["to_pool"].get<uint64_t>() << '\n';
  const auto interval = [&result](const char* key, int digits) {
    std::ostringstream text;
    if (result["confidence"].contains(key))
      text << std::fixed << std::setprecision(digits) << " (95 %: " << result["confidence"][key]["low"].get<double>()
           << "-" << result["confidence"][key]["high"].get<double>() << ")";
    return text.str();
  };
  std::cout << "\nIPC " << std::setprecision(3) << result["ipc"].get<double>() << interval("ipc", 3) << ", AMAT "
            << std::setprecision(1) << result["amat_ns"].get<double>() << " ns" << interval("amat_ns", 1) << " = "
            << result["amat_unloaded_ns"].get<double>() << " unloaded + " << result["amat_contention_ns"].get<double>()
            << " contention; " << result["migration"]["pages_moved"] << " pages moved, " << std::setprecision(0)
            << 100 * result["migration"]["to_pool_fraction"].get<double>() << " % to the pool\n";
  for (const auto& s : result["shortfalls"]) std::cout << "WARNING: " << s.get<std::string>() << '\n';
  return 0;
}

}  // namespace

Command add_checkpoint(CLI::App& app) {
  auto a = std::make_shared<CheckpointArgs>();
  FunctionalPassOptions& o = a->pass;
  o.progress = true;
  CLI::App* cmd =
      app.add_subcommand("checkpoint",
                         "Sampled evaluation, step 1: a functional pass deciding every migration phase; one checkpoint "
                         "per phase boundary (docs/sampling.md)");
  add_platform_args(*cmd, a->platform);
  cmd->add_option("--workload", o.workload, "Workload and parameters")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the workload and of the policy's random choices")
      ->check(kSeed)
      ->capture_default_str();
  cmd->add_option("--checkpoints", o.checkpoints, "Phase boundaries to checkpoint (1 to N)")
      ->check(CLI::Range(1, limits::kMaxCheckpoints))
      ->capture_default_str();
  cmd->add_option("--units-per-phase", o.units_per_phase,
                  "Sampling units: this many unit checkpoints evenly inside each phase between two boundaries "
                  "(no decision of their own); sample times them beside the boundaries (docs/sampling.md, \"Units\")")
      ->check(CLI::Range(0u, 1000u))
      ->capture_default_str();
  CLI::Option* out = cmd->add_option("--out", o.out, "Folder for manifest.json and the checkpoints (replaced whole)")
                         ->check(kNonEmpty);
  cmd->add_flag("--streams-only", o.streams_only,
                "Benchmark: only read the workload's streams in the pass's turns, writing nothing (times "
                "their production as the pass meets it; starnuma benchmark uses it)")
      ->excludes(out);
  cmd->add_flag("!--no-progress", o.progress, "No line per phase on stderr");
  cmd->add_flag("--json", a->json, "Print the manifest as JSON");
  return {cmd, [a] { return checkpoint(*a); }};
}

Command add_sample(CLI::App& app) {
  auto a = std::make_shared<SampleArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sample", "Sampled evaluation, step 2: one timing window per checkpoint (in parallel), aggregated");
  add_platform_args(*cmd, a->platform);
  cmd->add_option("--checkpoints", a->checkpoints, "Folder `starnuma checkpoint` wrote")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--instructions", a->instructions, "Measured instructions per thread and window")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  cmd->add_option("--warmup", a->warmup, "Instructions per thread warming the caches before each window")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{0}, limits::kMaxInstructions))
      ->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "Windows run at once (0: one per host core)")
      ->check(CLI::Range(0, limits::kMaxJobs))
      ->capture_default_str();
  cmd->add_option("--detailed-sockets", a->detailed_sockets, "Mixed modality, as for run")
      ->check(CLI::Range(0u, limits::kMaxDetailedSockets))
      ->capture_default_str();
  cmd->add_option("--target-error", a->target_error,
                  "The IPC's 95 % interval asked for, as a relative half-width (0.03: +-3 %); a wider one is "
                  "reported as a shortfall (docs/sampling.md, \"Intervals\")")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--out", a->out, "Folder for window-K/stats.json and sampled.json (written atomically)")
      ->check(kNonEmpty);
  cmd->add_flag("--json", a->json, "Print the aggregate as JSON");
  return {cmd, [a] { return sample(*a); }};
}

}  // namespace starnuma::cli
