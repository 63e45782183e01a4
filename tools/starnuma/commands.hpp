// The subcommands of the `starnuma` command-line tool. Each returns the process exit code;
// errors propagate as sc_reports and are mapped to exit codes by main.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sweep/sweep_executors.hpp"

namespace starnuma::cli {

struct PlatformArgs {
  std::string platform;           // path of the platform YAML file
  std::vector<std::string> sets;  // "key.path=value" overrides
};

struct BandwidthArgs {
  std::string from, to, op = "read", pattern = "sequential";
  double load = 0;  // 0: saturate
  uint64_t requests = 100000;
  unsigned outstanding = 1024;
  uint64_t seed = 1;
};

struct MemoryCurveArgs {
  std::string node = "socket0", pattern = "random";
  double write_fraction = 0;
  std::vector<double> loads{0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0};
  unsigned outstanding = 256;
  uint64_t requests = 100000;
  uint64_t seed = 1;
};

struct RunArgs {
  std::string workload = "uniform";
  uint64_t instructions = 1000000;
  uint64_t warmup = 0;
  std::string placement;  // empty: the platform's os.placement
  uint64_t seed = 1;
  double pool_fraction = -1;  // negative: the platform's os.pool_fraction
  std::string oracle_region = "4KiB";
  std::string out;
  bool progress = true;
  unsigned detailed_sockets = 0;
  std::vector<std::string> trace_in;    // instead of the workload
  std::string trace_space;              // "separate", "shared" or empty (the default, separate)
  std::optional<uint64_t> trace_phase;  // an artifact trace set's phase
  std::string initial_placement;        // the artifact's page-owner file
  bool seed_given = true, instructions_given = true;
  std::string dump_trackers;              // tracking metadata CSV
  std::string checkpoint;                 // a sampled window's checkpoint
  std::string timeline;                   // interval of the per-node timeline (empty: none)
  std::string waves;                      // waveform file (.fst or .vcd; empty: none)
  std::string waves_window;               // START:END of simulated time (either may be empty)
  std::vector<std::string> waves_filter;  // glob patterns on component paths
  std::string transactions;               // transaction trace file (.json; empty: none)
  uint64_t trace_every = 1000;            // one LLC miss in this many per socket
  std::string trace_addresses;            // LOW:HIGH physical addresses
  std::vector<std::string> trace_sockets;
  std::string trace_window;    // START:END of simulated time
  bool workload_given = true;  // else the checkpoint's
};

struct CheckpointArgs {
  std::string workload = "uniform";
  uint64_t seed = 1;
  unsigned checkpoints = 5;
  std::string out;
  bool progress = true;
  bool streams_only = false;
};

struct SampleArgs {
  std::string checkpoints;         // folder `checkpoint` wrote
  uint64_t instructions = 100000;  // per thread and window
  uint64_t warmup = 20000;
  unsigned jobs = 0;  // windows at once; 0: the host's cores
  unsigned detailed_sockets = 0;
  std::string out;
};

struct RecordArgs {
  std::string workload = "uniform";
  std::string out;
  uint64_t instructions = 1000000;
  uint64_t seed = 1;
};

struct ChampSimExportArgs {
  std::string trace, out;
  unsigned thread = 0;
  bool from_measurement = false;
};

struct SweepArgs {
  std::string spec, out;
  std::string executor = "local";
  unsigned jobs = 1;      // local: runs at once
  unsigned attempts = 3;  // a failed run is retried until it has failed this often
  bool dry_run = false, progress = true;
  SlurmOptions slurm;
};

struct ReportArgs {
  std::string dir, format = "html", out;
};

int list(bool json, bool markdown, bool workloads_only);
int profile(const std::string& workload, unsigned sockets, unsigned cores, uint64_t instructions, uint64_t seed,
            bool json);
int check(const PlatformArgs& args);
int describe(const PlatformArgs& args, bool json);
int latency(const PlatformArgs& args, bool json, bool paths);
int bandwidth(const PlatformArgs& args, const BandwidthArgs& bw, bool json);
int memory_curve(const PlatformArgs& args, const MemoryCurveArgs& curve, bool json);
int run(const PlatformArgs& args, const RunArgs& run, bool json);
// `scale` multiplies every case's instruction count (1: the documented benchmark).
int benchmark(const std::string& platforms_dir, double scale, bool json);
// Stream generation alone, per workload (`scale` multiplies the 20 M operations read from each).
int benchmark_generators(const std::vector<std::string>& workloads, double scale, bool json);
// `starnuma benchmark --host-memory`: latency of a random load on this host against the data's size
// (`scale` multiplies the 20 M loads timed per size).
int benchmark_host_memory(double scale, bool json);
std::vector<std::string> default_generator_cases();  // every workload, default parameters
int trace_record(const PlatformArgs& args, const RecordArgs& record);
int trace_info(const std::string& path, bool json);
// One thread of a starnuma trace as a ChampSim trace (experiments/champsim runs ChampSim on it).
int trace_to_champsim(const ChampSimExportArgs& args);
// The sampled evaluation: the functional pass writing checkpoints, then the timed windows.
int checkpoint(const PlatformArgs& args, const CheckpointArgs& ca, bool json);
int sample(const PlatformArgs& args, const SampleArgs& sa, bool json);
// Experiments at scale (docs/sweeps.md): a sweep file's runs on this machine or a Slurm cluster,
// their results in DIR/sweep.db; `sweep-task` is one run as the executors start it; `report`
// draws a sweep's results (tools/report/report.py).
int sweep(const SweepArgs& args);
int sweep_task(const std::string& run_dir);
int report(const ReportArgs& args);
int compare(const std::string& base, const std::string& other, const std::vector<std::string>& sets,
            const std::vector<std::string>& base_sets, const std::vector<std::string>& other_sets, const RunArgs& run,
            bool json);

}  // namespace starnuma::cli
