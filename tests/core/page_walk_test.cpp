// Page walks in memory: one core's cache hierarchy on a real platform, called directly. A cold walk
// reads all four levels from the walking socket's memory; a neighbouring page's walk starts at the
// PT (the PDE walk cache) and finds its PTE in the L1; a fixed walk makes no traffic.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/one_core.hpp"

namespace starnuma {
namespace {

TEST(PageWalk, AColdWalkReadsFourEntriesFromTheWalkersMemory) {
  OneCore c;
  const uint64_t vaddr = (3ull << 30) + (7ull << 21) + 5 * 4096 + 64;
  const int64_t latency = c.caches->access(vaddr, false, 0);
  EXPECT_EQ(c.stats.stlb_misses.value(), 1u);
  EXPECT_EQ(c.stats.walk_reads.value(), 4u);
  EXPECT_EQ(c.stats.walk_llc_misses.value(), 4u);
  EXPECT_EQ(c.stats.walk_l1_hits.value() + c.stats.walk_l2_hits.value() + c.stats.walk_llc_hits.value(), 0u);
  EXPECT_EQ(c.table->tables(), 4u);     // PML4, PDPT, PD, PT: frames of socket 0's memory
  EXPECT_EQ(c.pages->pages_on(0), 5u);  // and the data page
  // Four dependent memory reads, then the data's: at least five local memory latencies.
  const int64_t local_fs = c.fabric.unloaded_latency(0, c.own).ps() * 1000;
  EXPECT_GE(static_cast<int64_t>(c.stats.walk_latency_ps.value()) * 1000, 4 * local_fs);
  // The walk is its lookups (STLB, walk caches, the LLC per level: the L1 and L2 misses cost no
  // time of their own) and its four misses' time from issue to data, each at least a local read.
  const auto& core = c.s0.core_config();
  const int64_t misses_fs = static_cast<int64_t>(c.stats.walk_miss_latency_ps.value()) * 1000;
  EXPECT_GE(misses_fs, 4 * local_fs);
  const int64_t lookups_fs =
      (core.stlb.latency() + core.page_walk.cache_latency + 4 * c.llc->latency) * static_cast<int64_t>(c.cycle);
  // (to the picosecond each counter keeps: a walk's time and each miss's are counted in ps)
  EXPECT_NEAR(static_cast<double>(c.stats.walk_latency_ps.value()) * 1000, static_cast<double>(lookups_fs + misses_fs),
              5 * 1000);
  EXPECT_GE(latency, 5 * local_fs);
  EXPECT_EQ(c.stats.llc_misses.value(), 1u);  // the demand counters hold only the program's access
}

TEST(PageWalk, ANeighbouringPageReadsOnlyItsPteAndFindsItInTheL1) {
  OneCore c;
  const uint64_t vaddr = (7ull << 21) + 5 * 4096;
  c.caches->access(vaddr, false, 0);
  const uint64_t walked_ps = c.stats.walk_latency_ps.value();
  c.caches->access(vaddr + 4096, false, 10'000'000'000);  // the next page: its PTE shares the line
  EXPECT_EQ(c.stats.stlb_misses.value(), 2u);
  EXPECT_EQ(c.stats.walk_cache_hits[2].value(), 1u);  // PDE cache: the walk starts at the PT
  EXPECT_EQ(c.stats.walk_reads.value(), 5u);
  EXPECT_EQ(c.stats.walk_l1_hits.value(), 1u);
  // STLB lookup, walk-cache lookup, an L1 hit: 7 + 1 + 4 cycles exactly.
  const auto& core = c.s0.core_config();
  const int64_t expected_fs =
      (core.stlb.latency() + core.page_walk.cache_latency + core.l1d.latency()) * static_cast<int64_t>(c.cycle);
  EXPECT_EQ(static_cast<int64_t>(c.stats.walk_latency_ps.value() - walked_ps), expected_fs / 1000);
}

TEST(PageWalk, AFixedWalkMakesNoTraffic) {
  OneCore c({"topology.socket.core.page_walk.model=fixed"});
  const uint64_t vaddr = 9ull << 21;
  c.caches->access(vaddr, false, 0);
  EXPECT_EQ(c.stats.stlb_misses.value(), 1u);
  EXPECT_EQ(c.stats.walk_reads.value(), 0u);
  EXPECT_EQ(c.table->tables(), 0u);
  EXPECT_EQ(c.pages->pages_on(0), 1u);
}

}  // namespace
}  // namespace starnuma
