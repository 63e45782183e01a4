// Saturation and loaded behaviour of whole paths, driven through the fabric.
#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "platform/probes.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

BandwidthResult run(const std::string& file, const char* from, const char* to, double write_fraction = 0,
                    std::optional<double> load = std::nullopt, bool random = false,
                    const std::vector<std::string>& sets = {}) {
  auto p = Platform::build(kPlatforms + file, sets);
  BandwidthOptions o;
  o.from = {from};
  o.to = to;
  o.write_fraction = write_fraction;
  o.load = load;
  o.requests = 50000;
  o.random = random;
  return measure_bandwidth(*p, o);
}

TEST(Saturation, UpiAchievesItsBandwidthWithinThreePercent) {
  auto r = run("starnuma16.yaml", "socket0", "socket1");
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 20.8);
  EXPECT_NEAR(r.achieved_gbps / 20.8, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.upi_socket0_socket1 (socket1->socket0)");
}

TEST(Saturation, NumalinkAchievesItsBandwidthWithinThreePercent) {
  auto r = run("starnuma16.yaml", "socket0", "socket8");
  EXPECT_NEAR(r.achieved_gbps / 13.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.numalink_flex0_flex4 (flex4->flex0)");
}

TEST(Saturation, CxlAchievesItsBandwidthWithinThreePercent) {
  auto r = run("starnuma16.yaml", "socket0", "pool");
  EXPECT_NEAR(r.achieved_gbps / 40.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.cxl_socket0_pool (pool->socket0)");
}

TEST(Saturation, WritesSaturateTheRequestDirection) {
  auto r = run("starnuma16.yaml", "socket0", "pool", 1.0);
  EXPECT_NEAR(r.achieved_gbps / 40.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.cxl_socket0_pool (socket0->pool)");
}

// Half reads, half writes: each direction of the CXL link carries a line of data (64 B) and a
// message without data (a read request or a write ack, 16 B) per two lines, so the path moves
// 40 GB/s x 2 x 64 / 80 = 64 GB/s, more than reads alone.
TEST(Saturation, AnEvenMixFillsBothDirections) {
  auto r = run("starnuma16.yaml", "socket0", "pool", 0.5);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 64.0);
  EXPECT_NEAR(r.achieved_gbps / 64.0, 1.0, 0.03) << r.achieved_gbps;
}

// 3:1 reads-writes: towards the socket go 0.75 x 64 + 0.25 x 16 = 52 bytes a line, the binding
// direction: 40 x 64 / 52 = 49.2 GB/s.
TEST(Saturation, AThreeToOneMixIsBoundByItsReads) {
  auto r = run("starnuma16.yaml", "socket0", "pool", 0.25);
  EXPECT_NEAR(r.capacity_gbps, 40.0 * 64 / 52, 1e-9);
  EXPECT_NEAR(r.achieved_gbps / r.capacity_gbps, 1.0, 0.05) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.cxl_socket0_pool (pool->socket0)");
}

// Each requester sends the mix itself: two sockets on links of their own, half writes, fill both
// directions of both links (had one sent every read and the other every write, each link would
// carry its data one way only and the pair 2 x 20.8 GB/s).
TEST(Saturation, EveryRequesterSendsTheMix) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  BandwidthOptions o;
  o.from = {"socket0", "socket1"};
  o.to = "socket2";
  o.write_fraction = 0.5;
  o.requests = 50000;
  BandwidthResult r = measure_bandwidth(*p, o);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 2 * 20.8 * 2 * 64 / 80);
  EXPECT_GT(r.achieved_gbps / r.capacity_gbps, 0.9) << r.achieved_gbps;
}

TEST(Saturation, ScaledLinksAreASeventhOfFullScale) {
  auto r = run("starnuma16-scaled.yaml", "socket0", "socket1");
  EXPECT_NEAR(r.achieved_gbps / (20.8 / 7), 1.0, 0.03) << r.achieved_gbps;
}

