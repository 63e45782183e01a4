// One timed run as a named stage with four phases, each a function of its own:
//   plan      the options resolved against the platform: the stimulus (workload, traces, mix or
//             checkpoint), the placement and the OS's knowledge, every combination refused before
//             anything is built;
//   assemble  the run's own objects on the elaborated platform: the OS's page map and table, the
//             LLCs (coherence's caching agents and the trackers' metadata path for this run only),
//             the run control, AutoNUMA or the migration engine, the cores' jobs, and the
//             observers (progress, timeline, waves, transaction trace);
//   simulate  sc_start, bounded when plug-in initiators may never finish;
//   collect   the result: the statistics' derived figures, the migration's report, shortfalls.
// run_workload (simulation.hpp) is `RunAssembly(platform, options).run()`.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "os/autonuma.hpp"
#include "os/checkpoint.hpp"
#include "os/dcd_agent.hpp"
#include "os/migration_engine.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_map.hpp"
#include "paging/page_table.hpp"
#include "run/profile.hpp"
#include "run/run_programs.hpp"
#include "run/sampled_window.hpp"
#include "run/simulation.hpp"
#include "run/timeline.hpp"
#include "tracking/platform_tracking.hpp"

namespace starnuma {

namespace trace {
class TraceFile;
}

class RunAssembly {
 public:
  // Plans the run: resolves and checks the options (usage and configuration errors come here).
  RunAssembly(Platform& platform, const RunOptions& options);
  RunAssembly(const RunAssembly&) = delete;
  RunAssembly& operator=(const RunAssembly&) = delete;
  // Assembles, simulates and collects (once per process: SystemC elaborates once).
  RunResult run();

 private:
  // plan
  void plan_stimulus();
  void check_initial_placement() const;
  void plan_placement();
  // assemble
  void assemble_memory();
  void assemble_caches();
  void assemble_control();
  void start_cores();
  void start_migration();
  // A kernel thread per device with dynamic capacity (os/dcd_agent.hpp).
  void start_dynamic_capacity();
  KernelContext kernel_context();  // what the OS's kernel threads work on
  void attach_observers();
  // simulate: whether the run stopped at the initiators' time limit
  bool simulate();
  // collect
  RunResult collect(bool stopped_at_limit, double host_seconds);
  void collect_migration(RunResult& r);

  Platform& platform_;
  Fabric& fabric_;
  const OsSettings& os_;
  const size_t sockets_;
  RunOptions o_;
  std::optional<Checkpoint> checkpoint_;
  // A unit's next boundary (--next-boundary), without the state a window does not start from.
  std::optional<Checkpoint> next_boundary_;
  void read_next_boundary();
  std::shared_ptr<const trace::TraceFile> recording_;  // a window's recorded streams (--checkpoint --trace-in)
  InFlight in_flight_;                                 // a unit's copies still in flight
  // Functional warming: the translations the cores' TLBs started with, or why they started empty.
  uint64_t tlbs_warmed_ = 0;
  std::string tlbs_not_warmed_;
  void warm_tlbs();
  // The same for the LLCs and directories: the lines they started with, or why they started empty.
  uint64_t llc_lines_warmed_ = 0;
  std::string llcs_not_warmed_;
  void warm_llcs();
  // And each core's L2, after its socket's LLC (inclusion); `left_out`: lines of frames a unit's
  // copies in flight vacated.
  uint64_t l2_lines_warmed_ = 0;
  std::string l2s_not_warmed_;
  template <class LeftOut>
  void warm_l2s(const LeftOut& left_out);
  // Why the checkpoint's LLCs and directories cannot start this platform's (empty: they can).
  std::string llcs_mismatch() const;
  RunStimulus stimulus_;
  std::unique_ptr<PlatformTracking> tracking_;
  Placement placement_ = Placement::FirstTouch;
  MigrationKnowledge knowledge_ = MigrationKnowledge::Perfect;
  bool numa_balancing_ = false;  // AutoNUMA or LACX: decided by hinting faults, not in phases
  bool perfect_ = false;         // phases on per-page counts
  size_t detailed_ = 0;          // sockets simulated in detail
  Coherence* coherence_ = nullptr;

  std::optional<AccessProfile> accesses_;  // the oracle's profile
  std::optional<PageMap> pages_;
  size_t pool_ = static_cast<size_t>(-1);  // the pool's node (none: -1)
  PageCounter page_counts_;
  std::optional<PageTable> page_table_;
  std::vector<std::unique_ptr<SocketLlc>> llcs_;
  // The LLCs are coherence's caching agents, and the trackers' metadata path, for this run only.
  struct Detach {
    Coherence* coherence = nullptr;
    Fabric* tracked = nullptr;
    ~Detach();
  } detach_;
  std::optional<RunControl> control_;
  std::unique_ptr<PageMover> numa_mover_;
  std::unique_ptr<AutoNuma> autonuma_;
  std::optional<TransactionTrace> transactions_;
  std::unique_ptr<MigrationEngine> migration_;
  std::optional<MoveLog> move_log_;             // run --moves
  std::optional<DecidedMoves> decided_moves_;   // run --moves-from
  std::vector<std::unique_ptr<DcdAgent>> dcd_;  // one per device with dynamic capacity enabled
  std::chrono::steady_clock::time_point host_start_;
  std::optional<Timeline> timeline_;
  std::optional<Waves> waves_;
};

}  // namespace starnuma
