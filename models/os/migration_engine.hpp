// The OS's migration thread for `placement: dynamic` (StarNUMA section III-D, IV-C): a SystemC
// process on a dedicated core of `os.os_socket`. At each phase boundary (the mean thread retired
// another `os.phase_instructions`, os/phase_clock.hpp) it scans what the run knows of each
// region's accesses (the tracking metadata, or the perfect per-page counts), resets it, marks the annexes, decides with
// os.migration's phase policy (os/phase_policy.hpp; StarNUMA's Algorithm 1 by default), then moves the chosen pages one
// after another, each in time:
//   - the page is remapped and its translation shot down in exactly the cores whose TLBs hold it;
//   - its lines leave every cache (dirty ones written home; through the directories with coherence);
//   - the OS core spends `os.page_cycles` on it (the paper's per-page cost), then the page's copy
//     runs line by line through the fabric (a core of the destination socket, or for the pool the
//     source socket, reads at the old home and writes at the new one, competing with the cores'
//     traffic) while the OS core goes on to the next page;
//   - accesses to the page wait until its copy ends; then the old frame is freed;
//   - a destination takes one copy at a time (CopyQueues): its next page starts once the copy
//     in flight has ended, as the paper's artifact migrates.
// A phase's moves not done when the next boundary comes are dropped (the new scan decides anew).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cache_hierarchy.hpp"
#include "core/core.hpp"
#include "core/run_control.hpp"
#include "os/kernel_context.hpp"
#include "os/migration_policy.hpp"
#include "os/phase_policy.hpp"
#include "os/os_settings.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_map.hpp"
#include "pool/pool_monitors.hpp"
#include "os/page_mover.hpp"
#include "os/move_log.hpp"
#include "os/region_scan.hpp"
#include "tracking/tracker_metadata.hpp"

namespace starnuma {

class Fabric;
class SocketTracking;

// Cycles the OS core needs to scan `entries` tracker entries of `entry_bytes` each: its work per
// entry, or the metadata's memory latency over the lines it keeps in flight, whichever is longer.
uint64_t scan_cycles(uint64_t entries, uint64_t entry_bytes, Time line_latency, int64_t cycle_fs,
                     unsigned cycles_per_entry, unsigned lines_in_flight);

// A phase's pages waiting to move, one queue per destination node in decision order. A
// destination has one copy in flight at a time, as the paper's artifact migrates (its migrator
// sends a destination's next page once the one in flight has landed): a page's move (remap,
// shootdown, copy) starts only when its destination's last copy has ended, so the page stays
// usable at its old home meanwhile, and the OS core takes the earliest page whose destination is
// free instead of waiting behind a busy one.
class CopyQueues {
 public:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  explicit CopyQueues(size_t nodes) : queue_(nodes), head_(nodes, 0), free_fs_(nodes, 0) {}
  void fill(const std::vector<PageMove>& moves);  // a new phase's pages (what is left is dropped)
  size_t left() const { return left_; }
  // The earliest waiting page (its index in the phase's moves) whose destination is free at
  // `now`, taken out of its queue; kNone when every waiting page's destination is busy.
  size_t take(int64_t now);
  // When the first destination with waiting pages becomes free (INT64_MAX: no page waits).
  int64_t next_ready() const;
  void copying_until(size_t node, int64_t done_fs) { free_fs_.at(node) = done_fs; }

