// Dynamic placement in time: the OS thread's scan cost, the wait of an access to a page in flight,
// whole runs that migrate (with perfect and tracker knowledge), and bad `os:` settings.
#include <gtest/gtest.h>

#include <limits>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "harness/one_core.hpp"
#include "os/migration_engine.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

RunResult run(const std::string& platform, const std::string& workload, uint64_t instructions,
              const std::vector<std::string>& sets) {
  return testing::run_platform(platform, workload, instructions, Placement::Dynamic, sets);
}

uint64_t core_sum(const RunResult& r, const char* key) {
  uint64_t n = 0;
  for (const auto& [name, node] : r.stats["nodes"].items())
    for (const auto& [part, stats] : node.items())
      if (part.rfind("core", 0) == 0) n += stats[key].get<uint64_t>();
  return n;
}

// The paper's check (section III-D4): 32 M entries of a T16 tracker (4 B each) take 64 to 320 M
// cycles, by the metadata's latency. Ours at 2.4 GHz, with the local (112 ns) and the pool's
// (180 ns) latency of the full-size machine.
TEST(Migration, TheScanCostsWhatThePaperMeasured) {
  const int64_t cycle_fs = 416667;
  const uint64_t entries = uint64_t{32} << 20;
  const uint64_t local = scan_cycles(entries, 4, Time::from_ns(112), cycle_fs, 2, 4);
  const uint64_t pool = scan_cycles(entries, 4, Time::from_ns(180), cycle_fs, 2, 4);
  EXPECT_GE(local, 64u << 20);
  EXPECT_LE(pool, 320u << 20);
  EXPECT_LT(local, pool);
  EXPECT_EQ(scan_cycles(16, 4, Time::from_ns(1), cycle_fs, 2, 4), 32u);  // work-bound when memory keeps up
}

// A page in flight: the access after its shootdown walks (entries in the L1), then waits for the
// copy's end exactly, then hits the L1.
TEST(Migration, AnAccessToAPageInFlightWaitsExactlyUntilItsCopyEnds) {
  OneCore c;
  const uint64_t vaddr = (5ull << 21) + 3 * 4096;
  c.caches->access(vaddr, false, 0);
  const int64_t t1 = 10'000'000'000, copy_end = 25'000'000'000;  // fs
  ASSERT_TRUE(c.caches->holds_translation(vaddr >> 12));
  c.caches->shoot_down(vaddr >> 12);
  c.pages->set_in_flight(vaddr >> 12, copy_end);
  const int64_t latency = c.caches->access(vaddr, false, t1);
  EXPECT_EQ(c.stats.shootdowns.value(), 1u);
  EXPECT_EQ(c.stats.stlb_misses.value(), 2u);
  const auto& core = c.s0.core_config();
  const int64_t walk_fs = (core.stlb.latency() + core.page_walk.cache_latency + core.l1d.latency()) * c.cycle;
  EXPECT_EQ(latency, copy_end + core.l1d.latency() * c.cycle - t1);
  EXPECT_EQ(static_cast<int64_t>(c.stats.migration_stall_ps.value()), (copy_end - t1 - walk_fs) / 1000);
  c.pages->clear_in_flight(vaddr >> 12);
  EXPECT_EQ(c.caches->access(vaddr, false, copy_end + 1'000'000), c.caches->l1_latency());  // translated again
}

// One copy in flight per destination: a busy destination's pages wait in decision order while a
// free destination's page goes ahead; the next ready time is the earliest busy destination's end.
TEST(Migration, EachDestinationCopiesOnePageAtATime) {
  CopyQueues q(3);
  q.fill({{10, 2, MoveKind::Candidate}, {11, 2, MoveKind::Candidate}, {12, 1, MoveKind::Candidate}});
  EXPECT_EQ(q.left(), 3u);
  EXPECT_EQ(q.take(0), 0u);  // node 2's first page
  q.copying_until(2, 500);
  EXPECT_EQ(q.take(100), 2u);  // node 2 is busy: node 1's page goes ahead of page 1
  q.copying_until(1, 300);
  EXPECT_EQ(q.take(200), CopyQueues::kNone);
  EXPECT_EQ(q.next_ready(), 500);  // node 1 is busy too but has nothing waiting
  EXPECT_EQ(q.take(499), CopyQueues::kNone);
  EXPECT_EQ(q.take(500), 1u);
  EXPECT_EQ(q.left(), 0u);
  EXPECT_EQ(q.next_ready(), std::numeric_limits<int64_t>::max());
  q.fill({{13, 2, MoveKind::Candidate}});  // a new phase: the copy still in flight holds node 2
  EXPECT_EQ(q.take(400), CopyQueues::kNone);
  EXPECT_EQ(q.next_ready(), 500);
}

