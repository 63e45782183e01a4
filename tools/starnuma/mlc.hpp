// `starnuma mlc`'s measurement (mlc.cpp), which `starnuma calibrate` repeats (calibrate.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "platform/mlc_report.hpp"

namespace starnuma::cli {

struct MlcArgs {
  PlatformArgs platform;
  std::string from = "socket0", to, pattern = "random";
  std::vector<double> loads{0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
  std::vector<double> loaded_mb_per_s;  // if any: the loaded points at these offered bandwidths instead
  uint64_t requests = 50000;
  unsigned jobs = 0;
  bool bandwidth_matrix = false, json = false;
  std::string plot;                  // a PNG of the measurements (tools/report/plot_mlc.py)
  std::vector<std::string> against;  // real machines' MLC output drawn beside them
};

struct MlcMeasurement {
  MlcReport report;               // MLC's sections
  nlohmann::ordered_json json;    // the same, with each loaded point's percentiles and each mix's bottleneck
  double read_capacity_gbps = 0;  // the all-reads path's capacity
};

// A machine's MLC output file, read; `option` names where it was given in errors.
MlcReport read_mlc_file(const std::string& option, const std::string& path);

// The options both commands take: the platform, --from, --to, --pattern, --requests, --jobs.
void add_traffic_options(CLI::App& cmd, MlcArgs& a);

// Every point a child simulation, `jobs` at once; a child's failure is a starnuma/usage error with
// its words.
MlcMeasurement measure_mlc(const MlcArgs& a);

}  // namespace starnuma::cli