 private:
  std::vector<std::vector<size_t>> queue_;
  std::vector<size_t> head_;
  std::vector<int64_t> free_fs_;  // per node: when its copy in flight ends
  size_t left_ = 0;
};

class MigrationEngine {
 public:
  struct Setup : KernelContext {
    std::vector<SocketTracking*> trackers;  // per socket (tracker knowledge only)
    TrackerMetadata* metadata = nullptr;    // tracker knowledge only
    size_t metadata_range = 0;              // address range holding it (PlatformTracking::home_range)
    PageCounter* counts = nullptr;          // perfect knowledge only
    MigrationKnowledge knowledge = MigrationKnowledge::Tracker;
    std::string policy = "algorithm1";      // a registered phase policy (os/phase_policy.hpp)
    size_t pool = static_cast<size_t>(-1);  // the pool's node index, npos: none
    PoolMonitors chmu;                      // the pool's hotness monitors (a policy may read them)
    uint64_t seed = 1;
    bool progress = false;     // a line per phase on stderr
    MoveLog* moves = nullptr;  // every decided move's row (run --moves); null: none
    // Each phase's moves from this list instead of the policy's (run --moves-from), which still
    // decides, so that its thresholds adapt and its scan costs the OS core what it would; null: the
    // policy's. `decided_from` names the list in the policy's description.
    const DecidedMoves* decided = nullptr;
    std::string decided_from;
    // A sampled run's timing window (os/checkpoint.hpp): no scan of its own, no decision; the
    // checkpoint's phase starts when measurement does (after the window's warm-up): the OS core
    // spends the scan's time, resets the counts, then moves `moves` as a continuous run would.
    // A unit's window resumes its phase instead: no scan and no reset (the phase began before the
    // unit), only the boundary's copies still in flight at the unit (docs/sampling.md, "Units").
    struct Replay {
      uint64_t phase = 0;
      uint64_t scan_entries = 0, regions_scanned = 0;
      PhaseDecision decision;  // the functional pass's, for the report
      std::vector<PageMove> moves;
      bool resumed = false;
    };
    std::optional<Replay> replay;
    // A unit's window whose stretch crosses the next boundary (run --next-boundary): that
    // boundary's phase starts as a continuous run's would, when the window's phases' clock (counted
    // from the window's start) reaches `next_after`; its own phase's copies not yet made are dropped.
    std::optional<Replay> next;
    uint64_t next_after = 0;
  };
  explicit MigrationEngine(Setup setup);

  // Spawns the OS thread (before sc_start).
  void start();
  // Totals and one record per phase, for the run's summary.
  nlohmann::ordered_json report() const;
  // os.migration's pages_in_flight (copies under way) and shootdowns (sent so far).
  void attach_waves(Waves& waves) { mover_.attach_waves(waves); }
  uint64_t phases() const { return records_.size(); }
  // Whether the window's next boundary (Setup::next) was reached and its phase started.
  bool next_started() const { return next_started_; }
  // What the run's result calls the phase policy and its knowledge.
  std::string policy_description() const {
    return policy_->description() + (s_.decided ? ", its moves from " + s_.decided_from : "");
  }

 private:
  // Per phase, as reported.
  struct PhaseRecord {
    uint64_t phase = 0;
    double start_ns = 0, decided_ns = 0;
    PhaseDecision decision;
    uint64_t regions_scanned = 0;
    uint64_t moved_pages = 0, dropped_pages = 0, skipped_pages = 0;
    uint64_t socket_to_socket = 0, to_pool = 0, from_pool = 0;  // pages, by class
    uint64_t pool_pages = 0;                                    // pool occupancy at the decision
    nlohmann::ordered_json fields;                              // the policy's own figures of the phase
    // A window's phase: the mean thread's instructions at its start, at each copy's start (from
    // the phase's start, in order), and over the whole phase seen; a unit's window of the same
    // phase reads them to know which copies are still in flight (copies_started_by).
    uint64_t start_retired = 0, observed_instructions = 0, pages_to_copy = 0;
    std::vector<uint64_t> copy_offsets;
    uint64_t start_furthest = 0;  // the furthest thread's instructions at the phase's start
    uint64_t start_clock = 0;     // the phases' clock at it (PhaseClock)
  };

  void run();
  size_t socket_of_node(size_t node) const;
  // The phase's scan and decision; returns the pages to move, in order.
  std::vector<PageMove> decide(uint64_t phase, PhaseRecord& record);
  // A window's phase from a checkpoint (its own, or the next boundary's).
  std::vector<PageMove> replay(const Setup::Replay& r, PhaseRecord& record);
  // The replayed phase that starts at `now`, if any: the next boundary's once the clock reaches
  // it, else the window's own phase when measurement starts.
  const Setup::Replay* replay_starting(int64_t now);
  // The OS core's time to scan `entries` tracker entries.
  int64_t tracker_scan_fs(uint64_t entries) const;
  // Moves one page (the phase's move `k`) starting at the OS core's time; returns when the OS core
  // is free again (fs).
  int64_t migrate(const PageMove& m, size_t k, int64_t start_fs, PhaseRecord& record, CopyQueues& queues);

  Setup s_;
  uint64_t clock_at_last_poll_ = 0;  // the phases' clock
  PageMover mover_;
  const PhasePolicyType* policy_type_;
  std::unique_ptr<PhasePolicy> policy_;
  std::vector<PhaseRecord> records_;
  size_t first_row_ = 0;  // the phase's first move in s_.moves
  bool next_started_ = false;
  int64_t scan_fs_ = 0, busy_fs_ = 0, copy_fs_ = 0;
};

}  // namespace starnuma