// `sharing` with perfect knowledge: widely shared pages move to the pool, the accesses follow
// them, every shootdown reaches its holder, and the page map stays consistent (checked at the end
// of every dynamic run).
TEST(Migration, PerfectKnowledgeMovesSharedPagesToThePool) {
  RunResult r = run("starnuma16-scaled.yaml", "sharing:pages=1024", 150000,
                    {"os.phase_instructions=40000", "os.policy=perfect", "os.hi_start=128", "os.page_cycles=300",
                     "coherence.enabled=false"});
  const auto& m = r.migration;
  // Phases at 40 K, 80 K and 120 K of the mean thread, and one at 160 K of the clock once the
  // fastest threads have finished their 150 K (sharing's run 4x apart): those left carry it.
  EXPECT_EQ(m["phases"].get<uint64_t>(), 4u);
  EXPECT_GE(m["to_pool"].get<uint64_t>(), 10u);
  EXPECT_EQ(m["pages_moved"].get<uint64_t>(),
            m["to_pool"].get<uint64_t>() + m["from_pool"].get<uint64_t>() + m["socket_to_socket"].get<uint64_t>());
  EXPECT_GT(r.breakdown[3], 0.02);  // pool accesses: first touch alone never places a page there
  EXPECT_EQ(core_sum(r, "shootdowns") + m["shootdowns_unprocessed"].get<uint64_t>(),
            m["shootdowns_sent"].get<uint64_t>());
  EXPECT_EQ(r.migration_policy, "perfect per-page knowledge");
  EXPECT_GE(m["copies_in_flight_peak"].get<uint64_t>(), 1u);
  EXPECT_LE(m["copies_in_flight_peak"].get<uint64_t>(), 17u);  // one per destination node
}

// One thread chases through pages another socket first touched: once a phase sees them, they move
// to the chasing socket and its accesses become local.
TEST(Migration, PagesFollowTheirOnlyUser) {
  RunResult r = run("starnuma16-scaled.yaml", "chase:footprint=4MiB,operations=20000,init_thread=32", 100000,
                    {"os.phase_instructions=2000", "os.policy=perfect", "os.hi_start=128", "coherence.enabled=false"});
  EXPECT_GT(r.migration["socket_to_socket"].get<uint64_t>(), 500u);  // of the 1024 pages
  EXPECT_GT(static_cast<double>(r.accesses[0]) / static_cast<double>(r.accesses[0] + r.accesses[2]), 0.3);
}

TEST(Migration, TrackerKnowledgeRunsAlgorithm1OnTheMetadata) {
  RunResult r = run("starnuma16-scaled.yaml", "sharing:pages=4096", 40000,
                    {"os.phase_instructions=10000", "topology.socket.tracking.impl=model", "os.hi_start=50",
                     "coherence.enabled=false"});
  EXPECT_EQ(r.migration_policy, "Algorithm 1 on T16 trackers");
  EXPECT_GT(r.migration["to_pool"].get<uint64_t>(), 0u);
  EXPECT_GT(r.migration["per_phase"][0]["regions_scanned"].get<uint64_t>(), 0u);
  // Each phase says where the threads were when it began (the phases' clock, the mean thread's work
  // while no thread has finished, starts it, within the OS's poll of the boundary) and how many
  // pages were over HI, which HI adapts to: every candidate region's pages at least.
  uint64_t k = 0;
  for (const auto& p : r.migration["per_phase"]) {
    ++k;
    const uint64_t clock = p["clock_instructions"], mean = p["mean_instructions"];
    EXPECT_GE(clock, k * 10000) << "phase " << k;
    EXPECT_LT(clock, k * 10000 + 1000) << "phase " << k;
    EXPECT_LE(mean, clock) << "phase " << k;  // equal while no thread has finished
    EXPECT_LE(mean, p["furthest_instructions"].get<uint64_t>()) << "phase " << k;
    EXPECT_GE(p["pages_over_hi"].get<uint64_t>(), p["candidates"].get<uint64_t>()) << "phase " << k;
  }
  EXPECT_GT(k, 1u);
}

TEST(Migration, T0MovesOnlyRegionsEverySocketShares) {
  RunResult r = run("starnuma16-scaled.yaml", "sharing:pages=4096", 40000,
                    {"os.phase_instructions=10000", "topology.socket.tracking.impl=model",
                     "topology.socket.tracking.counter_bits=0", "coherence.enabled=false"});
  EXPECT_EQ(r.migration_policy, "Algorithm 1 on T0 trackers");
  EXPECT_EQ(r.migration["per_phase"][0]["hi"].get<uint64_t>(), 15u);
  EXPECT_EQ(r.migration["socket_to_socket"].get<uint64_t>(), 0u);
}

TEST(Migration, TrackerKnowledgeWithoutTrackingIsAConfigurationError) {
  auto r = testing::capture_report([] {
    run("starnuma16-scaled.yaml", "sharing:pages=256", 1000,
        {"os.policy=tracker", "topology.socket.tracking.impl=none"});
  });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_NE(r.message.find("os.policy: tracker needs the tracking hardware"), std::string::npos);
}

// Each elaboration in a child process (SystemC elaborates once per process).
TEST(Migration, OutOfRangeSettingsNameTheirKey) {
  for (const std::string set :
       {"os.migration_limit=300000", "os.phase_instructions=0", "os.placement=random", "os.pool_fraction=1.5"}) {
    const std::string message = testing::in_child([&] {
      auto r = testing::capture_report([&] { Platform::build(kPlatforms + "starnuma16-scaled.yaml", {set}); });
      return r.raised ? r.message : std::string("accepted");
    });
    EXPECT_NE(message.find(set.substr(0, set.find('='))), std::string::npos) << set << ": " << message;
  }
}

}  // namespace
}  // namespace starnuma