TEST(Saturation, LocalDdr5StreamsNearItsPeak) {
  auto r = run("starnuma16.yaml", "socket0", "socket0");
  EXPECT_GE(r.achieved_gbps, 0.85 * 6 * 38.4) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "nodes.socket0.memory (data buses)");
}

// The link's queueing alone: without refresh, random lines find their banks idle and precharged,
// as the unloaded probe does (refresh's own cost is in the DDR5 tests and docs/memory.md).
const std::vector<std::string> kNoRefresh{"topology.socket.memory.refresh=none"};

TEST(Loaded, LowLoadAddsLittleAndAchievesWhatIsOffered) {
  auto r = run("starnuma16.yaml", "socket0", "socket8", 0.0, 0.3, true, kNoRefresh);
  EXPECT_NEAR(r.achieved_gbps / r.offered_gbps, 1.0, 0.03);
  EXPECT_GE(r.mean_latency_ns, 360.0);
  EXPECT_LT(r.mean_latency_ns, 365.0);  // M/D/1 at rho 0.3 on the NUMALink: about 1 ns of wait
}

TEST(Loaded, HighLoadQueuesAsMD1Predicts) {
  // At load 0.9 the NUMALink's M/D/1 wait is 0.9 * 4.92 ns / 0.2 = 22 ns; the other hops add little.
  auto r = run("starnuma16.yaml", "socket0", "socket8", 0.0, 0.9, true, kNoRefresh);
  EXPECT_GT(r.mean_latency_ns, 360.0 + 15);
  EXPECT_LT(r.mean_latency_ns, 360.0 + 35);
  EXPECT_GT(r.p99_latency_ns, r.mean_latency_ns);
  EXPECT_LE(r.p50_latency_ns, r.p99_latency_ns);
  EXPECT_LE(r.p99_latency_ns, r.p999_latency_ns);
}

// A controller that moves 30 GB/s whatever the mix (a real expander's plateau, docs/hardware.md):
// every mix the CXL link carries faster (49-64 GB/s) stops at the controller; reads alone still
// stop at the link's 40 when the limit is above it; the idle latency is the same (the stage adds
// only waiting).
const std::vector<std::string> kPoolAt30{"nodes.pool.throughput=30GB/s"};

class DeviceThroughput : public ::testing::TestWithParam<double> {};

TEST_P(DeviceThroughput, BindsAMixTheLinkCarriesFaster) {
  auto r = run("starnuma16.yaml", "socket0", "pool", GetParam(), std::nullopt, false, kPoolAt30);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 30.0);
  EXPECT_NEAR(r.achieved_gbps / 30.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "nodes.pool (controller throughput)");
}

INSTANTIATE_TEST_SUITE_P(Mixes, DeviceThroughput, ::testing::Values(0.5, 1.0 / 3, 0.25));

// Writes that hold the controller for less time than reads (write_throughput): a mix with the
// fraction w of writes moves 64 B per (1 - w) / 20 + w / 40 ns-per-GB, the harmonic blend, and the
// reads alone still 20.
class DeviceWriteThroughput : public ::testing::TestWithParam<double> {};

TEST_P(DeviceWriteThroughput, BlendsTheReadAndWriteRates) {
  const double w = GetParam(), expected = 1 / ((1 - w) / 20.0 + w / 40.0);
  auto r = run("starnuma16.yaml", "socket0", "pool", w, std::nullopt, false,
               {"nodes.pool.throughput=20GB/s", "nodes.pool.write_throughput=40GB/s"});
  EXPECT_NEAR(r.capacity_gbps, expected, 1e-6 * expected);
  EXPECT_NEAR(r.achieved_gbps / expected, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "nodes.pool (controller throughput)");
}

INSTANTIATE_TEST_SUITE_P(Mixes, DeviceWriteThroughput, ::testing::Values(0.0, 0.25, 0.5));

TEST(Saturation, ADeviceThroughputLimitAboveTheLinkLeavesItTheBottleneck) {
  auto r = run("starnuma16.yaml", "socket0", "pool", 0, std::nullopt, false, {"nodes.pool.throughput=50GB/s"});
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 40.0);
  EXPECT_NEAR(r.achieved_gbps / 40.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.cxl_socket0_pool (pool->socket0)");
}

