// The metadata region's contents (StarNUMA section III-D, Fig. 5): one tracker entry per region of
// physical memory, at meta_base + region * entry_bytes, shared by every socket's tracker update.
// This is the data side only; the timing of each access is the fabric's (SocketTracking). It is
// what the OS model reads to pick migration candidates, and what `run --dump-trackers` writes.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tracking/tracker_update_model.hpp"

namespace starnuma {

class TrackerMetadata : public MetadataMemory {
 public:
  // `regions`: regions of the physical address space (its end / region size).
  TrackerMetadata(const TrackerConfig& config, uint64_t regions);

  uint64_t read(uint64_t addr) override { return entries_.get()[slot(addr)]; }
  void write(uint64_t addr, uint64_t data) override { entries_.get()[slot(addr)] = data & layout_.entry_mask(); }

  uint64_t regions() const { return regions_; }
  uint64_t base() const { return layout_.config().meta_base; }
  // Bytes of the metadata region (what is reserved in memory).
  uint64_t bytes() const { return regions_ * layout_.entry_bytes(); }
  const TrackerUpdateModel& layout() const { return layout_; }

  // For the OS's scan: region r's raw entry, its sharer bitmap (bit s: socket s flushed into it)
  // and its saturating access count (always 0 for T0).
  uint64_t entry(uint64_t region) const;
  uint64_t sharers(uint64_t region) const { return layout_.sharers(entry(region)); }
  uint32_t count(uint64_t region) const { return layout_.count(entry(region)); }
  // The scan's reset at the start of a migration phase.
  void clear();
  // Every non-zero entry as (region, entry), by region (a sampled unit's checkpoint), and the
  // metadata made those entries again (all others zero).
  std::vector<std::pair<uint64_t, uint64_t>> nonzero() const;
  void restore(const std::vector<std::pair<uint64_t, uint64_t>>& entries);
  // CSV, one line per region with a non-zero entry: region,address,sharers,sharer_count,count.
  std::string csv() const;

 private:
  size_t slot(uint64_t addr) const;

  TrackerUpdateModel layout_;
  uint64_t regions_;
  // calloc: the zero pages of an untouched region cost no memory.
  std::unique_ptr<uint64_t, decltype(&std::free)> entries_;
};

}  // namespace starnuma
