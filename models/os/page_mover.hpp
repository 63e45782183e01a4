// How the OS moves one page, whoever decides it (StarNUMA's phases, DM, AutoNUMA's faults): the
// page is remapped, its translation shot down in exactly the cores whose TLBs hold it (what the
// shared TLB directory knows), its lines taken out of every cache (dirty ones written home; through
// the directories with coherence), then copied line by line through the fabric from the old home
// to the new one by a core of `copier`, competing with the cores' traffic. Accesses to the page
// wait until the copy ends; the old frame is freed after it (land()).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "debug/waves.hpp"
#include "core/cache_hierarchy.hpp"
#include "paging/page_map.hpp"

namespace starnuma {

class Fabric;
class Coherence;

// The most intervals open at once in simulated time, for intervals that arrive out of time order
// (cores run ahead of the kernel's time) but never begin before the time last settled: events up
// to that time are final, the later ones wait.
class OverlapPeak {
 public:
  void add(int64_t begin, int64_t end);
  // Sweeps the events up to `now` (no interval added later begins before it).
  void settle(int64_t now);
  // The peak, the events not yet settled included.
  size_t peak() const;

 private:
  // (time, +1 opens / -1 closes); at one time closes come first: [a, b) and [b, c) never overlap.
  using Event = std::pair<int64_t, int>;
  using Events = std::priority_queue<Event, std::vector<Event>, std::greater<Event>>;
  static void sweep(Events& events, int64_t upto, size_t& open, size_t& peak);
  Events events_;
  size_t open_ = 0, peak_ = 0;
};

class PageMover {
 public:
  PageMover(Fabric& fabric, PageMap& pages, Coherence* coherence, std::vector<SocketLlc*> llcs)
      : fabric_(fabric), pages_(pages), coherence_(coherence), llcs_(std::move(llcs)) {}

  // Moves placed page `vpage` to node `to` (which has room): flushes at `flush_fs`, copies from
  // `copy_fs` by a core of socket `copier`. Returns when the copy ends (fs).
  int64_t move(uint64_t vpage, size_t to, int64_t flush_fs, int64_t copy_fs, size_t copier);
  // Waveforms: os.migration's pages_in_flight (copies under way) and shootdowns (sent so far).
  void attach_waves(Waves& waves);
  // Ends the copies done by `now`: their pages are no longer in flight, their old frames free.
  void land(int64_t now);
  // The earliest end of a copy in flight (INT64_MAX when none).
  int64_t next_landing() const;
  // Takes every copy of the lines of physical page `ppage` out of every socket's caches at `at`.
  void flush_page(uint64_t ppage, Time at);

  uint64_t shootdowns_sent() const { return shootdowns_sent_; }
  uint64_t lines_flushed() const { return lines_flushed_; }
  uint64_t dirty_lines() const { return dirty_lines_; }
  // The most copies in flight at once in simulated time (from the flush to the copy's end).
  size_t copies_peak() const { return copies_peak_.peak(); }
  // Shootdowns sent to cores that made no access after them (their threads had finished).
  uint64_t shootdowns_unprocessed() const;
  // Tells every core holding `vpage`'s translation to drop it (before its next access); `at_ps`
  // is when, for the waves (negative: now, the calling process's time).
  void shoot_down(uint64_t vpage, int64_t at_ps = -1);

 private:
  Fabric& fabric_;
  PageMap& pages_;
  Coherence* coherence_;
  std::vector<SocketLlc*> llcs_;
  struct Copy {
    int64_t done_fs;
    uint64_t vpage, old_frame;
  };
  std::vector<Copy> copies_;  // in flight
  OverlapPeak copies_peak_;
  uint64_t shootdowns_sent_ = 0, lines_flushed_ = 0, dirty_lines_ = 0;
  Waves* waves_ = nullptr;
  Waves::Signal in_flight_signal_ = Waves::kOff, shootdowns_signal_ = Waves::kOff;
};

}  // namespace starnuma