TEST(Loaded, ADeviceThroughputLimitQueuesAsMD1Predicts) {
  // Poisson reads at 0.8 of the controller's 30 GB/s: its M/D/1 wait is 0.8 x 2.13 ns / 0.4 =
  // 4.3 ns; the link's data direction, at 0.6 of its 40 GB/s, adds 1.2 ns. Unloaded, a read of the
  // pool takes 180 ns (banks idle without refresh).
  std::vector<std::string> sets = kPoolAt30;
  sets.insert(sets.end(), kNoRefresh.begin(), kNoRefresh.end());
  sets.push_back("nodes.pool.memory.refresh=none");
  auto r = run("starnuma16.yaml", "socket0", "pool", 0.0, 0.8, true, sets);
  EXPECT_NEAR(r.achieved_gbps / r.offered_gbps, 1.0, 0.03);
  EXPECT_GT(r.mean_latency_ns, 180.0 + 3);
  EXPECT_LT(r.mean_latency_ns, 180.0 + 12);
}

TEST(Usage, AWriteThroughputWithoutAThroughputIsRefused) {
  auto r = testing::capture_report(
      [] { Platform::build(kPlatforms + "starnuma16.yaml", {"nodes.pool.write_throughput=30GB/s"}); });
  EXPECT_NE(r.message.find("write_throughput"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("needs its throughput"), std::string::npos) << r.message;
}

TEST(Usage, ADeviceThroughputBelowTenMegabytesIsRefused) {
  auto r =
      testing::capture_report([] { Platform::build(kPlatforms + "starnuma16.yaml", {"nodes.pool.throughput=1MB/s"}); });
  EXPECT_NE(r.message.find("throughput"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("at least 10 MB/s"), std::string::npos) << r.message;
}

// Every socket reading the pool at random: the CXL links (16 x 40 GB/s) carry more than the
// pool's 16 channels deliver (614.4 GB/s peak; random reads reach 86 % of it in steady state, and
// the ramp up and down of 100 K reads over 32 subchannels costs a few per cent more), so the pool's
// memory is the bottleneck, below refresh's bound (1 - tRFC / tREFI = 89.5 %).
TEST(Saturation, AllSocketsSaturateThePoolsMemory) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  BandwidthOptions o;
  o.from = {"all"};
  o.to = "pool";
  o.random = true;
  o.requests = 100000;
  o.outstanding = 4096;
  BandwidthResult r = measure_bandwidth(*p, o);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 16 * 38.4);
  EXPECT_EQ(r.bottleneck, "nodes.pool.memory (data buses)");
  EXPECT_GT(r.achieved_gbps / r.capacity_gbps, 0.78) << r.achieved_gbps;
  EXPECT_LT(r.achieved_gbps / r.capacity_gbps, 1.0 - 410.0 / 3900.0) << r.achieved_gbps;
}

// Two sockets to a third in their chassis: each has its own UPI link, so twice one link's bandwidth.
TEST(Saturation, SeveralRequestersAddTheirLinks) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  BandwidthOptions o;
  o.from = {"socket0", "socket1"};
  o.to = "socket2";
  o.requests = 50000;
  BandwidthResult r = measure_bandwidth(*p, o);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 2 * 20.8);
  EXPECT_NEAR(r.achieved_gbps / r.capacity_gbps, 1.0, 0.03) << r.achieved_gbps;
}

TEST(Usage, UnknownEndpointsAreUserErrors) {
  auto r = testing::capture_report([] { run("starnuma16.yaml", "socket99", "pool"); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/usage");
  EXPECT_NE(r.message.find("no socket named 'socket99'"), std::string::npos);
}

TEST(Conservation, AnUnansweredRequestFailsLoudly) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  p->fabric().check_conservation();  // nothing sent: balanced
  Link* l = p->links().front();
  l->count_request(*l->node_a());  // a request with no response
  auto r = testing::capture_report([&] { p->fabric().check_conservation(); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/model");
  EXPECT_NE(r.message.find(l->path()), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
