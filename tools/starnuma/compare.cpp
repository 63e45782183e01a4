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

#include "run_options.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {

namespace {

pid_t spawn_run(const std::string& platform, const std::vector<std::string>& sets, const RunRequest& r,
                const std::string& out) {
  std::vector<std::string> args{"starnuma", "run", platform, "--out", out, "--no-progress", "--json"};
  const std::vector<std::string> defining = run_defining_arguments(r);
  args.insert(args.end(), defining.begin(), defining.end());
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  return spawn_self(std::move(args));
}

nlohmann::ordered_json summary_of(const std::string& stats) {
  std::ifstream in(stats);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
  j.erase("stats");
  return j;
}

struct CompareArgs {
  std::string base, other;
  std::vector<std::string> sets, base_sets, other_sets;
  RunRequest request;
};

int compare(const CompareArgs& c) {
  namespace fs = std::filesystem;
  const RunRequest& r = c.request;
  const RunOptions& ro = r.options;
  const std::string &base = c.base, &other = c.other;
  const bool keep = !r.out.empty();
  // Kept outputs are all or nothing: built beside --out, renamed over it at the end.
  std::optional<OutputFolder> folder;
  if (keep) folder.emplace(r.out, "compare.json");
  const fs::path dir =
      keep ? fs::path(folder->file("")) : fs::temp_directory_path() / ("starnuma-compare-" + std::to_string(getpid()));
  const std::string base_out = (dir / "base").string(), other_out = (dir / "other").string();
  // Overrides of one platform come after the shared ones (the later wins).
  std::vector<std::string> for_base = c.sets, for_other = c.sets;
  for_base.insert(for_base.end(), c.base_sets.begin(), c.base_sets.end());
  for_other.insert(for_other.end(), c.other_sets.begin(), c.other_sets.end());
  const pid_t a = spawn_run(base, for_base, r, base_out);
  const pid_t b = spawn_run(other, for_other, r, other_out);
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
  if (r.json) {
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
            << (ro.trace_in.empty() || ro.instructions_given ? std::to_string(ro.instructions)
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

}  // namespace

Command add_compare(CLI::App& app) {
  auto a = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand("compare", "Run one workload on two platforms (in parallel) and compare them");
  cmd->add_option("base", a->base, "Baseline platform YAML file")->required()->check(CLI::ExistingFile);
  cmd->add_option("other", a->other, "Platform to compare with it")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", a->sets, "Override a parameter of both platforms: key.path=value (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
  cmd->add_option("--set-base", a->base_sets, "Override a parameter of the base platform only (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
  cmd->add_option("--set-other", a->other_sets,
                  "Override a parameter of the other platform only (repeatable), e.g. its tracking hardware "
                  "for dynamic placement")
      ->type_name("K=V")
      ->allow_extra_args(false);
  add_run_options(*cmd, a->request, "Folder for base/stats.json, other/stats.json and compare.json");
  return {cmd, [a, cmd] {
            finish_run_options(*cmd, a->request);
            return compare(*a);
          }};
}

}  // namespace starnuma::cli
