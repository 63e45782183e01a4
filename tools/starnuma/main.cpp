// starnuma: the command-line front end of the platform model.
// Exit codes: 0 success, 1 the user's error (bad input or usage), 2 an internal error.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <systemc>

#include "commands.hpp"
#include "common/diagnostics.hpp"
#include "common/host_memory_limit.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/units.hpp"
#include "plugin/plugin_api.hpp"
#include "plugin/plugins.hpp"
#include "option_limits.hpp"
#include "os/os_settings.hpp"

namespace {

// A seed: decimal digits only, at most 2^64 - 1 (CLI11 alone wraps "-1" and clamps larger values).
const CLI::Validator kSeed(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
      if (digits && (s.size() < 20 || s <= "18446744073709551615")) return {};
      return "'" + s + "' is not a seed: an integer from 0 to 18446744073709551615";
    },
    "SEED");
// A count may be written as 1e6 or 2.5e5 when that is a whole number (CLI11 reads integers only in
// digits, and said "out of range" for 1e3).
const CLI::Validator kCount(
    [](std::string& s) -> std::string {
      if (s.find_first_of("eE") == std::string::npos) return {};
      const starnuma::Parsed<int64_t> v = starnuma::parse_integer(s);
      if (v && *v.value >= 0) s = std::to_string(*v.value);
      return {};  // anything else: the option's own check reports it
    },
    "");

// A path or size given as "" is a mistake, not "not given".
const CLI::Validator kNonEmpty([](std::string& s) -> std::string { return s.empty() ? "an empty value" : ""; }, "");
// A count from 1, in digits (CLI11 alone wraps "-1").
const CLI::Validator kPositive(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == std::string::npos;
      return digits && std::stoll(s) > 0 ? std::string() : "'" + s + "' is not a count from 1";
    },
    "N");

// A real number that is one (CLI11's ranges let NaN through).
const CLI::Validator kFinite(
    [](std::string& s) -> std::string {
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      return end != s.c_str() && *end == '\0' && std::isfinite(v) ? std::string()
                                                                  : "'" + s + "' is not a finite number";
    },
    "");

