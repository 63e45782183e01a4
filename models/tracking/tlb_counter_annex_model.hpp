// Transaction-level reference of rtl/tlb_counter_annex.sv (StarNUMA section III-D): per TLB entry
// an i-bit saturating count of LLC-missing loads and a phase marker; an entry reports ("flushes")
// its count on eviction and on its first hit after a phase mark. Same flushes, same order, same
// values as the RTL, without cycles: this is what a platform runs with `impl: model`, and what the
// RTL bench scores against.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace starnuma {

// One report from a counter annex to the page-table walker's tracker update.
struct FlushRequest {
  uint64_t vpage = 0;
  uint64_t ppage = 0;
  uint32_t count = 0;  // LLC-missing loads since the entry's fill or last flush; always 0 for T0
  unsigned socket = 0;

  bool operator==(const FlushRequest& o) const {
    return vpage == o.vpage && ppage == o.ppage && count == o.count && socket == o.socket;
  }
  bool operator!=(const FlushRequest& o) const { return !(*this == o); }
};

struct AnnexConfig {
  unsigned entries = 64;      // TLB entries
  unsigned counter_bits = 8;  // i of T_i, 0..16
  unsigned socket = 0;        // the socket whose TLB this is (copied into every flush)
};

// The events the RTL accepts in one cycle. apply() runs them in the RTL's order: evict, fill,
// hit, load, phase mark.
struct AnnexBeat {
  struct Fill {
    unsigned index;
    uint64_t vpage, ppage;
  };
  std::optional<unsigned> evict;
  std::optional<Fill> fill;
  std::optional<unsigned> hit;
  std::optional<unsigned> load;
  bool phase = false;

  bool empty() const { return !evict && !fill && !hit && !load && !phase; }
};

class TlbCounterAnnexModel {
 public:
  explicit TlbCounterAnnexModel(const AnnexConfig& config);

  // A translation was installed: the entry starts with count 0, unmarked.
  void fill(unsigned index, uint64_t vpage, uint64_t ppage);
  // An LLC-missing load through the entry completed: count it, saturating at 2^i - 1.
  void llc_load(unsigned index);
  // A lookup hit the entry: if marked, flush it and clear the marker.
  std::optional<FlushRequest> hit(unsigned index);
  // The entry is displaced or invalidated: always flush it (count 0 still means "touched").
  FlushRequest evict(unsigned index);
  // A migration phase began: mark every entry.
  void phase_mark();
  // One RTL cycle's events; appends the flushes to `out` in the RTL's order.
  void apply(const AnnexBeat& beat, std::vector<FlushRequest>& out);

  uint32_t max_count() const { return max_count_; }
  unsigned entries() const { return static_cast<unsigned>(entries_.size()); }
  uint32_t count(unsigned index) const { return at(index).count; }
  bool marked(unsigned index) const { return at(index).marker; }

 private:
  struct Entry {
    uint64_t vpage = 0;
    uint64_t ppage = 0;
    uint32_t count = 0;
    bool marker = false;
  };
  void check(unsigned index) const;
  Entry& at(unsigned index) {
    check(index);
    return entries_[index];
  }
  const Entry& at(unsigned index) const {
    check(index);
    return entries_[index];
  }
  FlushRequest flush(Entry& e);

  std::vector<Entry> entries_;
  uint32_t max_count_;
  unsigned socket_;
};

}  // namespace starnuma
