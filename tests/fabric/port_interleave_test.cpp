// Port interleaving (fabric/fabric.hpp, Fabric::PortSet; docs/cxl-device.md): a host with several
// links straight to one CXL device spreads its requests to the device over them, chunk k of the
// device's addresses (at its HDM granularity) over link k mod links, its coherence messages about
// a line with the line's accesses.
#include <gtest/gtest.h>

#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "platform/probes.hpp"

namespace starnuma {
namespace {

const std::string kTwoPorts = std::string(STARNUMA_SOURCE_DIR) + "/tests/inputs/pool-two-ports.yaml";

size_t home_named(const Fabric& f, const std::string& name) {
  for (size_t h = 0; h < f.homes().size(); ++h)
    if (f.homes()[h].node->basename() == name) return h;
  throw std::runtime_error("no home " + name);
}

TEST(PortInterleave, ChunksTakeTheLinksInTurn) {
  auto p = Platform::build(kTwoPorts, {"nodes.dev.hdm.granularity=1KiB"});
  const Fabric& f = p->fabric();
  const Fabric::PortSet* ports = f.ports(0, home_named(f, "dev"));
  ASSERT_NE(ports, nullptr);
  ASSERT_EQ(ports->routes.size(), 2u);
  EXPECT_EQ(std::string(ports->routes[0].hops.at(0).link->basename()), "link0");
  EXPECT_EQ(std::string(ports->routes[1].hops.at(0).link->basename()), "link1");
  EXPECT_EQ(ports->port(0), 0u);
  EXPECT_EQ(ports->port(1023), 0u);
  EXPECT_EQ(ports->port(1024), 1u);
  EXPECT_EQ(ports->port(2048 + 64), 0u);
  EXPECT_EQ(f.ports(0, home_named(f, "host")), nullptr);  // its own memory: no link at all
}

TEST(PortInterleave, OneLinkIsOneRoute) {
  auto p = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/cxl-hpc-links-scaled.yaml");
  const Fabric& f = p->fabric();
  for (size_t h = 0; h < f.homes().size(); ++h) EXPECT_EQ(f.ports(0, h), nullptr);
}

// Each link carries at most 8 GB/s of data back: a closed loop gets well over one link's worth.
TEST(PortInterleave, BandwidthAddsUpOverTheLinks) {
  auto p = Platform::build(kTwoPorts);
  BandwidthOptions o;
  o.from = {"host"};
  o.to = "dev";
  o.requests = 20000;
  o.outstanding = 64;
  const BandwidthResult r = measure_bandwidth(*p, o);
  EXPECT_DOUBLE_EQ(r.capacity_gbps, 2 * 8);  // the links together (the device's memory is wider)
  EXPECT_GT(r.achieved_gbps, 1.6 * 8);
  EXPECT_LE(r.achieved_gbps, 2 * 8);
}

// A coherent run on pages spread over the host's memory and the device: the links share the
// device's traffic evenly, the protocol's messages included.
TEST(PortInterleave, ACoherentRunSplitsTheDevicesTrafficOverItsLinks) {
  const RunResult r = testing::run_platform("../tests/inputs/pool-two-ports.yaml", "uniform:footprint=16MiB", 20000,
                                            Placement::FirstTouch);
  ASSERT_TRUE(r.coherence);
  // The protocol's messages (requests, data, acknowledgements), each way.
  for (const char* way : {"ab_messages", "ba_messages"}) {
    const double a = r.stats["links"]["link0"][way], b = r.stats["links"]["link1"][way];
    EXPECT_GT(a, 1000) << way;
    EXPECT_NEAR(b / a, 1.0, 0.1) << way;
  }
}

}  // namespace
}  // namespace starnuma
