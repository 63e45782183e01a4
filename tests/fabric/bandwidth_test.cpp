// Saturation and loaded behaviour of whole paths, driven through the fabric.
#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "platform/probes.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

BandwidthResult run(const std::string& file, const char* from, const char* to, MemOp op = MemOp::Read,
                    std::optional<double> load = std::nullopt, bool random = false) {
  auto p = Platform::build(kPlatforms + file);
  BandwidthOptions o;
  o.from = from;
  o.to = to;
  o.op = op;
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
  auto r = run("starnuma16.yaml", "socket0", "pool", MemOp::Write);
  EXPECT_NEAR(r.achieved_gbps / 40.0, 1.0, 0.03) << r.achieved_gbps;
  EXPECT_EQ(r.bottleneck, "links.cxl_socket0_pool (socket0->pool)");
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

TEST(Loaded, LowLoadAddsLittleAndAchievesWhatIsOffered) {
  // Random lines find their banks idle and precharged, as the unloaded probe does.
  auto r = run("starnuma16.yaml", "socket0", "socket8", MemOp::Read, 0.3, true);
  EXPECT_NEAR(r.achieved_gbps / r.offered_gbps, 1.0, 0.03);
  EXPECT_GE(r.mean_latency_ns, 360.0);
  EXPECT_LT(r.mean_latency_ns, 365.0);  // M/D/1 at rho 0.3 on the NUMALink: about 1 ns of wait
}

TEST(Loaded, HighLoadQueuesAsMD1Predicts) {
  // At load 0.9 the NUMALink's M/D/1 wait is 0.9 * 4.92 ns / 0.2 = 22 ns; the other hops add little.
  auto r = run("starnuma16.yaml", "socket0", "socket8", MemOp::Read, 0.9, true);
  EXPECT_GT(r.mean_latency_ns, 360.0 + 15);
  EXPECT_LT(r.mean_latency_ns, 360.0 + 35);
  EXPECT_GT(r.p99_latency_ns, r.mean_latency_ns);
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
