// How the OS moves one page, whoever decides it (StarNUMA's phases, DM, AutoNUMA's faults): the
// page is remapped, its translation shot down in exactly the cores whose TLBs hold it (what the
// shared TLB directory knows), its lines taken out of every cache (dirty ones written home; through
// the directories with coherence), then copied line by line through the fabric from the old home
// to the new one by a core of `copier`, competing with the cores' traffic. Accesses to the page
// wait until the copy ends; the old frame is freed after it (land()).
#pragma once

#include <cstdint>
#include <vector>

#include "debug/waves.hpp"
#include "core/cache_hierarchy.hpp"
#include "os/page_map.hpp"

namespace starnuma {

class Fabric;
class Coherence;

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
  // The most copies in flight at once.
  size_t copies_peak() const { return copies_peak_; }
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
  size_t copies_peak_ = 0;
  uint64_t shootdowns_sent_ = 0, lines_flushed_ = 0, dirty_lines_ = 0;
  Waves* waves_ = nullptr;
  Waves::Signal in_flight_signal_ = Waves::kOff, shootdowns_signal_ = Waves::kOff;
};

}  // namespace starnuma
