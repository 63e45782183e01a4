// A core: reads its hardware thread's stream and times it with an interval model.
//
// Dispatch takes 1/width cycle per instruction. A load that may miss the L1 takes a miss slot
// (MSHR) and completes after the hierarchy's latency; dispatch runs on past it until the ROB is
// full (the instruction `rob` places after the oldest incomplete load waits for it), so
// independent misses overlap up to the ROB and MSHR limits and IPC emerges from the latencies. A
// load marked dependent waits for the previous load. Stores retire into the store buffer and wait
// only when it is full. At a barrier the core waits for the other threads. Local time runs ahead
// of SystemC time by at most the platform's quantum. A light core (mixed modality) runs the same
// interval model with TLBs and walks but no private caches: its accesses start at the socket's LLC.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "common/component.hpp"
#include "debug/waves.hpp"
#include "core/cache_hierarchy.hpp"
#include "core/run_control.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

class Core : public Component {
 public:
  Core(sc_core::sc_module_name name, const ScopeContext& ctx, const CoreConfig& config, Frequency clock);

  struct Job {
    std::unique_ptr<ThreadStream> stream;
    CacheHierarchy::RunContext context;  // context.light: a light core (mixed modality; docs/cores.md)
    uint64_t instructions;               // stop after this many, counted from the start of measurement
    Time quantum;
    RunControl* control;
    uint64_t seed;
    // The stream begins with an initialisation that a barrier starting measurement ends; the
    // budget counts from that barrier, however long the initialisation.
    bool initialises = false;
    // Instructions run first (timed, after any initialisation) whose statistics are then
    // discarded: the core restarts its own account and tells `control` (RunControl::warmed_up).
    uint64_t warmup = 0;
    // The thread's program in a mix: its barriers are its program's (RunControl's groups).
    size_t group = 0;
    // Its first instruction this long after the run's start (platform.start_skew), in fs.
    int64_t start_offset_fs = 0;
  };
  // Elaboration: where the core's hierarchy leads beyond the socket (Socket::bind_fabric), and the
  // coherence it takes part in (the platform, when coherence is enabled).
  void bind(const CacheHierarchy::Uplink& uplink) { uplink_ = uplink; }
  // The hierarchy of the job started last (after start()).
  CacheHierarchy& caches() { return *caches_; }
  void bind_coherence(Coherence& coherence) { uplink_.coherence = &coherence; }
  // Starts the core's thread on `job` (before sc_start); the core must be bound.
  void start(Job job);

  uint64_t instructions() const { return instructions_.value(); }
  // The measured instructions the job asked for (0 without a job), and whether its stream ended
  // before them (or before measurement began): the run did less than asked.
  uint64_t budget() const { return job_ ? job_->instructions : 0; }
  bool ended_early() const { return ended_early_; }
  // Instructions retired so far while running (for progress reports).
  uint64_t retired_so_far() const { return retired_so_far_; }
  // Instructions retired since the start, initialisation and warm-up included (migration phases).
  uint64_t retired_total() const { return retired_total_; }
  // Whether the job's thread has finished (its stream or budget ended): it no longer holds phases back (PhaseClock).
  bool finished() const { return finished_; }
  // outstanding_misses (loads that missed the L1, in flight) and retired (instructions, set once
  // a quantum of local time).
  void attach_waves(Waves& waves) override;
  uint64_t cycles() const { return cycles_.value(); }
  double ipc() const { return cycles_.value() ? static_cast<double>(instructions_.value()) / cycles_.value() : 0.0; }
  const MemoryStats& memory() const { return memory_stats_; }
  int64_t cycle_fs() const { return cycle_fs_; }

 private:
  void run();
  // The stream through an interval model over `caches` (the hierarchy, or a light core's view of
  // it), `mshrs` miss slots, an access longer than `hit_fs` a miss.
  template <class Caches, bool kSpans>
  void run_window(Caches& caches, unsigned mshrs, int64_t hit_fs);
  // Waits for the other threads at a barrier; returns the core's time after it.
  int64_t pass_barrier(const StreamOp& op, int64_t now);
  // The end of the warm-up at local time `now`: waits for SystemC time to reach it, restarts this
  // core's statistics and reports to the run.
  void end_warmup(int64_t now);
  bool warming_ = false;
  bool ended_early_ = false;
  bool finished_ = false;

  const CoreConfig& config_;
  int64_t cycle_fs_;
  int64_t dispatch_fs_;  // one instruction's share of a cycle
  CacheHierarchy::Uplink uplink_;
  std::optional<Job> job_;
  std::unique_ptr<CacheHierarchy> caches_;
  uint64_t retired_so_far_ = 0, retired_total_ = 0;
  Waves* waves_ = nullptr;
  Waves::Signal outstanding_signal_ = Waves::kOff, retired_signal_ = Waves::kOff;

  Counter instructions_{*this, "instructions", "instructions", "Instructions retired"};
  Counter cycles_{*this, "cycles", "cycles", "Cycles from the start to the last retirement"};
  Counter loads_{*this, "loads", "operations", "Loads"};
  Counter stores_{*this, "stores", "operations", "Stores"};
  Counter rob_stalls_{*this, "rob_stalls", "operations", "Dispatch stopped because the ROB was full"};
  Counter mshr_stalls_{*this, "mshr_stalls", "operations",
                       "Loads that waited for a free MSHR (a light core: one of its light_loads LLC miss slots)"};
  Counter store_buffer_stalls_{*this, "store_buffer_stalls", "operations", "Stores that waited for the store buffer"};
  Counter barriers_{*this, "barriers", "barriers", "Barriers passed"};
  Formula ipc_{*this, "ipc", "instructions/cycle", "Instructions per cycle",
               [this](sc_core::sc_time) { return ipc(); }};
  MemoryStats memory_stats_{*this};
};

}  // namespace starnuma
