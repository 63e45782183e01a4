// Transaction-level reference of rtl/tracker_update.sv (StarNUMA section III-D): the page-table
// walker folds a counter annex's flush into the in-memory metadata. Physical memory is split into
// regions of `pages_per_region` pages; region r's tracker entry lives at
// meta_base + r * entry_bytes() and holds one sharer bit per socket (bits sockets-1..0) and an
// i-bit access counter (the next counter_bits bits). Each update reads the entry and writes it
// back with the socket's bit set and the count added (saturating), skipping the write when nothing
// changes. The memory sees exactly the RTL's requests, in the RTL's order.
#pragma once

#include <cstdint>

#include "tracking/tlb_counter_annex_model.hpp"

namespace starnuma {

struct TrackerConfig {
  unsigned sockets = 16;            // sharer bits per entry (a power of two, >= 2)
  unsigned counter_bits = 8;        // i of T_i, 0..16
  uint64_t pages_per_region = 128;  // 512 KiB regions of 4 KiB pages (a power of two)
  uint64_t meta_base = 0;           // byte address of region 0's entry
};

// Where the metadata lives: a platform implements it with TLM transactions, a bench with a map.
// Data is one entry, entry_bytes() wide, in the low bits.
class MetadataMemory {
 public:
  virtual ~MetadataMemory() = default;
  virtual uint64_t read(uint64_t addr) = 0;
  virtual void write(uint64_t addr, uint64_t data) = 0;
};

class TrackerUpdateModel {
 public:
  explicit TrackerUpdateModel(const TrackerConfig& config);

  // One read, then a write if the entry changes. Returns whether it wrote.
  bool update(const FlushRequest& flush, MetadataMemory& memory) const;
  // The entry value after folding `flush` into `entry` (unused high bits are kept).
  uint64_t updated(uint64_t entry, const FlushRequest& flush) const;

  uint64_t region(uint64_t ppage) const { return ppage / config_.pages_per_region; }
  uint64_t entry_address(uint64_t ppage) const { return config_.meta_base + region(ppage) * entry_bytes_; }
  // The socket bits and counter rounded up to a power-of-two number of bytes (as the RTL does).
  unsigned entry_bytes() const { return entry_bytes_; }
  uint64_t entry_mask() const;
  uint32_t max_count() const { return (1u << config_.counter_bits) - 1; }
  // Decoding, for the OS's metadata scan and for tests.
  uint64_t sharers(uint64_t entry) const;
  uint32_t count(uint64_t entry) const;
  const TrackerConfig& config() const { return config_; }

 private:
  TrackerConfig config_;
  unsigned entry_bytes_;
};

}  // namespace starnuma
