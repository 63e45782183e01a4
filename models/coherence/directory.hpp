// A home's coherence directory: for each 64-byte block cached anywhere, its owner (the one socket
// holding it E or M) or its sharers (sockets that may hold it S). The directory does not tell E
// from M: an E owner upgrades silently.
//
// A socket home keeps its directory with its memory (unbounded here, like directory bits beside
// the data); the pool's directory is an SRAM of finite `entries` in `ways`-way sets with LRU
// replacement, so allocating may evict a live entry, whose copies must then be back-invalidated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/divisor.hpp"
#include "common/flat_map.hpp"
#include "common/units.hpp"

namespace starnuma {

struct DirEntry {
  uint64_t sharers = 0;  // bit s: socket s may hold it S (a superset: S copies leave silently)
  // The home serializes a block's transactions (a blocking directory): the latest one in time
  // holds the block from busy_from for busy_ps (kept in 32 bits so that an entry and its block
  // number fill half a host cache line).
  Time busy_from;
  uint32_t busy_ps = 0;
  int8_t owner = -1;  // socket holding the block E or M, or -1
  bool empty() const { return owner < 0 && sharers == 0; }
  // Every socket that may hold the block: the sharers and the owner, a bit per socket.
  uint64_t holders() const { return sharers | (owner >= 0 ? uint64_t{1} << owner : 0); }
  Time busy_until() const { return busy_from + Time::from_ps(busy_ps); }
  // When a transaction reaching the home at `t` starts: after the one in progress if t falls
  // inside it; at once if t is earlier (a request issued late by temporal decoupling), so the
  // simulation quantum does not make it wait for a transaction later in simulated time.
  Time start_at(Time t) const { return t >= busy_from && t < busy_until() ? busy_until() : t; }
  void hold(Time from, Time until) {
    if (until < busy_until()) return;
    const int64_t span = (until - from).ps();
    if (span < 0 || span > int64_t{UINT32_MAX}) hold_out_of_range(from, until);
    busy_from = from;
    busy_ps = static_cast<uint32_t>(span);
  }
  [[noreturn]] static void hold_out_of_range(Time from, Time until);
};

class Directory {
 public:
  // entries == 0: unbounded.
  Directory(uint64_t entries, unsigned ways);

  // The entry of `block`, counting as a use for LRU.
  DirEntry* find(uint64_t block);
  // The same without touching the replacement state (for the checker).
  const DirEntry* peek(uint64_t block) const;
  struct Victim {
    bool evicted = false;
    uint64_t block = 0;
    DirEntry entry;
  };
  // The entry of `block`, allocated empty if absent; an eviction that made room is in `victim`.
  DirEntry& obtain(uint64_t block, Victim& victim);
  // Frees the entry of `block` (no copies are left).
  void release(uint64_t block);
  bool bounded() const { return sets_.value() > 0; }
  uint64_t entries() const { return sets_.value() * ways_; }  // 0: unbounded
  unsigned ways() const { return ways_; }
  // Every entry as f(block, entry), a bounded directory's least recently used first (obtaining
  // them in this order in an empty directory of the same geometry rebuilds its replacement
  // state), an unbounded one's in the table's order.
  template <class F>
  void for_each_oldest_first(F&& f) const;
  size_t entries_in_use() const { return bounded() ? live_.size() : unbounded_.size(); }
  // Brings the entry's slot into the host's caches.
  void prefetch(uint64_t block) const {
    if (bounded()) live_.prefetch(block);
    else unbounded_.prefetch(block);
  }

 private:
  // Bounded, sparse: only the sets in use have storage, and only their ways' blocks (a lookup of
  // a set scans two host lines for 16 ways); each live entry, with its LRU stamp, is in one
  // open-addressing table by block. A directory of millions of entries then costs the host what
  // is cached, not what the SRAM could hold.
  static constexpr uint64_t kNoBlock = ~uint64_t{0};
  struct Live {
    DirEntry entry;
    uint64_t last_use = 0;
    uint64_t* way = nullptr;  // its block's way in its set (in the slot's spare bytes): a release finds it there
  };
  uint64_t* set_of(uint64_t block);  // its ways' blocks, built when first used

  Divisor sets_{0};  // 0: unbounded
  unsigned ways_ = 0;
  uint64_t clock_ = 0;  // LRU stamp
  FlatMap<DirEntry> unbounded_;
  FlatMap<Live> live_;              // bounded: the entries, by block
  FlatMap<uint64_t*> sets_in_use_;  // bounded: set -> its ways' blocks
  static constexpr size_t kSetsPerChunk = 1024;
  std::vector<std::unique_ptr<uint64_t[]>> chunks_;
  size_t chunk_used_ = kSetsPerChunk;  // sets taken from the newest chunk
};

template <class F>
void Directory::for_each_oldest_first(F&& f) const {
  if (!bounded()) {
    unbounded_.for_each(f);
    return;
  }
  std::vector<std::pair<uint64_t, uint64_t>> by_use;  // (last use, block)
  by_use.reserve(live_.size());
  live_.for_each([&](uint64_t block, const Live& l) { by_use.emplace_back(l.last_use, block); });
  std::sort(by_use.begin(), by_use.end());
  for (const auto& [use, block] : by_use) f(block, live_.find(block)->entry);
}

}  // namespace starnuma
