// One run of a workload on an elaborated platform: what `starnuma run` does.
//
// Threads are placed on cores in order (socket0's cores first). Pages are placed by first touch,
// or by the oracle from a profiling pass over the same streams. Every core then runs its thread
// for `instructions` instructions; the results are the numbers of the StarNUMA paper's Fig. 8:
// IPC, AMAT split into its unloaded part (each access's unloaded latency to its home) and
// contention (the measured remainder), and the breakdown of memory accesses by class.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "debug/transactions.hpp"
#include "debug/waves.hpp"
#include "core/cache_hierarchy.hpp"
#include "os/os_settings.hpp"
#include "paging/page_map.hpp"
#include "platform/platform.hpp"
#include "stimulus/trace/champsim.hpp"
#include "tracking/tracker_metadata.hpp"

namespace starnuma {

struct RunOptions {
  std::string workload = "uniform";
  uint64_t instructions = 1000000;  // per hardware thread
  // Instructions per hardware thread run before measurement (timed): each core's statistics
  // restart at the end of its own warm-up, the shared ones when the last core's ends.
  uint64_t warmup = 0;
  // Unset: the platform's os.placement and os.pool_fraction (set: the command line's, which win).
  std::optional<Placement> placement;
  uint64_t seed = 1;
  std::optional<double> pool_fraction;  // of the workload's footprint that may live in the pool
  // Oracle placement: the region its profile counts by (pages of a region move together); a power
  // of two from 4 KiB (a page) to 512 KiB (the paper's tracking region).
  uint64_t oracle_region = 4096;
  bool progress = false;  // a progress line on stderr
  // Mixed modality: only the first `detailed_sockets` sockets are simulated in detail; the others'
  // cores are light (no L1 or L2; the core's window times their accesses to their LLC). 0: all
  // detailed.
  unsigned detailed_sockets = 0;
  // Run from trace files instead of `workload` (stimulus/trace/trace_input.hpp): one starnuma
  // trace, or ChampSim traces one per core. A starnuma trace supplies the seed and instruction
  // budget it was recorded with unless the caller gives them (`*_given`).
  std::vector<std::string> trace_in;
  // ChampSim files: one program per core (unset or Separate) or one program's threads (Shared);
  // an artifact trace set (a directory) is always one program. docs/traces.md.
  std::optional<trace::TraceSpace> trace_space;
  std::optional<uint64_t> trace_phase;  // an artifact trace set's phase (unset: its only one)
  // The artifact's page-owner file (page_owner_pre.txt) as the initial placement (place_initial).
  std::string initial_placement;
  bool seed_given = true, instructions_given = true;
  bool workload_given = true;  // else a checkpoint supplies it
  // A sampled run's timing window: start from this checkpoint (run/sampled_window.hpp), whose
  // workload and seed `workload` and `seed` must be; placement is the checkpoint's, dynamic.
  std::string checkpoint;
  // Measure over a common span of time: the run ends when the threads together have retired
  // instructions x threads, every thread then (a sampled window's unit; docs/sampling.md), instead
  // of each thread at its own `instructions`.
  bool common_span = false;
  // A window starts with the TLBs and annexes its checkpoint carries (functional warming;
  // docs/sampling.md), not empty.
  bool warm_tlbs = false;
  // The same for the sockets' LLCs and the coherence directories (checkpoint --warm-llcs).
  bool warm_llcs = false;
  // Or warm them when the checkpoint carries them, cold when it does not (run's default).
  bool warm_llcs_if_carried = false;
  // A unit checkpoint's window: how many of its boundary's copies had started by the unit (the
  // rest are copied in the window, as still in flight); unset: all of them (docs/sampling.md).
  std::optional<uint64_t> copies_done;
  // A boundary's window over a common span: measure on past `instructions` until the OS has started
  // every copy of its phase, to this many instructions per thread at most, so that its units read
  // when each copy started (docs/sampling.md, "Units: windows inside the phases"); zero: no.
  uint64_t time_copies_to = 0;
  // A unit checkpoint's window whose stretch crosses the next phase boundary: that boundary's
  // checkpoint, whose phase (scan, reset, moves) starts when the window's phases' clock has run
  // `next_boundary_after` instructions, where the functional pass crossed it (sample sets both;
  // docs/sampling.md, "Units that cross the next boundary"); empty: the window stays in its phase.
  std::string next_boundary;
  std::optional<uint64_t> next_boundary_after;
  // Keep every page's node at the run's end in RunResult::page_nodes (checkpoint --timed-start).
  bool keep_placement = false;
  // With one starnuma recording as trace_in: a thread that runs past it goes on from the workload's
  // generator, as a window's does, instead of stopping the run (checkpoint --timed-start).
  bool trace_goes_on = false;
  // Write the tracking metadata here after the run (CSV, atomically); needs tracking.impl != none.
  std::string dump_trackers;
  // Write every move the migration phases decided here after the run (CSV, atomically; os/move_log.hpp);
  // needs dynamic placement by phases.
  std::string moves;
  // Each migration phase's moves from this list (a `moves` file, e.g. the functional pass's)
  // instead of the policy's decision: a continuous run of another run's placement.
  std::string moves_from;
  // Every this much simulated time, each memory node's bandwidth and pages (run/timeline.hpp);
  // zero: no timeline.
  sc_core::sc_time timeline = sc_core::SC_ZERO_TIME;
  // Record waveforms of the run into waves.path (empty: none; debug/waves.hpp).
  WaveOptions waves;
  // Record sampled transactions into transactions.path (empty: none; debug/transactions.hpp).
  TransactionOptions transactions;
};

// One program of a mix, measured over its own cores.
struct ProgramResult {
  std::string name, workload, place;
  unsigned threads = 0;
  double ipc = 0;      // mean over its cores
  double time_ns = 0;  // until its last thread's last instruction (from its measurement start)
  double amat_ns = 0;
  uint64_t instructions = 0, llc_misses = 0;
};

struct RunResult {
  std::string platform, workload, placement;
  bool sampled_window = false;    // run from a checkpoint (run --checkpoint, a sample's window)
  uint64_t checkpoint_phase = 0;  // its phase boundary (0: a led unit before boundary 1)
  uint64_t checkpoint_unit = 0;   // its unit inside the phase after it (0: the boundary itself)
  // A unit's window: the boundary's copies it made as still in flight, and those that could not go
  // back to their source to be made (take_back_in_flight).
  uint64_t copies_in_flight = 0, copies_stayed = 0;
  uint64_t time_copies_to = 0;  // a boundary's window: how far it could measure on for its copies
  // A unit's window given its next boundary: that phase, the clock's distance to it, and whether
  // the window got there (and started the phase).
  uint64_t next_boundary_phase = 0, next_boundary_after = 0;
  bool next_boundary_crossed = false;
  // A window's functional warming: the translations its cores' TLBs started with.
  uint64_t tlbs_warmed = 0;
  uint64_t llc_lines_warmed = 0;  // and the lines its sockets' LLCs started with
  uint64_t l2_lines_warmed = 0;   // and its cores' L2s
  double ipc = 0;                 // mean over the detailed cores
  unsigned detailed_sockets = 0;  // all of them unless mixed modality
  // The tracking hardware: "on", "idle" (tracking.active: auto in a run no migration decides by
  // the trackers), or empty without any (impl: none).
  std::string tracking;
  std::vector<std::string> sockets;
  std::vector<double> socket_ipc;       // mean over each socket's cores
  PageMap::Placement page_nodes;        // every page's node at the end, with RunOptions::keep_placement
  std::vector<ProgramResult> programs;  // a mix's programs (empty for a single workload)
  double amat_ns = 0, amat_unloaded_ns = 0, amat_contention_ns = 0;
  // Percentiles of the same misses' latencies (all classes, every core; within about 2 %).
  double latency_p50_ns = 0, latency_p99_ns = 0, latency_p999_ns = 0;
  bool coherence = false;                         // coherence.enabled: misses may be block transfers
  std::array<uint64_t, kMissClasses> accesses{};  // LLC misses by MissClass
  std::array<double, kMissClasses> breakdown{};   // fractions of the above
  // The classes reported: the block transfers only with coherence on.
  size_t classes() const { return coherence ? kMissClasses : 4; }
  std::vector<std::pair<std::string, double>> link_utilization;  // mean busy fraction per link type
  uint64_t instructions = 0, llc_misses = 0;
  uint64_t instructions_requested = 0;  // the threads' measured budgets, summed
  unsigned threads_ended_early = 0;     // threads whose stream ended before their budget
  uint64_t warmup = 0;                  // per thread, before measurement
  bool common_span = false;             // measured over a common span (RunOptions::common_span)
  // What the run did short of what it was asked (a workload that ended early, a dynamic run that
  // completed no migration phase), one sentence each; empty when it did everything.
  // Per device with dynamic-capacity events: its events and what became of them (os/dcd_agent.hpp).
  nlohmann::ordered_json dcd;
  std::vector<std::string> shortfalls;
  // Page walks of the detailed cores: count, mean latency, and entry reads served by memory or
  // another socket's cache (page_walk.model: memory).
  uint64_t page_walks = 0, walk_llc_misses = 0;
  double walk_ns = 0;
  double sim_time_ns = 0, host_seconds = 0;
  // A window over recorded streams: threads that ran past the recording and went on from the
  // generator (null: not such a window).
  std::optional<unsigned> threads_generated_past_recording;
  bool host_workload_shared = false;  // a window given the workload its `sample` built (not built again)
  // Dynamic placement: the knowledge it used and the migration figures (MigrationEngine::report).
  std::string migration_policy;
  nlohmann::ordered_json migration;
  nlohmann::json stats;                             // the whole statistics tree
  nlohmann::ordered_json timeline;                  // RunOptions::timeline's samples (null without)
  std::shared_ptr<const TrackerMetadata> trackers;  // the tracking metadata; null with impl: none

  // Everything but the statistics tree, for printing and comparing.
  nlohmann::ordered_json summary_json() const;
  // What stats.json holds: the summary and the tree.
  nlohmann::ordered_json to_json() const;
};

// Runs once per process (SystemC elaborates once).
RunResult run_workload(Platform& platform, const RunOptions& options);

// The summary as a table for a terminal.
std::string format_summary(const RunResult& r);

}  // namespace starnuma
