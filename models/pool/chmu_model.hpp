// Transaction-level reference of rtl/chmu.sv, the pool device's CXL Hotness Monitoring Unit (CXL
// 3.2 section 8.2.8): a set-associative table of per-unit access counts (Space-Saving replacement)
// and a hotlist ring the host drains. The same requests in the same order give the same hotlist,
// pointers, status bits and statistics as the RTL, without cycles: this is what a pool runs with
// `chmu.impl: model`, and what the RTL bench scores against. docs/cxl-device.md has the semantics.
#pragma once

#include <cstdint>
#include <vector>

namespace starnuma {

// The hardware's fixed sizes (the RTL's parameters).
struct ChmuGeometry {
  unsigned sets = 64;  // power of two, 2 or more
  unsigned ways = 4;   // power of two, 2 or more
  unsigned addr_bits = 40;
  unsigned counter_bits = 16;  // 2..32
  unsigned hotlist = 64;       // ring slots, a power of two; holds hotlist - 1 units
};

// The state bits of a CHMU of this geometry, as rtl/chmu.sv holds them: per table entry a tag (the
// unit index at the smallest unit, 256 B, less the set bits), a count and a valid bit; per hotlist
// slot a unit index and a count. Configuration, pointers and statistics registers not included.
uint64_t chmu_storage_bits(const ChmuGeometry& geometry);

// What the host writes to configure and enable the unit (the CHMU Configuration registers).
struct ChmuConfig {
  uint32_t threshold = 1;     // a unit is hot at this count, 1 .. 2^counter_bits - 1
  unsigned unit_shift = 12;   // log2 of the unit in bytes, 8 (256 B) .. 30
  unsigned ds_shift = 0;      // down-sampling: one tracked request in 2^ds_shift counts, 0..15
  bool random_ds = false;     // pick which by a 16-bit LFSR instead of a counter
  bool always_on = false;     // report at the threshold (else at the epoch's end)
  bool track_reads = true;    // M2S reads count
  bool track_writes = true;   // M2S writes count
  unsigned notify_level = 0;  // ring occupancy that sets level_crossed; 0: never
};

struct HotlistEntry {
  uint64_t unit = 0;  // device address >> unit_shift
  uint32_t count = 0;
  bool operator==(const HotlistEntry& o) const { return unit == o.unit && count == o.count; }
  bool operator!=(const HotlistEntry& o) const { return !(*this == o); }
};

struct ChmuStats {
  uint64_t counted = 0;      // requests counted (tracked type, kept by the down-sampling)
  uint64_t filtered = 0;     // requests of a type not tracked
  uint64_t sampled_out = 0;  // tracked requests the down-sampling skipped
  uint64_t replaced = 0;     // table misses that displaced a unit
  uint64_t reported = 0;     // units written to the hotlist
  uint64_t dropped = 0;      // hot units lost to a full hotlist
  bool operator==(const ChmuStats& o) const {
    return counted == o.counted && filtered == o.filtered && sampled_out == o.sampled_out && replaced == o.replaced &&
           reported == o.reported && dropped == o.dropped;
  }
};

class ChmuModel {
 public:
  explicit ChmuModel(const ChmuGeometry& geometry);  // std::invalid_argument when out of range

  // OP_CONFIG: enables with `config` (std::invalid_argument when out of range), empties the table
  // and the ring, clears the status bits and restarts the down-sampling.
  void configure(const ChmuConfig& config);
  // OP_READ / OP_WRITE: a request at device address `addr` (bytes). Ignored until configured.
  void access(uint64_t addr, bool write);
  // OP_EPOCH: epoch mode reports every unit at or above the threshold, in table order, then empties
  // the table; always-on mode only empties it.
  void end_epoch();
  // OP_HEAD: the host consumed the ring up to `head` (std::out_of_range past the tail).
  void set_head(unsigned head);
  // OP_CLEAR: the host clears overflow and level_crossed.
  void clear_status();

  // The host's convenience: appends the ring's entries from head to tail to `out`, moves the head.
  void drain(std::vector<HotlistEntry>& out);

  unsigned head() const { return head_; }
  unsigned tail() const { return tail_; }
  unsigned occupancy() const { return (tail_ - head_) & (geometry_.hotlist - 1); }
  bool full() const { return ((tail_ + 1) & (geometry_.hotlist - 1)) == head_; }
  bool enabled() const { return enabled_; }
  bool overflow() const { return overflow_; }
  bool level_crossed() const { return level_; }
  const HotlistEntry& entry(unsigned index) const { return ring_.at(index); }
  const ChmuStats& stats() const { return stats_; }
  const ChmuGeometry& geometry() const { return geometry_; }
  const ChmuConfig& config() const { return config_; }
  uint32_t max_count() const { return max_count_; }
  // The table, for coverage and waves: the count of the unit's entry (0 if not held).
  uint32_t held_count(uint64_t unit) const;
  // What the next tracked request would do to the down-sampling: counted or skipped.
  bool next_sampled() const;
  // Table state for the bench's coverage.
  bool set_full(uint64_t unit) const;
  uint64_t unit_of(uint64_t addr) const;

 private:
  struct Entry {
    uint64_t tag = 0;
    uint32_t count = 0;
    bool valid = false;
  };
  void push(uint64_t unit, uint32_t count);

  ChmuGeometry geometry_;
  ChmuConfig config_;
  unsigned set_bits_, way_bits_;
  uint64_t unit_mask_;
  uint32_t max_count_;
  std::vector<Entry> table_;  // set * ways + way
  std::vector<HotlistEntry> ring_;
  unsigned head_ = 0, tail_ = 0;
  bool enabled_ = false, overflow_ = false, level_ = false;
  uint16_t ds_count_ = 0, lfsr_ = 0;
  ChmuStats stats_;
};

}  // namespace starnuma
