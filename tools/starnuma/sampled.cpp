// The sampled evaluation of the StarNUMA paper (Fig. 6), its commands: `starnuma checkpoint` (step
// B, the functional pass that decides every phase's migrations and writes checkpoints) and
// `starnuma sample` (step C, one timing window per checkpoint: sampler.hpp).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "option_limits.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "sampler.hpp"

namespace starnuma::cli {

namespace {

// checkpoint's defaults are the units' method (docs/sampling.md, "The defaults"): units over the
// work, a tenth of a phase apart, the LLCs warm, and a timed start long enough to decide the first
// touches' races (the races are decided in the first tens of microseconds; 20 K and 100 K give
// the same units).
constexpr uint64_t kDefaultTimedStart = 50000;
constexpr uint64_t kDefaultUnitsPerPhase = 10;
struct CheckpointArgs {
  PlatformArgs platform;
  FunctionalPassOptions pass;
  bool boundaries_only = false;  // no units: the paper's method as published (biased; docs/sampling.md)
  bool unit_jitter = true;       // units over the work at random points of their stretches
  bool unit_jitter_given = false;
  std::string pace = "turns";  // --pace: turns or time
  bool json = false;
};
int checkpoint(const CheckpointArgs& ca) {
  if (ca.pass.out.empty() && !ca.pass.streams_only) report_error(msg::kUsage, "checkpoint: --out FOLDER is required");
  auto platform = Platform::build(ca.platform.platform, ca.platform.sets);
  FunctionalPassOptions o = ca.pass;
  if (!ca.boundaries_only && !o.units_per_phase && !o.unit_every && !o.streams_only)
    o.unit_every = std::max<uint64_t>(1, platform->os().phase_instructions() / kDefaultUnitsPerPhase);
  // Random points are the default for units over the work; --unit-offset and --unit-lead place
  // units on a grid (the warm-up study's placements), so they keep it unless asked otherwise.
  if (ca.unit_jitter_given && ca.unit_jitter && !o.unit_every)
    report_error(msg::kUsage, "--unit-jitter: it places units over the work (--unit-every), and this pass has none");
  o.unit_jitter =
      ca.unit_jitter_given ? ca.unit_jitter : o.unit_every && !o.unit_offset && !o.unit_lead && !o.streams_only;
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
  if (const uint64_t past = r.manifest.value("units_past_the_workloads_end", uint64_t{0}))
    std::cout << past << " unit" << (past == 1 ? "" : "s") << " dropped: the workload ended before "
              << (past == 1 ? "its" : "their") << " measurement would start\n";
  return 0;
}
}  // namespace

Command add_checkpoint(CLI::App& app) {
  auto a = std::make_shared<CheckpointArgs>();
  FunctionalPassOptions& o = a->pass;
  o.progress = true;
  o.warm_llcs = true;
  o.timed_start = kDefaultTimedStart;
  CLI::App* cmd =
      app.add_subcommand("checkpoint",
                         "Sampled evaluation, step 1: a functional pass deciding every migration phase; one checkpoint "
                         "per phase boundary (docs/sampling.md)");
  add_platform_args(*cmd, a->platform);
  CLI::Option* workload = cmd->add_option("--workload", o.workload, "Workload and parameters")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the workload and of the policy's random choices")
      ->check(kSeed)
      ->capture_default_str();
  cmd->add_option("--trace-in", o.trace_in,
                  "Read the streams from a recorded trace (starnuma trace record; its workload and seed) instead of "
                  "generating them: faster, and sample's windows then seek in it (docs/sampling.md, \"Recorded "
                  "streams\")")
      ->check(CLI::ExistingFile)
      ->excludes(workload);
  cmd->add_option("--checkpoints", o.checkpoints, "Phase boundaries to checkpoint (1 to N)")
      ->check(CLI::Range(1, limits::kMaxCheckpoints))
      ->capture_default_str();
  CLI::Option* per_phase =
      cmd->add_option("--units-per-phase", o.units_per_phase,
                      "Sampling units placed by the phases' clock instead: this many unit checkpoints evenly inside "
                      "the phase after each boundary, the last included (no decision of their own); sample times "
                      "them beside the boundaries (docs/sampling.md, \"Units\")")
          ->check(CLI::Range(1u, 1000u));
  CLI::Option* every =
      cmd->add_option("--unit-every", o.unit_every,
                      "Sampling units evenly over the work: one whenever the mean thread has retired another N "
                      "instructions, from the first boundary to the end of the last one's phase; sample leaves the "
                      "boundaries' windows, which time the copies, out of its estimate (docs/sampling.md, \"Units "
                      "over the work\"); default: a tenth of os.phase_instructions")
          ->transform(kCount)
          ->check(CLI::Range(uint64_t{1000}, limits::kMaxInstructions));
  cmd->add_option("--unit-offset", o.unit_offset,
                  "With --unit-every N: the units at the multiples of N plus this many instructions (below N), a "
                  "systematic sample's start; a study of the windows' warm-up W takes N - W, so that every "
                  "warm-up measures the same stretches (docs/sampling.md, \"The windows' warm-up\")")
      ->transform(kCount)
      ->needs(every);
  cmd->add_option("--unit-lead", o.unit_lead,
                  "With --unit-every N: the windows' warm-up W; each unit's checkpoint W before a multiple of N, "
                  "where its window starts measuring, and only units measuring N instructions before the last "
                  "phase's end (SMARTS's placement: sample --warmup W then measures exactly the multiples' "
                  "stretches; docs/sampling.md, \"Units over the work\")")
      ->transform(kCount)
      ->needs(every)
      ->excludes("--unit-offset");
  cmd->add_flag("--unit-jitter,!--no-unit-jitter", a->unit_jitter,
                "Units over the work each at a random point of its stretch (drawn from the seed), the default: "
                "every instruction equally likely to be measured, a phase's start as often as its share, and "
                "sample weighs every unit alike; --no-unit-jitter: at the stretches' starts, a grid whose phase "
                "starts sample weighs as a stratum (the default with --unit-offset or --unit-lead; "
                "docs/sampling.md, \"Units at random points of their stretches\")");
  cmd->add_flag("--boundaries-only", a->boundaries_only,
                "No units: only the phase boundaries' checkpoints, the paper's method as published, whose windows "
                "over-weight each phase's start (docs/sampling.md, \"The defaults\")")
      ->excludes(per_phase)
      ->excludes(every);
  CLI::Option* out = cmd->add_option("--out", o.out, "Folder for manifest.json and the checkpoints (replaced whole)")
                         ->check(kNonEmpty);
  cmd->add_flag("--moves", o.moves,
                "Also write moves.csv into the folder: every page the boundaries decided to move (phase, page, "
                "from, to, kind, moved or skipped), as run --moves lists a continuous run's (docs/os.md, \"The "
                "moves, page by page\")")
      ->needs(out);
  cmd->add_flag("--streams-only", o.streams_only,
                "Benchmark: only read the workload's streams in the pass's turns, writing nothing (times "
                "their production as the pass meets it; starnuma benchmark uses it)")
      ->excludes(out);
  cmd->add_flag("--warm-llcs,!--no-warm-llcs", o.warm_llcs,
                "Functional warming of the LLCs (the default): keep them coherent as the platform's protocol does "
                "and record them, with the pool's coherence directory, in every checkpoint, for sample's windows "
                "(larger checkpoints, a slower pass; docs/sampling.md)");
  cmd->add_flag("--warm-l2s,!--no-warm-l2s", o.warm_l2s,
                "With --warm-llcs: also keep each core's L2 in front of its LLC and record it, for windows whose L2s "
                "start as the run's (larger checkpoints and a slower pass: 1.8x and 1.6x on bfs; docs/sampling.md, "
                "\"Functional warming of the L2s\")");
  cmd->add_option("--timed-start", o.timed_start,
                  "Place the pages a timed run of the workload's first N instructions per thread (after its "
                  "initialisation) first-touches where that run did, not by the pass's turns: the races of first "
                  "touch are timing's (docs/sampling.md, \"A timed start\"); 0: the pass's own first touches")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{0}, limits::kMaxInstructions))
      ->capture_default_str();
  cmd->add_option("--pace", a->pace,
                  "How the threads take turns: turns (the default: equal turns keep every thread at "
                  "the mean thread's work) or time (each thread runs by a clock of its "
                  "instructions at full width, its LLC misses' unloaded latencies, saturated "
                  "links' and memories' waits and full tracker queues' stalls, so threads whose "
                  "lines live far or wait long fall behind as a timed run's do; docs/sampling.md, "
                  "\"Paced by time\")")
      ->check(CLI::IsMember(limits::kPaces))
      ->capture_default_str();
  cmd->add_option("--pace-quantum", o.pace_quantum_cycles,
                  "With --pace time: how far the threads' common horizon moves at a time, in core cycles")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  cmd->add_flag("!--no-progress", o.progress, "No line per phase on stderr");
  cmd->add_flag("--json", a->json, "Print the manifest as JSON");
  return {cmd, [a, cmd] {
            a->pass.seed_given = cmd->count("--seed") > 0;
            a->unit_jitter_given = cmd->count("--unit-jitter") > 0;  // either spelling
            if (a->pace == "turns" && cmd->count("--pace-quantum"))
              report_error(msg::kUsage, "--pace-quantum and --pace turns: equal turns have no clock to move");
            if (a->pass.warm_l2s && (!a->pass.warm_llcs || a->pass.streams_only))
              report_error(msg::kUsage,
                           "--warm-l2s needs --warm-llcs: the pass keeps the cores' L2s in front of warm LLCs "
                           "(docs/sampling.md, \"Functional warming of the L2s\")");
            if (a->pass.streams_only) {  // reads the streams alone: no timed start, no state to record
              if (cmd->count("--timed-start") && a->pass.timed_start)
                report_error(msg::kUsage, "--timed-start and --streams-only: the benchmark times the streams alone");
              if (a->pace == "time")
                report_error(msg::kUsage, "--pace time and --streams-only: the streams alone have no clock");
              a->pass.timed_start = 0;
              a->pass.warm_llcs = false;
            }
            a->pass.time_pace = a->pace == "time";
            return checkpoint(*a);
          }};
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
  cmd->add_option("--jobs", a->jobs, "local: windows run at once (0: one per host core)")
      ->check(CLI::Range(0, limits::kMaxJobs))
      ->capture_default_str();
  cmd->add_option("--executor", a->executor,
                  "local (child processes) or slurm (each stage's windows one sbatch job array; docs/cluster.md)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  add_slurm_options(*cmd, a->slurm, "window");
  cmd->add_option("--detailed-sockets", a->detailed_sockets, "Mixed modality, as for run")
      ->check(CLI::Range(0u, limits::kMaxDetailedSockets))
      ->capture_default_str();
  cmd->add_flag("--common-span,!--per-thread-budgets", a->common_span,
                "Each window over a common span of time, as run --common-span (the default), or each thread at "
                "its own budget (docs/sampling.md, \"Per-thread budgets or a common span\")");
  cmd->add_flag("--warm-tlbs,!--no-warm-tlbs", a->warm_tlbs,
                "Each window starts with the TLBs and counter annexes its checkpoint carries, as run --warm-tlbs "
                "(the default), or empty (docs/sampling.md)");
  cmd->add_flag("--warm-llcs,!--no-warm-llcs", a->warm_llcs,
                "Each window starts with the LLCs and coherence directories its checkpoint carries, as run "
                "--warm-llcs (the default when the checkpoints carry them: checkpoint's default), or empty "
                "(docs/sampling.md)");
  cmd->add_option("--target-error", a->target_error,
                  "The IPC's interval asked for, as a relative half-width (0.03: +-3 %): the windows are run "
                  "systematically, a coarse stride over the checkpoints first, finer ones until it is met; not met "
                  "with all of them is a shortfall naming the windows needed (docs/sampling.md)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--confidence", a->confidence, "The intervals' confidence level (0.95: 95 %)")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  cmd->add_option("--out", a->out, "Folder for window-K/stats.json and sampled.json (written atomically)")
      ->check(kNonEmpty);
  cmd->add_flag("--json", a->json, "Print the aggregate as JSON");
  return {cmd, [a, cmd] {
            a->warm_llcs_given = cmd->count("--warm-llcs") > 0;
            return sample(*a);
          }};
}

}  // namespace starnuma::cli
