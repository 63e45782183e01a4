// Where the page-hotness tracking hardware (StarNUMA section III-D: a counter annex per TLB and
// the page-table walker's tracker update) attaches to a core. A socket calls its observer, if one
// is set, on every event below; with none set the cost is one pointer test per event.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common/units.hpp"

namespace starnuma {

enum class TlbLevel : uint8_t { L1, L2 };

// The TLB events return the observer's backpressure: how long the access that caused the event
// must wait before its translation completes (the tracking hardware cannot take the flush the
// event causes yet, so the annex holds the TLB). Time() when it need not wait. The core adds it to
// the access's time, before the events that follow in the same translation.
class TlbObserver {
 public:
  virtual ~TlbObserver() = default;
  // A translation was installed in `level` (after a miss at that level).
  virtual Time tlb_fill(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) = 0;
  // A lookup hit in `level`.
  virtual Time tlb_hit(unsigned core, TlbLevel level, uint64_t vpage, Time at) = 0;
  // A translation was displaced from `level`.
  virtual Time tlb_evict(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) = 0;
  // A translation was shot down (its page migrates): dropped with no fill after it. By default an
  // eviction.
  virtual Time tlb_shootdown(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) {
    return tlb_evict(core, level, vpage, ppage, at);
  }
  // A load that missed in the LLC completed (its data came from memory). It returns nothing: it
  // only counts, which never needs the tracker, so it never waits.
  virtual void llc_miss_load(unsigned core, uint64_t vpage, uint64_t ppage, Time done) = 0;
  // Before the run (a sampled window's functional warming): `level` of the core starts holding
  // these translations (vpage, ppage), `marked` ones not yet past the phase's mark, with the
  // annex counts `counts` (vpage, count; the others 0).
  using Translations = std::vector<std::pair<uint64_t, uint64_t>>;
  virtual void tlb_warm(unsigned /*core*/, TlbLevel /*level*/, const Translations& /*marked*/,
                        const Translations& /*unmarked*/, const Translations& /*counts*/) {}
};

}  // namespace starnuma
