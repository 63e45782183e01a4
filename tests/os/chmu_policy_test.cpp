// The CHMU-driven policy (os/chmu_policy.cpp): T0's sharer bits choose the pool's candidates, the
// pool device's hotlist judges which pool regions may leave; its epochs are the OS's phases, in
// continuous runs and in the sampled evaluation's functional pass alike.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "platform/platform.hpp"
#include "pool/pool_monitors.hpp"
#include "run/functional_pass.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

// A pool too small for every shared page, so that Algorithm 1 needs victims in it; T0 trackers.
// Phases of 5 K of the mean thread: sharing's threads run up to 8x apart, and T0 needs every socket
// still running (its fastest threads end their 150 K by the mean thread's 20 K).
const std::vector<std::string> kSmallPool = {"os.phase_instructions=5000", "os.page_cycles=300",
                                             "coherence.enabled=false", "os.pool_fraction=0.1",
                                             "topology.socket.tracking.counter_bits=0"};

std::vector<std::string> with(std::vector<std::string> sets, const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

RunResult run(const std::vector<std::string>& sets) {
  return testing::run_platform("starnuma16-scaled.yaml", "sharing:pages=1024", 150000, Placement::Dynamic, sets);
}

std::vector<std::string> chmu(const std::string& threshold) {
  return with(kSmallPool,
              {"os.migration=chmu", "nodes.pool.chmu.enabled=true", "nodes.pool.chmu.threshold=" + threshold});
}

uint64_t sum(const nlohmann::json& phases, const char* key) {
  uint64_t n = 0;
  for (const auto& p : phases) n += p[key].get<uint64_t>();
  return n;
}

TEST(ChmuPolicy, APoolRegionTheHotlistReportedStaysWhereT0WouldEvictIt) {
  // T0 alone: a pool region no socket's sharer bit marked in the phase leaves for a sharer.
  const std::string t0 =
      testing::in_child([] { return std::to_string(run(kSmallPool).migration["from_pool"].get<uint64_t>()); });
  ASSERT_GT(std::stoull(t0), 0u) << t0;
  // Any read makes a unit hot: the device saw the pool's regions read, so none leaves.
  const RunResult r = run(chmu("1"));
  EXPECT_EQ(r.migration_policy, "Algorithm 1 on T0 trackers, the pool's victims by its CHMU");
  const auto& phases = r.migration["per_phase"];
  EXPECT_EQ(r.migration["from_pool"].get<uint64_t>(), 0u);
  EXPECT_GT(sum(phases, "chmu_pool_regions_hot"), 0u);
  EXPECT_EQ(sum(phases, "chmu_pool_regions_cold"), 0u);
  EXPECT_GT(sum(phases, "no_victim"), 0u);  // the pool stayed full of hot regions
}

TEST(ChmuPolicy, APoolRegionTheHotlistDidNotReportLeaves) {
  const RunResult r = run(chmu("65535"));  // no unit reaches the threshold: every pool region is cold
  const auto& phases = r.migration["per_phase"];
  EXPECT_EQ(sum(phases, "chmu_hotlist_units"), 0u);
  EXPECT_EQ(sum(phases, "chmu_pool_regions_hot"), 0u);
  EXPECT_GT(sum(phases, "chmu_pool_regions_cold"), 0u);
  EXPECT_GT(sum(phases, "chmu_pool_victims"), 0u);
  EXPECT_GT(r.migration["from_pool"].get<uint64_t>(), 0u);
}

TEST(ChmuPolicy, ItsEpochsAreThePhasesAndTheOsDrainsEveryReport) {
  const RunResult r = run(chmu("1"));
  const auto& chmu_stats = r.stats["nodes"]["pool"]["chmu"];
  EXPECT_EQ(chmu_stats["epochs"].get<uint64_t>(), r.migration["phases"].get<uint64_t>());
  const uint64_t drained = sum(r.migration["per_phase"], "chmu_hotlist_units");
  EXPECT_GT(drained, 0u);
  EXPECT_EQ(chmu_stats["drained"].get<uint64_t>(), drained);
  EXPECT_EQ(chmu_stats["reported"].get<uint64_t>(), drained);
  EXPECT_EQ(chmu_stats["dropped"].get<uint64_t>(), 0u);
}

void expect_refused(const std::string& platform, const std::vector<std::string>& sets, const std::string& message) {
  const testing::Raised e = testing::capture_report(
      [&] { testing::run_platform(platform, "sharing:pages=1024", 10000, Placement::Dynamic, sets); });
  ASSERT_TRUE(e.raised);
  EXPECT_EQ(e.type, "starnuma/config");
  EXPECT_NE(e.message.find(message), std::string::npos) << e.message;
}

TEST(ChmuPolicy, RefusesAPoolWithoutItsMonitor) {
  expect_refused("starnuma16-scaled.yaml", {"os.migration=chmu"}, "chmu.enabled: true");
}

TEST(ChmuPolicy, RefusesPerfectKnowledge) {
  expect_refused("starnuma16-scaled.yaml", {"os.migration=chmu", "nodes.pool.chmu.enabled=true", "os.policy=perfect"},
                 "os.migration: chmu takes the pool's candidates from the trackers' sharer bits");
}

TEST(ChmuPolicy, RefusesAMachineWithoutAPool) {
  expect_refused("baseline16-scaled.yaml",
                 {"os.migration=chmu", "os.policy=tracker", "topology.socket.tracking.impl=model"},
                 "os.migration: chmu needs a StarNUMA pool");
}

// The sampled evaluation's functional pass feeds the device every pool request it applies (misses,
// dirty evictions, its page copies) and decides with the same policy.
void expect_the_pass_feeds_the_monitors(const std::string& platform, const std::vector<std::string>& sets,
                                        const std::string& workload) {
  auto p = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/" + platform, sets);
  const std::string out =
      (std::filesystem::temp_directory_path() / ("starnuma-chmu-pass-" + std::to_string(getpid()))).string();
  FunctionalPassOptions o;
  o.workload = workload;
  o.seed = 1;
  o.checkpoints = 3;
  o.out = out;
  const FunctionalPassResult r = run_functional_pass(*p, o);
  const auto& phases = r.manifest["phases"];
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_GT(sum(phases, "to_pool"), 0u);
  EXPECT_GT(sum(phases, "chmu_hotlist_units"), 0u);
  EXPECT_GT(sum(phases, "chmu_pool_regions_hot"), 0u);
  std::filesystem::remove_all(out);
}

TEST(ChmuPolicy, TheFunctionalPassFeedsTheMonitorAndDecidesWithIt) {
  expect_the_pass_feeds_the_monitors("platforms/starnuma16-scaled.yaml", chmu("1"), "sharing:pages=1024");
}

TEST(ChmuPolicy, TheFunctionalPassFeedsEachInterleavedDeviceItsChunks) {
  expect_the_pass_feeds_the_monitors("tests/inputs/pool-interleaved.yaml",
                                     {"os.migration=chmu", "os.phase_instructions=40000", "os.pool_fraction=0.1"},
                                     "sharing:pages=1024,sharers=4:1");
}

// A pool interleaved over two devices (tests/inputs/pool-interleaved.yaml): each device's CHMU
// counts its own chunks, and the policy reads both hotlists, each unit mapped back into the window.
TEST(ChmuPolicy, AnInterleavedPoolIsJudgedByAllItsDevicesMonitors) {
  auto p = Platform::build(
      std::string(STARNUMA_SOURCE_DIR) + "/tests/inputs/pool-interleaved.yaml",
      {"os.migration=chmu", "os.phase_instructions=40000", "os.pool_fraction=0.1", "coherence.enabled=false"});
  RunOptions o;
  o.workload = "sharing:pages=1024,sharers=4:1";
  o.instructions = 150000;
  o.placement = Placement::Dynamic;
  const RunResult r = run_workload(*p, o);
  const auto& phases = r.migration["per_phase"];
  EXPECT_GT(r.migration["to_pool"].get<uint64_t>(), 0u);
  EXPECT_GT(sum(phases, "chmu_hotlist_units"), 0u);
  EXPECT_GT(sum(phases, "chmu_pool_regions_hot"), 0u);
  for (const char* device : {"dev0", "dev1"})
    EXPECT_GT(r.stats["nodes"][device]["chmu"]["reported"].get<uint64_t>(), 0u) << device;
}

TEST(PoolMonitors, AnInterleavedDevicesOffsetsFillTheWindowOnce) {
  const uint64_t chunk = 256;
  for (size_t ways : {1, 2, 3, 4}) {
    const PoolMonitors m(std::vector<PoolChmu*>(ways, nullptr), chunk);
    std::vector<bool> seen(ways * 8 * chunk, false);
    for (size_t position = 0; position < ways; ++position)
      for (uint64_t d = 0; d < 8 * chunk; d += 64) {
        const uint64_t w = m.window_offset(position, d);
        ASSERT_LT(w, seen.size());
        EXPECT_FALSE(seen[w]) << ways << " ways: " << w << " twice";
        seen[w] = true;
        EXPECT_EQ(w / chunk % ways, ways == 1 ? 0 : position);  // chunk k is position k mod ways'
      }
  }
}

TEST(ChmuPolicy, SampledRunsRefuseAPolicyThatDecidesAtFaults) {
  auto p = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml",
                           {"os.migration=autonuma"});
  const testing::Raised e = testing::capture_report([&] {
    FunctionalPassOptions o;
    o.workload = "sharing:pages=1024";
    o.checkpoints = 1;
    o.streams_only = true;
    run_functional_pass(*p, o);
  });
  ASSERT_TRUE(e.raised);
  EXPECT_NE(e.message.find("run autonuma continuously"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace starnuma
