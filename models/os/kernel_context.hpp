// What a kernel thread of the OS (the migration thread, dynamic capacity's) works on: the
// machine's memory, caches and cores, the OS's settings, and the clock of its own core.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/cache_hierarchy.hpp"
#include "core/core.hpp"
#include "core/run_control.hpp"
#include "os/os_settings.hpp"
#include "os/phase_clock.hpp"
#include "paging/page_map.hpp"

namespace starnuma {

class Fabric;
class Coherence;

struct KernelContext {
  Fabric* fabric = nullptr;
  PageMap* pages = nullptr;
  Coherence* coherence = nullptr;  // null: no coherence
  std::vector<SocketLlc*> llcs;    // per socket
  std::vector<const Core*> cores;  // every thread's core
  RunControl* control = nullptr;
  const OsSettings* os = nullptr;
  std::vector<size_t> socket_node;  // node index of each socket's memory
  int64_t os_cycle_fs = 0;          // one cycle of the OS core

  // Instructions retired by the furthest thread.
  uint64_t furthest_retired() const {
    uint64_t n = 0;
    for (const Core* c : cores) n = std::max(n, c->retired_total());
    return n;
  }
  // Instructions retired by the mean thread: a clock of the phase's progress that, unlike the
  // furthest thread's, goes on when one thread has finished or waits.
  uint64_t mean_retired() const {
    uint64_t n = 0;
    for (const Core* c : cores) n += c->retired_total();
    return cores.empty() ? 0 : n / cores.size();
  }
  // The phases' clock at `now_fs` (PhaseClock: the mean thread's instructions over the threads that
  // have not finished), read at most once per instant.
  uint64_t phase_clock(int64_t now_fs) {
    if (!clock_) clock_.emplace(cores.size());
    if (now_fs != clock_read_fs_) {
      clock_->advance([this](size_t t) { return cores[t]->retired_total(); },
                      [this](size_t t) { return cores[t]->finished(); });
      clock_read_fs_ = now_fs;
    }
    return clock_->instructions();
  }
  // Whether phase `phase` (from 1) has begun at `now`: the phases' clock has run os.phase_instructions
  // that many times, or os.phase_period has passed that many times.
  bool phase_reached(uint64_t phase, int64_t now_fs) {
    const int64_t period_fs = os->phase_period().ps() * 1000;
    return period_fs ? now_fs >= static_cast<int64_t>(phase) * period_fs
                     : phase_clock(now_fs) >= phase * os->phase_instructions();
  }

 private:
  std::optional<PhaseClock> clock_;  // each kernel thread's own, read at its polls
  int64_t clock_read_fs_ = -1;
};

}  // namespace starnuma
