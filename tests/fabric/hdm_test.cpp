// HDM interleaving (fabric/hdm_decoder.hpp; docs/cxl-device.md, "HDM decoders and interleaving"):
// devices of one set make one window of the address map whose chunks go to them in turn, each
// seeing dense device addresses, and whose bandwidth is theirs together.
#include <gtest/gtest.h>

#include <set>

#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "platform/probes.hpp"
#include "pool/cxl_pool.hpp"

namespace starnuma {
namespace {

const std::string kLinks = std::string(STARNUMA_SOURCE_DIR) + "/platforms/cxl-hpc-links-scaled.yaml";

// cxl-hpc-links-scaled's three pools (256 MiB each, one link each) as one set of `ways` of them.
std::vector<std::string> interleaved(unsigned ways, const std::string& granularity) {
  std::vector<std::string> sets;
  for (unsigned k = 0; k < ways; ++k) {
    const std::string p = "nodes.pool" + std::to_string(k) + ".hdm.";
    sets.insert(sets.end(), {p + "set=pools", p + "ways=" + std::to_string(ways), p + "position=" + std::to_string(k),
                             p + "granularity=" + granularity});
  }
  return sets;
}

const Fabric::Range& window(const Fabric& f, const std::string& name) {
  for (const Fabric::Range& r : f.address_map())
    if (r.name == name) return r;
  throw std::runtime_error("no window " + name);
}

TEST(Hdm, ASetIsOneWindowOfItsDevicesTogether) {
  auto p = Platform::build(kLinks, interleaved(3, "4KiB"));
  const Fabric& f = p->fabric();
  ASSERT_EQ(f.address_map().size(), 2u);  // the host's memory and the window
  const Fabric::Range& w = window(f, "pools");
  EXPECT_EQ(w.ways, 3u);
  EXPECT_EQ(w.size, 3 * (uint64_t{256} << 20));
  EXPECT_EQ(f.homes().size(), 4u);
  for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(f.homes()[w.first_home + k].node->basename(), "pool" + std::to_string(k));
}

TEST(Hdm, ChunksGoToTheDevicesInTurnAndEachSeesDenseAddresses) {
  auto p = Platform::build(kLinks, interleaved(3, "4KiB"));
  const Fabric& f = p->fabric();
  const Fabric::Range& w = window(f, "pools");
  uint64_t offset = 0;
  EXPECT_EQ(f.serving_home(w, w.base, offset), w.first_home);
  EXPECT_EQ(offset, 0u);
  EXPECT_EQ(f.serving_home(w, w.base + 4096 + 5, offset), w.first_home + 1);
  EXPECT_EQ(offset, 5u);
  EXPECT_EQ(f.serving_home(w, w.base + 2 * 4096, offset), w.first_home + 2);
  EXPECT_EQ(offset, 0u);
  EXPECT_EQ(f.serving_home(w, w.base + 3 * 4096 + 64, offset), w.first_home);
  EXPECT_EQ(offset, 4096u + 64);
  // Every device address of every device is reached once from the window's first chunks.
  std::set<std::pair<size_t, uint64_t>> seen;
  for (uint64_t a = 0; a < 3 * 16 * 4096; a += 64) {
    const size_t h = f.serving_home(w, w.base + a, offset);
    EXPECT_LT(offset, 16u * 4096);
    EXPECT_TRUE(seen.insert({h, offset}).second) << a;
  }
  EXPECT_EQ(seen.size(), 3u * 16 * 4096 / 64);
}

TEST(Hdm, OneWayIsTheDeviceAlone) {
  auto p = Platform::build(kLinks, {"nodes.pool0.hdm.set=alone"});
  const Fabric::Range& w = window(p->fabric(), "alone");
  EXPECT_EQ(w.ways, 1u);
  uint64_t offset = 0;
  EXPECT_EQ(p->fabric().serving_home(w, w.base + 123456, offset), w.first_home);
  EXPECT_EQ(offset, 123456u);
}

TEST(Hdm, TheUnloadedLatencyIsTheDevicesOwn) {
  auto p = Platform::build(kLinks, interleaved(2, "256B"));
  const LatencyMatrix m = measure_unloaded_latency(*p, false);
  ASSERT_EQ(m.nodes.size(), 3u);  // host, the window of pool0 and pool1, pool2
  EXPECT_EQ(m.nodes[1], "pools");
  EXPECT_EQ(m.latency[0][1], m.latency[0][2]);  // every pool is one CXL link away
}

BandwidthResult closed_loop(const std::vector<std::string>& sets, const std::string& to) {
  auto p = Platform::build(kLinks, sets);
  BandwidthOptions o;
  o.from = {"host"};
  o.to = to;
  o.requests = 20000;
  o.outstanding = 64;
  return measure_bandwidth(*p, o);
}

// Three devices behind three links: the window's capacity is theirs together, and a closed loop
// that saturates one device gets most of three times its bandwidth.
TEST(Hdm, BandwidthAddsUpOverTheWays) {
  const double one = std::stod(testing::in_child([] {
    const BandwidthResult r = closed_loop({}, "pool0");
    return std::to_string(r.achieved_gbps) + " " + std::to_string(r.capacity_gbps);
  }));
  EXPECT_GT(one, 0.8 * 9.6);  // one device: near its DDR5 channel's 9.6 GB/s
  const BandwidthResult three = closed_loop(interleaved(3, "256B"), "pools");
  EXPECT_DOUBLE_EQ(three.capacity_gbps, 3 * 9.6);
  EXPECT_GT(three.achieved_gbps, 2 * one);
  EXPECT_LE(three.achieved_gbps, three.capacity_gbps);
}

// A run's pages on the window (the platform interleaves pages over its NUMA nodes): every device
// serves an even share of the window's lines, and each balances its requests and responses.
TEST(Hdm, ARunSpreadsTheWindowsLinesOverItsDevices) {
  const RunResult r = testing::run_platform("cxl-hpc-links-scaled.yaml", "uniform:footprint=64MiB", 20000,
                                            Placement::FirstTouch, interleaved(3, "256B"));
  EXPECT_GT(r.breakdown[3], 0.3);  // the window is CXL memory: the pool's class
  std::vector<double> reads;
  for (const char* pool : {"pool0", "pool1", "pool2"}) reads.push_back(r.stats["nodes"][pool]["memory"]["reads"]);
  for (double n : reads) {
    EXPECT_GT(n, 1000);
    EXPECT_NEAR(n / reads[0], 1.0, 0.1);
  }
}

}  // namespace
}  // namespace starnuma
