// `starnuma compare`: one workload on two platforms, each in its own `starnuma run` process (SystemC
// elaborates once per process), both at once. Same workload, seed and placement: identical streams.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {

namespace {

pid_t spawn_run(const std::string& platform, const std::vector<std::string>& sets, const RunArgs& ra,
                const std::string& out) {
  std::vector<std::string> args{"starnuma",
                                "run",
                                platform,
                                "--oracle-region",
                                ra.oracle_region,
                                "--warmup",
                                std::to_string(ra.warmup),
                                "--out",
                                out,
                                "--no-progress",
                                "--json",
                                "--detailed-sockets",
                                std::to_string(ra.detailed_sockets)};
  if (!ra.placement.empty()) args.insert(args.end(), {"--placement", ra.placement});
  if (ra.pool_fraction >= 0) args.insert(args.end(), {"--pool-fraction", std::to_string(ra.pool_fraction)});
  if (!ra.initial_placement.empty()) args.insert(args.end(), {"--initial-placement", ra.initial_placement});
  const bool traced = !ra.trace_in.empty();
  if (traced) {
    std::string files;
    for (const auto& f : ra.trace_in) files += (files.empty() ? "" : ",") + f;
    args.insert(args.end(), {"--trace-in", files});
    if (!ra.trace_space.empty()) args.insert(args.end(), {"--trace-space", ra.trace_space});
    if (ra.trace_phase) args.insert(args.end(), {"--trace-phase", std::to_string(*ra.trace_phase)});
  } else {
    args.insert(args.end(), {"--workload", ra.workload});
  }
  // A starnuma trace supplies its recorded seed and budget unless they are given.
  if (!traced || ra.instructions_given) args.insert(args.end(), {"--instructions", std::to_string(ra.instructions)});
  if (!traced || ra.seed_given) args.insert(args.end(), {"--seed", std::to_string(ra.seed)});
  for (const auto& s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  return spawn_self(std::move(args));
}

nlohmann::ordered_json summary_of(const std::string& stats) {
  std::ifstream in(stats);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
  j.erase("stats");
  return j;
}

}  // namespace

int compare(const std::string& base, const std::string& other, const std::vector<std::string>& sets,
            const std::vector<std::string>& base_sets, const std::vector<std::string>& other_sets, const RunArgs& ra,
            bool json) {
  namespace fs = std::filesystem;
  const bool keep = !ra.out.empty();
  // Kept outputs are all or nothing: built beside --out, renamed over it at the end.
  std::optional<OutputFolder> folder;
  if (keep) folder.emplace(ra.out, "compare.json");
  const fs::path dir =
      keep ? fs::path(folder->file("")) : fs::temp_directory_path() / ("starnuma-compare-" + std::to_string(getpid()));
  const std::string base_out = (dir / "base").string(), other_out = (dir / "other").string();
  // Overrides of one platform come after the shared ones (the later wins).
  std::vector<std::string> for_base = sets, for_other = sets;
  for_base.insert(for_base.end(), base_sets.begin(), base_sets.end());
  for_other.insert(for_other.end(), other_sets.begin(), other_sets.end());
  const pid_t a = spawn_run(base, for_base, ra, base_out);
  const pid_t b = spawn_run(other, for_other, ra, other_out);
  const int ra_code = wait_for(a), rb_code = wait_for(b);
  if (ra_code || rb_code) {
    if (!keep) fs::remove_all(dir);
    return std::max(ra_code, rb_code);  // the failing run printed why (a kept folder is dropped whole)
  }
  nlohmann::ordered_json j;
  j["base"] = summary_of(base_out + "/stats.json");
  j["other"] = summary_of(other_out + "/stats.json");
  const double speedup = j["other"]["ipc"].get<double>() / j["base"]["ipc"].get<double>();
  const double reduction = 1.0 - j["other"]["amat_ns"].get<double>() / j["base"]["amat_ns"].get<double>();
  nlohmann::ordered_json result;
  result["speedup"] = speedup;
  result["amat_reduction"] = reduction;
  result["base"] = j["base"];
  result["other"] = j["other"];
  if (keep) {
    write_file_atomically((dir / "compare.json").string(), json_text(result) + "\n");
    folder->commit();
  } else {
    fs::remove_all(dir);
  }
  if (json) {
    std::cout << json_text(result) << '\n';
    return 0;
  }
  const auto& B = result["base"];
  const auto& O = result["other"];
  auto row = [](const char* what, const std::string& x, const std::string& y) {
    std::cout << "  " << std::left << std::setw(24) << what << std::setw(44) << x << y << '\n';
  };
  auto num = [](double v, int precision, const char* unit = "") {
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << v << unit;
    return os.str();
  };
  auto amat = [&](const nlohmann::ordered_json& r) {
    return num(r["amat_ns"].get<double>(), 1, " ns") + " (" + num(r["amat_unloaded_ns"].get<double>(), 0) + " + " +
           num(r["amat_contention_ns"].get<double>(), 0) + ")";
  };
  // The breakdown's memory classes, or (transfers) its block-transfer classes (coherence on).
  auto mix = [&](const nlohmann::ordered_json& r, bool transfers) {
    std::string s;
    for (const auto& [k, v] : r["access_breakdown"].items())
      if ((k.rfind("bt-", 0) == 0) == transfers) s += k + " " + num(100 * v.get<double>(), 0) + "% ";
    return s;
  };
  std::cout << B["workload"].get<std::string>() << ", "
            << (ra.trace_in.empty() || ra.instructions_given ? std::to_string(ra.instructions)
                                                             : std::string("the trace's"))
            << " instructions per thread, " << B["placement"].get<std::string>() << " placement\n\n";
  row("", fs::path(base).stem().string(), fs::path(other).stem().string());
  row("IPC per core", num(B["ipc"].get<double>(), 3), num(O["ipc"].get<double>(), 3));
  row("AMAT (unloaded + cont.)", amat(B), amat(O));
  row("accesses", mix(B, false), mix(O, false));
  if (B["access_breakdown"].contains("bt-socket") || O["access_breakdown"].contains("bt-socket"))
    row("block transfers", mix(B, true), mix(O, true));
  // Dynamic placement: whose knowledge moved what, and how much of it to the pool.
  auto moved = [&](const nlohmann::ordered_json& r) -> std::string {
    if (!r.contains("migration")) return "";
    const auto& m = r["migration"];
    const uint64_t pages = m.value("pages_moved", uint64_t{0});
    if (!m.contains("to_pool") || !pages) return std::to_string(pages);
    return std::to_string(pages) + " (" + num(100.0 * m["to_pool"].get<double>() / static_cast<double>(pages), 0) +
           " % to the pool)";
  };
  auto knowledge = [](const nlohmann::ordered_json& r) {
    return r.contains("migration") ? r["migration"].value("policy", std::string()) : std::string();
  };
  if (B.contains("migration") || O.contains("migration")) {
    row("migration", knowledge(B), knowledge(O));
    row("pages moved", moved(B), moved(O));
  }
  std::cout << "\nspeedup " << num(speedup, 2, "x") << ", AMAT reduction " << num(100 * reduction, 1, " %") << '\n';
  for (const auto* r : {&B, &O})
    for (const auto& s : r->value("shortfalls", nlohmann::ordered_json::array()))
      std::cout << "WARNING: " << fs::path((*r)["platform"].get<std::string>()).stem().string() << ": "
                << s.get<std::string>() << '\n';
  return 0;
}

}  // namespace starnuma::cli
