// One core's path to memory: DTLB, STLB and page walk; L1D and L2 (private); the socket's shared,
// non-inclusive LLC; on an LLC miss, the fabric. Caches are physically tagged, write-back and
// write-allocate. A dirty victim goes one level down (from the LLC, to memory as a write that
// loads the fabric but does not stall the core). Latencies are in femtoseconds of simulated time.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/cache_array.hpp"
#include "common/stats.hpp"
#include "core/core_config.hpp"
#include "core/tracking_hook.hpp"
#include "fabric/fabric.hpp"
#include "os/page_map.hpp"

namespace starnuma {

// The LLC of a socket and the limit on its outstanding misses, shared by its cores.
struct SocketLlc {
  SocketLlc(const LlcConfig& config, unsigned cores, uint64_t seed);
  CacheArray array;
  unsigned latency;
  std::vector<int64_t> miss_done;  // ring: completion (fs) of the last `mshrs` misses
  size_t head = 0;
};

// Counters of one core's memory accesses (registered on the core).
struct MemoryStats {
  explicit MemoryStats(StatOwner& owner);
  Counter dtlb_misses, stlb_misses, l1_hits, l1_misses, l2_hits, l2_misses, llc_hits, llc_misses, writebacks;
  // Demand accesses served by memory, by class (local, 1-hop, 2-hop, pool): count, measured
  // latency from LLC miss to data, and the unloaded latency of the same (socket, node) pairs.
  Counter memory_accesses[4], memory_latency_ps[4], memory_unloaded_ps[4];
};

class CacheHierarchy {
 public:
  struct Env {
    Fabric* fabric;
    PageMap* pages;
    size_t requester;      // the socket's index among the fabric's requesters
    SocketLlc* llc;
    TlbObserver* observer;  // may be null
    unsigned core;         // global core id, for the observer
    int64_t cycle_fs;      // one core cycle
  };

  CacheHierarchy(const CoreConfig& config, const Env& env, MemoryStats& stats, uint64_t seed);

  // Serves a load or store issued at `now` (fs); returns its latency (fs).
  int64_t access(uint64_t vaddr, bool write, int64_t now);
  // A light core's access (mixed modality): no TLB, L1 or L2, only the socket's LLC as a filter in
  // front of memory. Returns its latency (fs).
  int64_t light_access(uint64_t vaddr, bool write, int64_t now);
  // True when the access would certainly hit the DTLB and L1 (no side effects).
  bool certain_l1_hit(uint64_t vaddr) const;
  int64_t l1_latency() const { return l1_latency_; }

 private:
  uint64_t translate(uint64_t vaddr, int64_t& t);
  void write_back_from_l1(uint64_t line, int64_t t);
  void write_back_from_l2(uint64_t line, int64_t t);
  void write_back_to_memory(uint64_t line, int64_t t);
  // From the LLC down: lookup, and on a miss the fabric; returns the time the data is back.
  // `store`: the access is a store; `dirty_here`: it dirties the LLC line (no private cache above).
  int64_t llc_and_memory(uint64_t vaddr, uint64_t paddr, bool store, bool dirty_here, int64_t t);

  Env env_;
  MemoryStats& stats_;
  CacheArray dtlb_, stlb_, l1_, l2_;
  int64_t l1_latency_, l2_latency_, llc_latency_, stlb_latency_, walk_latency_;
  std::vector<int64_t> unloaded_ps_;         // per address range
  std::vector<AccessClass> class_;           // per address range
};

}  // namespace starnuma
