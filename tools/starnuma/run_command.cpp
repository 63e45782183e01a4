// `starnuma run`, and the options it shares with `compare`.
#include <filesystem>
#include <iostream>
#include <map>

#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "common/units.hpp"
#include "option_limits.hpp"
#include "os/os_settings.hpp"
#include "platform/platform.hpp"
#include "run_options.hpp"

namespace starnuma::cli {

void add_run_options(CLI::App& cmd, RunRequest& r, const std::string& out_help) {
  RunOptions& o = r.options;
  const auto defining = [&r](CLI::Option* opt) {
    r.run_defining.push_back(opt);
    return opt;
  };
  defining(cmd.add_option("--workload", o.workload, "Workload and parameters, e.g. uniform:footprint=64MiB"))
      ->capture_default_str();
  defining(cmd.add_option("--instructions", o.instructions, "Instructions per hardware thread"))
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  defining(cmd.add_option("--warmup", o.warmup,
                          "Instructions per hardware thread run (timed) before measurement; each core's statistics "
                          "restart at the end of its own, the shared ones at the end of the last (docs/cores.md)"))
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{0}, limits::kMaxInstructions))
      ->capture_default_str();
  defining(cmd.add_option_function<std::string>(
               "--placement", [&o](const std::string& name) { o.placement = enum_named<Placement>(name); },
               "Page placement: first-touch, oracle or dynamic (first touch, then migration phases; "
               "--set os.KEY=V tunes them, docs/os.md); default: the platform's os.placement (first-touch)"))
      ->check(CLI::IsMember(names_of<Placement>()));
  defining(cmd.add_option_function<double>(
               "--pool-fraction", [&o](const double& f) { o.pool_fraction = f; },
               "Share of the workload's footprint the pool may hold; default: the platform's os.pool_fraction (0.2)"))
      ->check(kFinite & CLI::Range(0.0, 1.0));
  defining(cmd.add_option_function<std::string>(
               "--oracle-region",
               [&o](const std::string& text) {
                 const Parsed<Size> region = parse_size(text);
                 if (!region) report_error(msg::kUsage, "--oracle-region " + text + ": " + region.error);
                 o.oracle_region = region.value->bytes();
               },
               "Oracle placement: the region its profile of LLC misses counts by, a power of two from 4KiB (a "
               "page) to 512KiB (the paper's tracking region); a region's pages move together"))
      ->default_str("4KiB");
  defining(cmd.add_option("--seed", o.seed, "Seed of the workload and of random replacement"))
      ->check(kSeed)
      ->capture_default_str();
  cmd.add_option("--out", r.out, out_help)->check(kNonEmpty);
  defining(cmd.add_option("--detailed-sockets", o.detailed_sockets,
                          "Mixed modality: simulate only the first N sockets in detail; the others' cores are light: "
                          "no L1 or L2, their streams go to their LLC, timed by the core's own window (0: all "
                          "detailed; docs/cores.md)"))
      ->check(CLI::Range(0u, limits::kMaxDetailedSockets))
      ->capture_default_str();
  cmd.add_flag("--json", r.json, "Print the summary as JSON");
  CLI::Option* trace_in =
      defining(cmd.add_option("--trace-in", o.trace_in,
                              "Run from trace files instead of --workload: one starnuma trace (its seed and "
                              "instructions are the defaults), ChampSim traces (plain or .xz) assigned to the cores "
                              "in order, round-robin, or a directory holding the StarNUMA artifact's trace set "
                              "(docs/traces.md)"))
          ->delimiter(',')
          ->type_name("FILE[,FILE...]|DIR")
          ->check(CLI::ExistingPath)
          ->excludes(cmd.get_option("--workload"));
  defining(cmd.add_option_function<std::string>(
               "--trace-space",
               [&o](const std::string& space) {
                 o.trace_space = space == "shared" ? trace::TraceSpace::Shared : trace::TraceSpace::Separate;
               },
               "ChampSim traces: separate (default: one single-threaded program per core, each in its own "
               "address space) or shared (the per-thread traces of one program: addresses kept, folded into "
               "the platform's by the terabyte, so threads share pages)"))
      ->check(CLI::IsMember(limits::kTraceSpaces))
      ->needs(trace_in);
  defining(cmd.add_option_function<uint64_t>(
               "--trace-phase", [&o](const uint64_t& phase) { o.trace_phase = phase; },
               "An artifact trace set: the phase to run (champsim_T_P / mtrace_tT_P files); default: the only "
               "one it holds"))
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40))
      ->needs(trace_in);
  defining(cmd.add_option("--initial-placement", o.initial_placement,
                          "The StarNUMA artifact's page-owner file (page_owner_pre.txt: '<4 KiB virtual page> "
                          "<owner>' lines, owner a socket or 100 for the pool): those pages placed before the run, "
                          "the rest by first touch; with first-touch or dynamic placement (docs/traces.md)"))
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
}

