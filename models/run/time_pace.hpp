// The functional pass paced by time (checkpoint --pace time; docs/sampling.md, "Paced by time"):
// time-based fast-forwarding (Carlson et al., ISPASS 2013) with the unloaded machine as its clock.
//
// Equal turns keep every thread at the mean thread's work, where a timed run's threads drift apart:
// one whose misses go far retires less in the same time. Here each thread has a clock: its
// instructions at its core's full width, plus, for each LLC miss, the core's L1, L2 and LLC lookups
// and the fabric's unloaded read of the line's home (Fabric::unloaded_latency, the figures
// `starnuma latency` measures). Misses do not overlap and nothing queues: the clock explains the
// threads' differences in where their lines live, not in a loaded link's wait. A thread runs while
// its clock is behind a common horizon, which moves on by a quantum once every thread that may run
// has reached it; a barrier releases its threads at the clock of the last one to arrive.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "run/run_setup.hpp"

namespace starnuma {

class Fabric;

class TimePace {
 public:
  // `quantum_cycles`: how far the horizon moves, in cycles of the first thread's core.
  TimePace(const Fabric& fabric, const std::vector<ThreadPlace>& threads, unsigned quantum_cycles);

  void retire(size_t t, uint64_t instructions) { clock_fs_[t] += instructions * instruction_fs_[t]; }
  // Thread t's LLC missed physical line `line` (address >> line_shift).
  void miss(size_t t, uint64_t line, unsigned line_shift);
  // Whether thread t may run in this round: its clock behind the horizon.
  bool behind(size_t t) const { return clock_fs_[t] < horizon_fs_; }
  // After a round: once every thread that may run (`running(t)`) has reached the horizon, it moves
  // a quantum past the earliest of them.
  template <class Running>
  void after_round(Running&& running) {
    uint64_t earliest = UINT64_MAX;
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (running(t)) {
        if (clock_fs_[t] < horizon_fs_) return;
        earliest = std::min(earliest, clock_fs_[t]);
      }
    if (earliest != UINT64_MAX) horizon_fs_ = earliest + quantum_fs_;
  }
  // A barrier opens for the threads `at(t)`: they leave at the last arrival's clock.
  template <class At>
  void release(At&& at) {
    uint64_t last = 0;
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (at(t)) last = std::max(last, clock_fs_[t]);
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (at(t)) clock_fs_[t] = last;
  }
  // Thread t's clock in its core's cycles.
  double cycles(size_t t) const;
  unsigned quantum_cycles() const { return quantum_cycles_; }

 private:
  struct Window {
    uint64_t base, end;  // bytes
    size_t range;
  };
  const unsigned quantum_cycles_;
  uint64_t quantum_fs_ = 0, horizon_fs_ = 0;
  std::vector<uint64_t> clock_fs_;
  std::vector<uint64_t> instruction_fs_, cycle_fs_;  // per thread: its core's cycle over its width, its cycle
  std::vector<size_t> socket_;                       // per thread: its requester
  std::vector<Window> windows_;                      // the address map, by base
  size_t ranges_ = 0;
  std::vector<uint64_t> miss_fs_;  // [socket * ranges_ + range]: lookups and the unloaded read
};

}  // namespace starnuma
