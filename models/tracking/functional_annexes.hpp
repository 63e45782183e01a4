// The tracking hardware without time, for the functional pass of sampled runs
// (run/functional_pass.hpp): every thread's L1 DTLB and STLB (its core's sizes and ways, LRU) with
// a counter annex on the annexed level (tracking.tlb), folding flushes straight into the tracker
// metadata. The rules are the annex's (TlbCounterAnnexModel, SocketTracking): an entry counts its
// page's LLC-missing loads (saturating at the counter's width), and flushes its count with the
// socket's sharer bit when it leaves the TLB (eviction, shootdown; count 0 included) and on its
// first access after a phase mark (through the L1 DTLB too). What a timed run adds, and this
// leaves out: the flushes' latency and queueing, page walks, the metadata cache.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/cache_array.hpp"
#include "tracking/tracker_metadata.hpp"

namespace starnuma {

class FunctionalAnnexes {
 public:
  struct Thread {
    unsigned socket;
    unsigned dtlb_entries, dtlb_ways, stlb_entries, stlb_ways;
  };
  // `annex_stlb`: the annexes sit on the STLB (tracking.tlb: l2; the STLB is then inclusive of the
  // L1 DTLB), else on the L1 DTLB. Without `metadata` (perfect knowledge) the TLBs are kept and
  // nothing is folded: the checkpoints' TLBs without counts or marks.
  FunctionalAnnexes(const std::vector<Thread>& threads, bool annex_stlb, TrackerMetadata* metadata);

  // Thread t's access to `vpage`, which the page map places at `ppage`; whether it missed both
  // TLBs (a page walk).
  bool access(size_t t, uint64_t vpage, uint64_t ppage);
  // Thread t's load of `vpage` missed the LLC.
  void llc_load(size_t t, uint64_t vpage);
  // A migration phase began: every entry is marked.
  void phase_mark() { epoch_ = (epoch_ + 1) & kEpochMask; }
  // `vpage` migrates: every thread's translation of it flushes and is dropped.
  void shoot_down(uint64_t vpage);
  uint64_t flushes() const { return flushes_; }
  // The tracker updates' metadata accesses, kept while `record_updates(true)` until taken: each
  // the flushing thread's socket, the entry's byte address, and whether the update changed it (a
  // timed update then takes the line exclusive). For the pass's coherent LLCs.
  struct Update {
    unsigned socket;
    uint64_t address;
    bool changed;
  };
  void record_updates(bool on) { recording_ = on; }
  std::vector<Update>& updates() { return updates_; }
  // Thread t's TLBs for a checkpoint (functional warming): each level's pages, each set's least
  // recent first, as (vpage << 1) | marked, where marked is the annexed level's entry not having
  // met the current phase mark yet (always 0 at the other level); `counts`: the annexed level's
  // entries' counts, in the same order (empty without metadata).
  struct Contents {
    std::vector<uint64_t> dtlb, stlb;
    std::vector<uint32_t> counts;
  };
  Contents contents(size_t t) const;
  bool annex_stlb() const { return annex_stlb_; }
  const Thread& thread(size_t t) const { return threads_[t]; }

 private:
  // The annexed level's payload: the physical page, the count, and the phase epoch of its fill or
  // last flush (marked when it is not the current epoch; 12 bits, so an entry untouched for exactly
  // 4096 phases would read unmarked).
  static constexpr unsigned kCountShift = 36, kEpochShift = 52;
  static constexpr uint64_t kPageMask = (uint64_t{1} << kCountShift) - 1, kCountMask = 0xffff, kEpochMask = 0xfff;
  uint64_t annex_entry(uint64_t ppage) const { return ppage | (epoch_ << kEpochShift); }
  // Flushes the entry at `payload` (its count and the thread's sharer bit) and restarts it.
  void flush(size_t t, uint64_t* payload);
  void flush_evicted(size_t t, uint64_t payload);
  void fold(unsigned socket, uint64_t ppage, uint32_t count);
  CacheArray& annexed(size_t t) { return annex_stlb_ ? stlb_[t] : dtlb_[t]; }

  std::vector<Thread> threads_;
  bool annex_stlb_;
  TrackerMetadata* metadata_;
  uint32_t max_count_;
  std::vector<CacheArray> dtlb_, stlb_;
  uint64_t epoch_ = 0;
  uint64_t flushes_ = 0;
  bool recording_ = false;
  std::vector<Update> updates_;
};

}  // namespace starnuma