void add_platform_args(CLI::App& cmd, starnuma::cli::PlatformArgs& args) {
  cmd.add_option("platform", args.platform, "Platform YAML file")->required()->check(CLI::ExistingFile);
  cmd.add_option("--set", args.sets, "Override a parameter: key.path=value (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
}

int run(int argc, char** argv) {
  using namespace starnuma::cli;
  CLI::App app{"starnuma: SystemC/TLM model of large NUMA servers with a CXL memory pool"};
  app.set_version_flag("--version", std::string("starnuma ") + STARNUMA_VERSION + " (plug-in API " +
                                        std::to_string(STARNUMA_PLUGIN_API_VERSION) + ")");
  app.require_subcommand(1);
  std::string max_host_memory;
  app.add_option("--max-host-memory", max_host_memory,
                 "Host memory this command may use (e.g. 8GiB; default 90 % of this host's): configurations that "
                 "need more are refused with the parameter to change, instead of exhausting the host")
      ->type_name("SIZE")
      ->check(kNonEmpty);

  bool json = false, markdown = false;
  auto* list_cmd = app.add_subcommand("list", "List every component type and generator with its parameters");
  list_cmd->add_flag("--json", json, "Machine-readable output");
  list_cmd->add_flag("--markdown", markdown, "The YAML reference as Markdown (docs/yaml-reference.md)");
  bool workloads_only = false;
  list_cmd->add_flag("--workloads", workloads_only, "Only the workloads and their parameters");
  std::vector<std::string> list_plugins;
  list_cmd->add_option("--plugin", list_plugins, "Load this plug-in (a shared library) first: its types are listed too")
      ->type_name("LIB");

  PlatformArgs check_args, describe_args;
  auto* check_cmd = app.add_subcommand("check", "Validate a platform file; exit 1 listing every error");
  add_platform_args(*check_cmd, check_args);
  auto* describe_cmd = app.add_subcommand("describe", "Print the elaborated platform: components, parameters, links");
  add_platform_args(*describe_cmd, describe_args);
  describe_cmd->add_flag("--json", json, "Machine-readable output");

  PlatformArgs latency_args, bandwidth_args;
  bool paths = false;
  auto* latency_cmd = app.add_subcommand(
      "latency", "Unloaded latency from every socket to every memory node, measured by probe transactions");
  add_platform_args(*latency_cmd, latency_args);
  latency_cmd->add_flag("--json", json, "Machine-readable output");
  latency_cmd->add_flag("--paths", paths, "Show each hop's contribution");

  BandwidthArgs bw;
  auto* bandwidth_cmd = app.add_subcommand(
      "bandwidth", "Drive traffic from a socket to a memory node; report achieved bandwidth and latency");
  add_platform_args(*bandwidth_cmd, bandwidth_args);
  bandwidth_cmd->add_option("--from", bw.from, "Requesting sockets: socket0, a list (socket0,socket5), or all")
      ->required();
  bandwidth_cmd->add_option("--to", bw.to, "Memory node, e.g. socket5 or pool")->required();
  bandwidth_cmd->add_option("--op", bw.op, "read or write")->check(CLI::IsMember({"read", "write"}));
  bandwidth_cmd
      ->add_option("--load", bw.load,
                   "Offered load as a fraction of the path capacity (Poisson); "
                   "without it the path is saturated")
      ->check(kFinite & CLI::Range(1e-6, 100.0));
  bandwidth_cmd->add_option("--pattern", bw.pattern, "sequential or random lines")
      ->check(CLI::IsMember({"sequential", "random"}));
  bandwidth_cmd->add_option("--requests", bw.requests, "Lines to move")
      ->transform(kCount)
      ->check(CLI::Range(1, 100000000));
  bandwidth_cmd->add_option("--outstanding", bw.outstanding, "Requests in flight when saturating")
      ->check(CLI::Range(1, 1000000));
  bandwidth_cmd->add_option("--seed", bw.seed, "Random seed (Poisson arrivals, random pattern)")->check(kSeed);
  bandwidth_cmd->add_flag("--json", json, "Machine-readable output");

  PlatformArgs run_args;
  RunArgs ra;
  PlatformArgs curve_args;
  MemoryCurveArgs curve;
  auto* curve_cmd = app.add_subcommand(
      "memory-curve", "Bandwidth-latency curve of one memory node's DDR5 controller, from idle to saturation");
  add_platform_args(*curve_cmd, curve_args);
  curve_cmd->add_option("--node", curve.node, "Memory node, e.g. socket0 or pool")->capture_default_str();
  curve_cmd->add_option("--pattern", curve.pattern, "random or sequential lines")
      ->check(CLI::IsMember({"random", "sequential"}))
      ->capture_default_str();
  curve_cmd->add_option("--write-fraction", curve.write_fraction, "Share of the accesses that are writes")
      ->check(kFinite & CLI::Range(0.0, 1.0))
      ->capture_default_str();
  curve_cmd->add_option("--loads", curve.loads, "Offered loads, fractions of the controller's peak (Poisson)")
      ->check(kFinite & CLI::Range(0.001, 2.0))
      ->delimiter(',')
      ->capture_default_str();
  curve_cmd->add_option("--outstanding", curve.outstanding, "Accesses in flight at the closed-loop point (0: none)")
      ->check(CLI::Range(0, 65536))
      ->capture_default_str();
  curve_cmd->add_option("--requests", curve.requests, "Accesses per point")
      ->transform(kCount)
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  curve_cmd->add_option("--seed", curve.seed, "Random seed (arrivals, addresses, reads or writes)")
      ->check(kSeed)
      ->capture_default_str();
  curve_cmd->add_flag("--json", json, "Machine-readable output");

  auto* run_cmd =
      app.add_subcommand("run", "Run a workload on a platform: IPC, AMAT (unloaded + contention), access breakdown");
  add_platform_args(*run_cmd, run_args);
  auto* compare_cmd = app.add_subcommand("compare", "Run one workload on two platforms (in parallel) and compare them");
  std::string base_platform, other_platform;
  std::vector<std::string> compare_sets, base_sets, other_sets;
  compare_cmd->add_option("base", base_platform, "Baseline platform YAML file")->required()->check(CLI::ExistingFile);
  compare_cmd->add_option("other", other_platform, "Platform to compare with it")->required()->check(CLI::ExistingFile);
  compare_cmd->add_option("--set", compare_sets, "Override a parameter of both platforms: key.path=value (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
  compare_cmd->add_option("--set-base", base_sets, "Override a parameter of the base platform only (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
  compare_cmd
      ->add_option("--set-other", other_sets,
                   "Override a parameter of the other platform only (repeatable), e.g. its tracking hardware "
                   "for dynamic placement")
      ->type_name("K=V")
      ->allow_extra_args(false);
  for (CLI::App* cmd : {run_cmd, compare_cmd}) {
    cmd->add_option("--workload", ra.workload, "Workload and parameters, e.g. uniform:footprint=64MiB")
        ->capture_default_str();
    cmd->add_option("--instructions", ra.instructions, "Instructions per hardware thread")
        ->transform(kCount)
        ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
        ->capture_default_str();
    cmd->add_option("--warmup", ra.warmup,
                    "Instructions per hardware thread run (timed) before measurement; each core's statistics "
                    "restart at the end of its own, the shared ones at the end of the last (docs/cores.md)")
        ->transform(kCount)
        ->check(CLI::Range(uint64_t{0}, limits::kMaxInstructions))
        ->capture_default_str();
    cmd->add_option("--placement", ra.placement,
                    "Page placement: first-touch, oracle or dynamic (first touch, then migration phases; "
                    "--set os.KEY=V tunes them, docs/os.md); default: the platform's os.placement (first-touch)")
        ->check(CLI::IsMember(starnuma::names_of<starnuma::Placement>()));
    cmd->add_option(
           "--pool-fraction", ra.pool_fraction,
           "Share of the workload's footprint the pool may hold; default: the platform's os.pool_fraction (0.2)")
        ->check(kFinite & CLI::Range(0.0, 1.0));
    cmd->add_option("--oracle-region", ra.oracle_region,
                    "Oracle placement: the region its profile of LLC misses counts by, a power of two from 4KiB (a "
                    "page) to 512KiB (the paper's tracking region); a region's pages move together")
        ->capture_default_str();
    cmd->add_option("--seed", ra.seed, "Seed of the workload and of random replacement")
        ->check(kSeed)
        ->capture_default_str();
    cmd->add_option("--out", ra.out,
                    cmd == run_cmd ? "Folder for stats.json (written atomically)"
                                   : "Folder for base/stats.json, other/stats.json and compare.json")
        ->check(kNonEmpty);
    cmd->add_option("--detailed-sockets", ra.detailed_sockets,
                    "Mixed modality: simulate only the first N sockets in detail; the others' cores are light: "
                    "no L1 or L2, their streams go to their LLC, timed by the core's own window (0: all "
                    "detailed; docs/cores.md)")
        ->check(CLI::Range(0u, limits::kMaxDetailedSockets))
        ->capture_default_str();
    cmd->add_flag("--json", json, "Print the summary as JSON");
    cmd->add_option("--trace-in", ra.trace_in,
                    "Run from trace files instead of --workload: one starnuma trace (its seed and instructions are "
                    "the defaults), ChampSim traces (plain or .xz) assigned to the cores in order, round-robin, or "
                    "a directory holding the StarNUMA artifact's trace set (docs/traces.md)")
        ->delimiter(',')
        ->type_name("FILE[,FILE...]|DIR")
        ->check(CLI::ExistingPath)
        ->excludes(cmd->get_option("--workload"));
    cmd->add_option("--trace-space", ra.trace_space,
                    "ChampSim traces: separate (default: one single-threaded program per core, each in its own "
                    "address space) or shared (the per-thread traces of one program: addresses kept, folded into "
                    "the platform's by the terabyte, so threads share pages)")
        ->check(CLI::IsMember(limits::kTraceSpaces))
        ->needs(cmd->get_option("--trace-in"));
    cmd->add_option("--trace-phase", ra.trace_phase,
                    "An artifact trace set: the phase to run (champsim_T_P / mtrace_tT_P files); default: the only "
                    "one it holds")
        ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40))
        ->needs(cmd->get_option("--trace-in"));
    cmd->add_option("--initial-placement", ra.initial_placement,
                    "The StarNUMA artifact's page-owner file (page_owner_pre.txt: '<4 KiB virtual page> <owner>' "
                    "lines, owner a socket or 100 for the pool): those pages placed before the run, the rest by "
                    "first touch; with first-touch or dynamic placement (docs/traces.md)")
        ->type_name("FILE")
        ->check(CLI::ExistingFile);
  }
  run_cmd->add_flag("!--no-progress", ra.progress, "No progress line on stderr");
  run_cmd
      ->add_option("--timeline", ra.timeline,
                   "Every INTERVAL of simulated time (e.g. 1us, at least the platform's quantum), each memory "
                   "node's bandwidth and pages, as a time series in stats.json (needs --out)")
      ->type_name("INTERVAL");
  run_cmd
      ->add_option("--waves", ra.waves,
                   "Record waveforms of the run into this file, FST (.fst, GTKWave's) or VCD (.vcd): link "
                   "directions, cores, DRAM channels and banks, coherence, tracking RTL (docs/debugging.md)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  run_cmd
      ->add_option("--waves-window", ra.waves_window,
                   "Only this stretch of simulated time, START:END (e.g. 20us:25us; either may be left out)")
      ->type_name("START:END");
  run_cmd
      ->add_option("--waves-filter", ra.waves_filter,
                   "Only the components whose path matches one of these patterns (e.g. 'links.cxl_*,nodes.socket0')")
      ->type_name("PATTERN[,PATTERN...]")
      ->delimiter(',');
  run_cmd
      ->add_option("--trace-transactions", ra.transactions,
                   "Record sampled LLC misses, hop by hop, into this JSON file in the Trace Event format Perfetto "
                   "and chrome://tracing open (docs/debugging.md)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  run_cmd->add_option("--trace-every", ra.trace_every, "Record one LLC miss in N of each socket's (default 1000)")
      ->check(kPositive);
  run_cmd
      ->add_option("--trace-addresses", ra.trace_addresses,
                   "Only misses to physical addresses in LOW:HIGH (hex with 0x or decimal; either may be left out)")
      ->type_name("LOW:HIGH");
  run_cmd->add_option("--trace-sockets", ra.trace_sockets, "Only the misses of these sockets")
      ->type_name("SOCKET[,SOCKET...]")
      ->delimiter(',');
  run_cmd->add_option("--trace-window", ra.trace_window, "Only misses issued in START:END of simulated time")
      ->type_name("START:END");
  run_cmd
      ->add_option("--dump-trackers", ra.dump_trackers,
                   "After the run, write the tracking metadata (region,address,sharers,sharer_count,count per "
                   "tracked region) to this CSV file, atomically; needs topology.socket.tracking.impl model or rtl")
      ->type_name("FILE")
      ->check(kNonEmpty);
  run_cmd
      ->add_option("--checkpoint", ra.checkpoint,
                   "Run one timing window of a sampled evaluation from this checkpoint (`starnuma checkpoint` "
                   "wrote it): its workload, seed, page map and migrations; --warmup, then --instructions "
                   "measured while the phase's migrations run (docs/sampling.md)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile)
      ->excludes(run_cmd->get_option("--trace-in"));

  PlatformArgs checkpoint_args, sample_args;
  CheckpointArgs ck;
  auto* checkpoint_cmd =
      app.add_subcommand("checkpoint",
                         "Sampled evaluation, step 1: a functional pass deciding every migration phase; one checkpoint "
                         "per phase boundary (docs/sampling.md)");
  add_platform_args(*checkpoint_cmd, checkpoint_args);
  checkpoint_cmd->add_option("--workload", ck.workload, "Workload and parameters")->capture_default_str();
  checkpoint_cmd->add_option("--seed", ck.seed, "Seed of the workload and of the policy's random choices")
      ->check(kSeed)
      ->capture_default_str();
  checkpoint_cmd->add_option("--checkpoints", ck.checkpoints, "Phase boundaries to checkpoint (1 to N)")
      ->check(CLI::Range(1, limits::kMaxCheckpoints))
      ->capture_default_str();
  auto* checkpoint_out =
      checkpoint_cmd->add_option("--out", ck.out, "Folder for manifest.json and the checkpoints (replaced whole)")
          ->check(kNonEmpty);
  checkpoint_cmd
      ->add_flag("--streams-only", ck.streams_only,
                 "Benchmark: only read the workload's streams in the pass's turns, writing nothing (times "
                 "their production as the pass meets it; starnuma benchmark uses it)")
      ->excludes(checkpoint_out);
  checkpoint_cmd->add_flag("!--no-progress", ck.progress, "No line per phase on stderr");
  checkpoint_cmd->add_flag("--json", json, "Print the manifest as JSON");
  SampleArgs sa;
  auto* sample_cmd = app.add_subcommand(
      "sample", "Sampled evaluation, step 2: one timing window per checkpoint (in parallel), aggregated");
  add_platform_args(*sample_cmd, sample_args);
  sample_cmd->add_option("--checkpoints", sa.checkpoints, "Folder `starnuma checkpoint` wrote")
      ->required()
      ->check(CLI::ExistingDirectory);
  sample_cmd->add_option("--instructions", sa.instructions, "Measured instructions per thread and window")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  sample_cmd->add_option("--warmup", sa.warmup, "Instructions per thread warming the caches before each window")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{0}, limits::kMaxInstructions))
      ->capture_default_str();
  sample_cmd->add_option("--jobs", sa.jobs, "Windows run at once (0: one per host core)")
      ->check(CLI::Range(0, limits::kMaxJobs))
      ->capture_default_str();
  sample_cmd->add_option("--detailed-sockets", sa.detailed_sockets, "Mixed modality, as for run")
      ->check(CLI::Range(0u, limits::kMaxDetailedSockets))
      ->capture_default_str();
  sample_cmd->add_option("--out", sa.out, "Folder for window-K/stats.json and sampled.json (written atomically)")
      ->check(kNonEmpty);
  sample_cmd->add_flag("--json", json, "Print the aggregate as JSON");

  auto* trace_cmd = app.add_subcommand("trace", "Record a workload into a trace file; show a trace file");
  trace_cmd->require_subcommand(1);
  PlatformArgs record_args;
  RecordArgs rec;
  auto* record_cmd = trace_cmd->add_subcommand(
      "record", "Record the streams `starnuma run PLATFORM --workload W --instructions N --seed S` reads");
  add_platform_args(*record_cmd, record_args);
  record_cmd->add_option("--workload", rec.workload, "Workload and parameters")->capture_default_str();
  record_cmd->add_option("--out", rec.out, "Trace file to write (atomically)")->required();
  record_cmd->add_option("--instructions", rec.instructions, "Instructions per hardware thread the run will simulate")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  record_cmd->add_option("--seed", rec.seed, "Seed of the workload")->check(kSeed)->capture_default_str();
  std::string info_file;
  auto* info_cmd =
      trace_cmd->add_subcommand("info", "Print a trace's header and per-thread counts, verifying every checksum");
  info_cmd->add_option("file", info_file, "Trace file (starnuma or ChampSim)")->required()->check(CLI::ExistingFile);
  info_cmd->add_flag("--json", json, "Machine-readable output");
  ChampSimExportArgs cx;
  auto* champsim_cmd = trace_cmd->add_subcommand(
      "champsim", "Write one thread of a starnuma trace as a ChampSim trace (its out-of-order core can then run it)");
  champsim_cmd->add_option("file", cx.trace, "starnuma trace (trace record's)")->required()->check(CLI::ExistingFile);
  champsim_cmd->add_option("--thread", cx.thread, "Thread to write")->capture_default_str();
  champsim_cmd->add_option("--out", cx.out, "ChampSim trace to write (uncompressed, atomically)")
      ->required()
      ->check(kNonEmpty);
  champsim_cmd->add_flag("--from-measurement", cx.from_measurement,
                         "Leave out the workload's initialisation (the ops before its measurement starts)");

  auto* profile_cmd = app.add_subcommand(
      "profile",
      "Sharing profile of a workload after an LLC filter (StarNUMA Fig. 2): pages and accesses by sharer count");
  std::string profile_workload = "bfs";
  unsigned profile_sockets = 16, profile_cores = 4;
  uint64_t profile_instructions = 10000000, profile_seed = 1;
  profile_cmd->add_option("--workload", profile_workload, "Workload and parameters")->capture_default_str();
  profile_cmd->add_option("--sockets", profile_sockets, "Sockets")
      ->check(CLI::Range(1, limits::kMaxProfileSockets))
      ->capture_default_str();
  profile_cmd->add_option("--cores-per-socket", profile_cores, "Cores (threads) per socket")
      ->check(CLI::Range(1, limits::kMaxProfileCores))
      ->capture_default_str();
  profile_cmd->add_option("--instructions", profile_instructions, "Instructions per thread")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  profile_cmd->add_option("--seed", profile_seed, "Seed of the workload")->check(kSeed)->capture_default_str();
  profile_cmd->add_flag("--json", json, "Machine-readable output");

  auto* benchmark_cmd = app.add_subcommand(
      "benchmark", "Host throughput: instructions/s, LLC-miss transactions/s, memory, scaling with size");
  std::string platforms_dir = "platforms";
  double scale = 1.0;
  benchmark_cmd->add_option("--platforms", platforms_dir, "Folder holding starnuma16-scaled.yaml")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  benchmark_cmd->add_option("--scale", scale, "Multiply every case's instruction count (e.g. 0.1 for a quick look)")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  benchmark_cmd->add_flag("--json", json, "Machine-readable output");
  std::vector<std::string> generators;
  benchmark_cmd
      ->add_option("--generators", generators,
                   "Instead: how fast these workloads produce their streams, alone (operations/s, 64 threads)")
      ->expected(0, -1)
      ->delimiter(' ');
  bool host_memory = false;
  benchmark_cmd->add_flag("--host-memory", host_memory,
                          "Instead: this host's latency of a random load against the data's size (what bounds the "
                          "miss-heavy case)");

  SweepArgs sw;
  sw.jobs = std::max(1u, std::thread::hardware_concurrency());
  auto* sweep_cmd = app.add_subcommand("sweep",
                                       "Run a sweep file's runs (here or on a Slurm cluster) into DIR/sweep.db, "
                                       "resuming what is not done (docs/sweeps.md)");
  sweep_cmd->add_option("spec", sw.spec, "Sweep YAML file")->required()->check(CLI::ExistingFile);
  sweep_cmd->add_option("--out", sw.out, "Sweep folder: sweep.db, runs/NAME/, platforms/")->required();
  sweep_cmd->add_option("--executor", sw.executor, "local (child processes) or slurm (an sbatch job array)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  sweep_cmd->add_option("--jobs", sw.jobs, "local: runs at once (default: the host's cores)")
      ->check(CLI::Range(1u, 4096u));
  sweep_cmd->add_option("--attempts", sw.attempts, "Attempts a run gets before a failure is final")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  sweep_cmd->add_flag("--dry-run", sw.dry_run, "Check every run and list them with their status; run nothing");
  sweep_cmd->add_flag("!--no-progress", sw.progress, "No progress display on stderr");
  sweep_cmd->add_option("--partition", sw.slurm.partition, "slurm: partition (sbatch --partition)");
  sweep_cmd->add_option("--time", sw.slurm.time, "slurm: time limit per run (sbatch --time)");
  sweep_cmd->add_option("--mem", sw.slurm.memory, "slurm: memory per run (sbatch --mem)");
  sweep_cmd->add_option("--account", sw.slurm.account, "slurm: account (sbatch --account)");
  sweep_cmd->add_option("--cpus-per-task", sw.slurm.cpus_per_task, "slurm: CPUs per run")->check(CLI::Range(1u, 1024u));
  sweep_cmd->add_option("--sbatch-option", sw.slurm.extra, "slurm: another sbatch option, passed through (repeatable)")
      ->allow_extra_args(false);
  sweep_cmd->add_option("--poll", sw.slurm.poll_seconds, "slurm: seconds between looks at the queue")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  std::string task_dir;
  auto* task_cmd = app.add_subcommand("sweep-task", "One run of a sweep, as its executor starts it (internal)");
  task_cmd->group("");  // not for users: listed nowhere
  task_cmd->add_option("run_dir", task_dir, "The run's folder")->required();
  ReportArgs rep;
  auto* report_cmd =
      app.add_subcommand("report", "Figures and tables of a sweep's results: HTML, Markdown or PNG (docs/reports.md)");
  report_cmd->add_option("dir", rep.dir, "Sweep folder")->required();
  report_cmd->add_option("--format", rep.format, "html (one self-contained page), md or png")
      ->check(CLI::IsMember({"html", "md", "png"}))
      ->capture_default_str();
  report_cmd->add_option("--out", rep.out, "Report folder (default: DIR/report)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A misspelt subcommand: CLI11 would only say that one is required.
    if (app.get_subcommands().empty()) {
      for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--max-host-memory") ++i;
        if (a.empty() || a[0] == '-') continue;
        std::string names;
        for (const CLI::App* sub : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
        std::cerr << "unknown subcommand '" << a << "'; one of: " << names << '\n';
        return 1;
      }
    }
    int code = app.exit(e);
    return code == 0 ? 0 : 1;
  }
  uint64_t host_limit = 0;
  if (!max_host_memory.empty()) {
    const starnuma::Parsed<starnuma::Size> size = starnuma::parse_size(max_host_memory);
    if (!size || size.value->bytes() < (uint64_t{64} << 20)) {
      std::cerr << "--max-host-memory " << max_host_memory << ": " << (size ? "at least 64MiB" : size.error) << '\n';
      return 1;
    }
    host_limit = size.value->bytes();
  }
  starnuma::set_host_memory_limit(host_limit);
  if (*list_cmd) {
    for (const std::string& lib : list_plugins) starnuma::load_plugin(lib);
    return list(json, markdown, workloads_only);
  }
  if (*check_cmd) return check(check_args);
  if (*describe_cmd) return describe(describe_args, json);
  if (*latency_cmd) return latency(latency_args, json, paths);
  if (*bandwidth_cmd) return bandwidth(bandwidth_args, bw, json);
  if (*curve_cmd) return memory_curve(curve_args, curve, json);
  const CLI::App* run_like = *compare_cmd ? compare_cmd : run_cmd;
  ra.seed_given = run_like->count("--seed") > 0;  // else a starnuma trace supplies them
  ra.instructions_given = run_like->count("--instructions") > 0;
  ra.workload_given = run_like->count("--workload") > 0 || ra.checkpoint.empty();
  if (*run_cmd) return run(run_args, ra, json);
  if (*checkpoint_cmd) {
    if (ck.out.empty() && !ck.streams_only) {
      std::cerr << "checkpoint: --out FOLDER is required\n";
      return 1;
    }
    return checkpoint(checkpoint_args, ck, json);
  }
  if (*sample_cmd) return sample(sample_args, sa, json);
  if (*record_cmd) return trace_record(record_args, rec);
  if (*info_cmd) return trace_info(info_file, json);
  if (*champsim_cmd) return trace_to_champsim(cx);
  if (*benchmark_cmd && benchmark_cmd->count("--generators") > 0) {
    generators.erase(std::remove(generators.begin(), generators.end(), std::string()), generators.end());
    if (generators.empty()) generators = default_generator_cases();
    return benchmark_generators(generators, scale, json);
  }
  if (*benchmark_cmd && host_memory) return benchmark_host_memory(scale, json);
  if (*benchmark_cmd) return benchmark(platforms_dir, scale, json);
  if (*profile_cmd)
    return profile(profile_workload, profile_sockets, profile_cores, profile_instructions, profile_seed, json);
  if (*sweep_cmd) return sweep(sw);
  if (*task_cmd) return sweep_task(task_dir);
  if (*report_cmd) return report(rep);
  if (*compare_cmd) return compare(base_platform, other_platform, compare_sets, base_sets, other_sets, ra, json);
  return 1;
}

}  // namespace

int sc_main(int argc, char** argv) {
  starnuma::install_report_handler();
  starnuma::install_interrupt_cleanup();
  try {
    return run(argc, argv);
  } catch (const sc_core::sc_report& r) {
    // An allocation that failed inside a SystemC process reaches us as its report.
    if (std::string(r.get_msg()).find("std::bad_alloc") != std::string::npos) {
      std::cerr << starnuma::host_memory_exhausted_message() << '\n';
      return 1;
    }
    bool user = starnuma::is_user_error(r.get_msg_type());
    const char* process = r.get_process_name();  // null when no SystemC process was running
    const std::string plugin = user || !process ? "" : starnuma::plugin_node_of_process(process);
    if (!plugin.empty()) {  // the plug-in's defect, as plugin_call reports the others
      std::cerr << "error: " << plugin << ": the plug-in's process threw: " << r.get_msg() << '\n';
      return 1;
    }
    std::cerr << (user ? "" : "internal error: ") << r.get_msg() << '\n';
    return user ? 1 : 2;
  } catch (const std::bad_alloc&) {
    std::cerr << starnuma::host_memory_exhausted_message() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << '\n';
    return 2;
  }
}

// SystemC prints its banner on stderr during start-up unless told not to through the environment,
// which it reads before main() runs: so set the variable and start again once.
int main(int argc, char** argv) {
  if (!std::getenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE")) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: then run with the banner
  }
  return sc_core::sc_elab_and_sim(argc, argv);
}
