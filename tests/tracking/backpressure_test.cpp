// Backpressure from the tracking hardware into a core: one core's cache hierarchy, observed by its
// socket's real SocketTracking, outside a run: a SystemC process stands in for the core and calls
// the hierarchy at chosen times (the tracker's own process serves the updates).
#include <gtest/gtest.h>

#include <cmath>

#include "common/local_time.hpp"
#include "core/cache_hierarchy.hpp"
#include "paging/page_map.hpp"
#include "platform/platform.hpp"
#include "socket/socket.hpp"
#include "tracking/platform_tracking.hpp"

namespace starnuma {
namespace {

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";
constexpr unsigned kDepth = 2, kIssueCycles = 1000;
constexpr int64_t kUs = 1000LL * 1000 * 1000;  // fs

struct StatsOwner : StatOwner {};

uint64_t stat(const SocketTracking& t, const char* name) { return t.find_stat(name)->to_json(sc_core::SC_ZERO_TIME); }

// An annex on the L1 DTLB, a queue of 2 and 1000 cycles from a flush to its read: at one instant,
// two DTLB misses that evict find room; the third waits until the first one's update starts,
// exactly 1000 cycles, and a DTLB hit at the same instant waits as long: the annex holds the TLB
// until its flush is taken.
TEST(Backpressure, AFullQueueDelaysTheTranslationByExactlyTheWait) {
  auto p = Platform::build(kPlatform, {"topology.socket.tracking.impl=model", "topology.socket.tracking.tlb=l1",
                                       "topology.socket.tracking.queue_depth=" + std::to_string(kDepth),
                                       "topology.socket.tracking.issue_cycles=" + std::to_string(kIssueCycles)});
  Fabric& fabric = p->fabric();
  auto tracking = PlatformTracking::attach(fabric, tracked_sockets(fabric));
  Socket& s0 = *fabric.requesters()[0];
  size_t own = 0;
  while (fabric.address_map()[own].node != &s0) ++own;
  const Fabric::Range& r = fabric.address_map()[own];
  PageMap pages(4096, {{"socket0", r.base, r.size, true}}, {{0}});
  SocketLlc llc(s0.llc_config(), s0.cores(), 1, fabric.map_end() / kLineBytes);
  s0.tracking().bind_llc(&llc, nullptr);  // the metadata requests go through it
  StatsOwner owner;
  MemoryStats stats(owner);
  const int64_t cycle = std::llround(1e15 / s0.frequency().hz());
  PageTable page_table(pages);
  CacheHierarchy::RunContext run{&pages, &llc, s0.observer()};
  run.page_table = &page_table;
  CacheHierarchy h(s0.core_config(), CacheHierarchy::Uplink{&fabric, 0, 0}, run, cycle, stats, 1);
  const unsigned entries = s0.core_config().dtlb.entries();

  // The core's process: each access once SystemC time has reached it (the tracker serves its
  // updates in time order, so the core must not run ahead).
  const auto at = [](int64_t fs) {
    wait_until_fs(fs);
    return fs;
  };
  bool ran = false;
  sc_core::sc_spawn([&] {
    // Warm up: pages 0..entries+kDepth, one line each in a different L1 set, 10 us apart (each
    // update has long ended before the next flush). The DTLB overflows: kDepth + 1 evictions.
    const auto vaddr = [](uint64_t page) { return page * 4096 + page % 64 * 64; };
    for (uint64_t k = 0; k <= entries + kDepth; ++k) h.access(vaddr(k), false, at(static_cast<int64_t>(k) * 10 * kUs));
    ASSERT_EQ(stat(s0.tracking(), "flushes"), kDepth + 1);
    ASSERT_EQ(stat(s0.tracking(), "stalled_flushes"), 0u);

    // At 1 ms: every page the DTLB lost, at once. Each is an STLB hit and an L1 hit whose fill evicts.
    std::vector<uint64_t> lost;
    for (uint64_t k = 0; k <= entries + kDepth; ++k)
      if (!h.certain_l1_hit(vaddr(k))) lost.push_back(k);
    ASSERT_EQ(lost.size(), kDepth + 1);
    const int64_t hit = s0.core_config().stlb.latency() * cycle + h.l1_latency();
    const int64_t wait = (kIssueCycles * cycle + 999) / 1000 * 1000;  // the stall is in whole ps
    for (unsigned k = 0; k < lost.size(); ++k) {
      EXPECT_EQ(h.access(vaddr(lost[k]), false, at(1000 * kUs)), hit + (k < kDepth ? 0 : wait)) << "access " << k;
      // The third held the core's process in SystemC until its flush was taken: the core's window
      // must send nothing after it before then (a fence at the resumption), or the memories would
      // meet those accesses in their past.
      EXPECT_EQ(h.take_fault_end(), k < kDepth ? 0 : sim_now_fs()) << "access " << k;
    }
    EXPECT_GT(sim_now_fs(), 1000 * kUs);
    const uint64_t kept = entries + kDepth;  // the last page warmed up: still in the DTLB
    ASSERT_TRUE(h.certain_l1_hit(vaddr(kept)));
    // A hit when the flushes happened (after the STLB's latency; the observer sees whole ps).
    const int64_t flushed = (1000 * kUs + s0.core_config().stlb.latency() * cycle) / 1000 * 1000;
    EXPECT_EQ(h.access(vaddr(kept), false, at(flushed)), wait + h.l1_latency());
    EXPECT_EQ(stat(s0.tracking(), "stalled_flushes"), 1u);
    EXPECT_EQ(stat(s0.tracking(), "core_stall_cycles"), static_cast<uint64_t>(wait / cycle));
    EXPECT_EQ(stats.stlb_misses.value(), entries + kDepth + 1);  // the re-accesses hit the STLB
    ran = true;
  });
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace starnuma