void add_run_outputs(CLI::App& cmd, RunRequest& r) {
  RunOptions& o = r.options;
  o.progress = true;
  cmd.add_flag("!--no-progress", o.progress, "No progress line on stderr");
  cmd.add_option("--timeline", r.timeline,
                 "Every INTERVAL of simulated time (e.g. 1us, at least the platform's quantum), each memory "
                 "node's bandwidth and pages, as a time series in stats.json (needs --out)")
      ->type_name("INTERVAL");
  cmd.add_option("--waves", r.waves,
                 "Record waveforms of the run into this file, FST (.fst, GTKWave's) or VCD (.vcd): link "
                 "directions, cores, DRAM channels and banks, coherence, tracking RTL (docs/debugging.md)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd.add_option("--waves-window", r.waves_window,
                 "Only this stretch of simulated time, START:END (e.g. 20us:25us; either may be left out)")
      ->type_name("START:END");
  cmd.add_option("--waves-filter", r.waves_filter,
                 "Only the components whose path matches one of these patterns (e.g. 'links.cxl_*,nodes.socket0')")
      ->type_name("PATTERN[,PATTERN...]")
      ->delimiter(',');
  cmd.add_option("--trace-transactions", r.transactions,
                 "Record sampled LLC misses, hop by hop, into this JSON file in the Trace Event format Perfetto "
                 "and chrome://tracing open (docs/debugging.md)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd.add_option("--trace-every", r.trace_every, "Record one LLC miss in N of each socket's (default 1000)")
      ->check(kPositive);
  cmd.add_option("--trace-addresses", r.trace_addresses,
                 "Only misses to physical addresses in LOW:HIGH (hex with 0x or decimal; either may be left out)")
      ->type_name("LOW:HIGH");
  cmd.add_option("--trace-sockets", r.trace_sockets, "Only the misses of these sockets")
      ->type_name("SOCKET[,SOCKET...]")
      ->delimiter(',');
  cmd.add_option("--trace-window", r.trace_window, "Only misses issued in START:END of simulated time")
      ->type_name("START:END");
  cmd.add_option("--dump-trackers", o.dump_trackers,
                 "After the run, write the tracking metadata (region,address,sharers,sharer_count,count per "
                 "tracked region) to this CSV file, atomically; needs topology.socket.tracking.impl model or rtl")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd.add_option("--moves", o.moves,
                 "After the run, write every page the migration phases decided to move (phase, page, from, to, "
                 "kind, moved/skipped/dropped, when) to this CSV file, atomically; needs --placement dynamic with "
                 "a phase policy (docs/os.md, \"The moves, page by page\")")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd.add_option("--moves-from", o.moves_from,
                 "Each migration phase moves the pages this list (a --moves file, or checkpoint --moves's "
                 "moves.csv) gives for it, in its order, instead of those its policy decides (which still decides, "
                 "and costs the OS core its scan): a continuous run of another run's placement (docs/os.md, "
                 "\"The moves, page by page\")")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  cmd.add_option("--checkpoint", o.checkpoint,
                 "Run one timing window of a sampled evaluation from this checkpoint (`starnuma checkpoint` "
                 "wrote it): its workload, seed, page map and migrations; --warmup, then --instructions "
                 "measured while the phase's migrations run (docs/sampling.md); with --trace-in (a starnuma "
                 "trace of its workload) the streams are read from the recording, which the window seeks in")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  // A window from a checkpoint is a sampling unit: by default measured over a common span, its TLBs,
  // LLCs and directories warm from the checkpoint (the units' method, which holds a continuous run's
  // answer where cold per-thread windows do not; docs/sampling.md, "The defaults").
  cmd.add_flag("--common-span,!--per-thread-budgets", o.common_span,
               "Measure over a common span of time: the warm-up ends when the threads together have retired "
               "--warmup x threads, the run when they have retired --instructions x threads more (each thread's "
               "IPC over the same span), instead of each thread at its own counts (--per-thread-budgets); the "
               "default with --checkpoint, as sample's windows (docs/sampling.md)");
  cmd.add_flag("--warm-tlbs,!--no-warm-tlbs", o.warm_tlbs,
               "A sampled window (--checkpoint) starts with the TLBs and their counter annexes its checkpoint "
               "carries (functional warming), not empty; the default with --checkpoint (docs/sampling.md)");
  cmd.add_flag("--warm-llcs,!--no-warm-llcs", o.warm_llcs,
               "A sampled window (--checkpoint) starts with the LLCs and coherence directories its checkpoint "
               "carries (checkpoint --warm-llcs), not empty; the default with --checkpoint when it carries them "
               "(docs/sampling.md)");
  cmd.add_option("--copies-done", o.copies_done,
                 "A unit checkpoint's window: how many of its boundary's copies had started by the unit; the "
                 "others are copied in the window, as still in flight (default: all made; sample sets it from "
                 "the boundary's window, docs/sampling.md)")
      ->type_name("N")
      ->needs(cmd.get_option("--checkpoint"));
  cmd.add_option("--time-copies-to", o.time_copies_to,
                 "A boundary checkpoint's window over a common span: measure on past --instructions until the OS "
                 "has started every copy of its phase, to M instructions per thread at most, so that its units "
                 "read when each copy started (sample sets it; docs/sampling.md)")
      ->type_name("M")
      ->needs(cmd.get_option("--checkpoint"));
  cmd.add_option("--next-boundary", o.next_boundary,
                 "A unit checkpoint's window whose stretch crosses the next phase boundary: that boundary's "
                 "checkpoint (checkpoint-K.ckpt of the same pass), whose phase starts in the window (scan, reset, "
                 "moves) as in a continuous run (sample sets it; docs/sampling.md)")
      ->type_name("FILE")
      ->needs(cmd.get_option("--checkpoint"));
  cmd.add_option("--next-boundary-after", o.next_boundary_after,
                 "With --next-boundary: the instructions of the phases' clock (the mean thread's) from the "
                 "window's start to that boundary, as the functional pass crossed it")
      ->type_name("N");
}

void finish_run_options(const CLI::App& cmd, RunRequest& r) {
  RunOptions& o = r.options;
  o.seed_given = cmd.count("--seed") > 0;  // else a starnuma trace supplies them
  o.instructions_given = cmd.count("--instructions") > 0;
  o.workload_given = cmd.count("--workload") > 0 || o.checkpoint.empty();
  if (!o.checkpoint.empty()) {  // a unit's defaults, for whatever was not given either way
    if (cmd.count("--common-span") == 0) o.common_span = true;
    if (cmd.count("--warm-tlbs") == 0) o.warm_tlbs = true;
    if (cmd.count("--warm-llcs") == 0) o.warm_llcs_if_carried = true;
  } else if (cmd.get_option_no_throw("--warm-tlbs")) {  // run's (compare has no windows)
    if (cmd.count("--warm-tlbs") && !o.warm_tlbs) report_error(msg::kUsage, "--no-warm-tlbs needs --checkpoint");
    if (cmd.count("--warm-llcs") && !o.warm_llcs) report_error(msg::kUsage, "--no-warm-llcs needs --checkpoint");
  }
  if (!r.timeline.empty()) {
    const Parsed<Time> interval = parse_time(r.timeline);
    if (!interval || interval.value->ps() <= 0)
      report_error(msg::kUsage,
                   "--timeline " + r.timeline + ": " + (interval ? "give a positive time" : interval.error));
    if (r.out.empty()) report_error(msg::kUsage, "--timeline: the timeline goes into stats.json; give --out");
    o.timeline = sc_core::sc_time(static_cast<double>(interval.value->ps()), sc_core::SC_PS);
  }
  if (!r.waves.empty()) o.waves = wave_options(r.waves, r.waves_window, r.waves_filter);
  else if (!r.waves_window.empty() || !r.waves_filter.empty())
    report_error(msg::kUsage, "--waves-window and --waves-filter shape the waves of --waves FILE; give it");
  if (!r.transactions.empty())
    o.transactions =
        transaction_options(r.transactions, r.trace_every, r.trace_addresses, r.trace_sockets, r.trace_window);
  else if (r.trace_every != 1000 || !r.trace_addresses.empty() || !r.trace_sockets.empty() || !r.trace_window.empty())
    report_error(msg::kUsage,
                 "--trace-every, --trace-addresses, --trace-sockets and --trace-window shape the trace "
                 "of --trace-transactions FILE; give it");
}

std::vector<std::string> run_defining_arguments(const RunRequest& r) {
  std::vector<std::string> args;
  for (const CLI::Option* opt : r.run_defining) {
    if (opt->count() == 0) continue;
    std::string values;
    for (const std::string& v : opt->results()) values += (values.empty() ? "" : ",") + v;
    args.insert(args.end(), {opt->get_name(), values});
  }
  return args;
}

namespace {

// Each output its own file: two options naming one path would lose one of them.
void check_outputs_differ(const RunRequest& r) {
  std::map<std::string, std::string> outputs;
  const auto claim = [&outputs](const std::string& option, const std::string& path) {
    if (path.empty()) return;
    const std::string key = std::filesystem::weakly_canonical(path).string();
    if (auto [it, fresh] = outputs.emplace(key, option); !fresh)
      report_error(msg::kUsage, option + " " + path + ": " + it->second + " writes that file too; give each its own");
  };
  if (!r.out.empty()) claim("--out", r.out + "/stats.json");
  claim("--waves", r.waves);
  claim("--trace-transactions", r.transactions);
  claim("--dump-trackers", r.options.dump_trackers);
  claim("--moves", r.options.moves);
}

int run(const PlatformArgs& args, const RunRequest& r) {
  auto platform = Platform::build(args.platform, args.sets);
  check_outputs_differ(r);
  // Output paths are checked before the run: a wrong one must not cost a simulation.
  if (!r.out.empty()) check_output_path(r.out + "/stats.json");
  if (!r.options.dump_trackers.empty()) check_output_path(r.options.dump_trackers);
  if (!r.options.moves.empty()) check_output_path(r.options.moves);
  RunResult result = run_workload(*platform, r.options);
  if (!r.out.empty()) write_file_atomically(r.out + "/stats.json", json_text(result.to_json()) + "\n");
  if (r.json) std::cout << json_text(result.summary_json()) << '\n';
  else std::cout << format_summary(result);
  return 0;
}

}  // namespace

Command add_run(CLI::App& app) {
  struct Args {
    PlatformArgs platform;
    RunRequest request;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run a workload on a platform: IPC, AMAT (unloaded + contention), access breakdown");
  add_platform_args(*cmd, a->platform);
  add_run_options(*cmd, a->request, "Folder for stats.json (written atomically)");
  add_run_outputs(*cmd, a->request);
  return {cmd, [a, cmd] {
            finish_run_options(*cmd, a->request);
            return run(a->platform, a->request);
          }};
}

}  // namespace starnuma::cli
