// Unloaded latencies measured by probe transactions, against the StarNUMA paper's numbers.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "harness/in_child.hpp"
#include "platform/probes.hpp"
#include "socket/socket.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

// Expected latency (ns) from socket s to node n for a Superdome Flex with 4 sockets per chassis.
double expected(const std::string& s, const std::string& n, double pool) {
  if (n == "pool") return pool;
  int a = std::stoi(s.substr(6)), b = std::stoi(n.substr(6));
  if (a == b) return 80;
  return a / 4 == b / 4 ? 130 : 360;
}

void expect_matrix(const std::string& file, double pool, size_t sockets) {
  auto p = Platform::build(kPlatforms + file);
  LatencyMatrix m = measure_unloaded_latency(*p, false);
  ASSERT_EQ(m.sockets.size(), sockets);
  ASSERT_EQ(m.nodes.size(), sockets + (pool > 0 ? 1 : 0));
  for (size_t s = 0; s < m.sockets.size(); ++s)
    for (size_t n = 0; n < m.nodes.size(); ++n)
      EXPECT_EQ(m.latency[s][n].ns(), expected(m.sockets[s], m.nodes[n], pool)) << m.sockets[s] << " -> " << m.nodes[n];
}

TEST(UnloadedLatency, Baseline16Is80Local130SameChassis360OtherChassis) { expect_matrix("baseline16.yaml", 0, 16); }
TEST(UnloadedLatency, Starnuma16ReachesThePoolIn180FromEverySocket) { expect_matrix("starnuma16.yaml", 180, 16); }
TEST(UnloadedLatency, PoolBehindOneSwitchIs275) { expect_matrix("starnuma16-switch.yaml", 275, 16); }
TEST(UnloadedLatency, Starnuma8HasTheSamePaths) { expect_matrix("starnuma8.yaml", 180, 8); }
TEST(UnloadedLatency, Starnuma32ReachesThePoolThroughSwitchesIn275) { expect_matrix("starnuma32.yaml", 275, 32); }
TEST(UnloadedLatency, ScalingChangesBandwidthNotLatency) { expect_matrix("starnuma16-scaled.yaml", 180, 16); }

// Changing one latency parameter moves exactly the entries whose path uses it, by the expected
// amount (twice the per-direction change, once per direction).
struct Shift {
  const char* set;
  double local, same_chassis, other_chassis, pool;
};

class OneParameter : public ::testing::TestWithParam<Shift> {};

TEST_P(OneParameter, MovesExactlyTheAffectedEntries) {
  const Shift& d = GetParam();
  auto p = Platform::build(kPlatforms + "starnuma16.yaml", {d.set});
  LatencyMatrix m = measure_unloaded_latency(*p, false);
  ASSERT_EQ(m.nodes.size(), 17u);
  for (size_t s = 0; s < 16; ++s)
    for (size_t n = 0; n < 17; ++n) {
      double base = expected(m.sockets[s], m.nodes[n], 180);
      double shift = n == 16 ? d.pool : base == 80 ? d.local : base == 130 ? d.same_chassis : d.other_chassis;
      EXPECT_EQ(m.latency[s][n].ns(), base + shift) << d.set << ": " << m.sockets[s] << " -> " << m.nodes[n];
    }
}

INSTANTIATE_TEST_SUITE_P(Set, OneParameter,
                         ::testing::Values(Shift{"topology.upi.latency=20ns", 0, 10, 20, 0},
                                           Shift{"topology.socket.upi_port_latency=7ns", 0, 8, 8, 0},
                                           Shift{"topology.numalink.latency=57ns", 0, 0, 14, 0},
                                           Shift{"topology.flex_asic.latency=26ns", 0, 0, 4, 0},
                                           Shift{"topology.cxl.latency=6ns", 0, 0, 0, 2},
                                           Shift{"topology.cxl.retimer_latency=15ns", 0, 0, 0, 10},
                                           Shift{"topology.cxl.retimers=2", 0, 0, 0, 20},
                                           Shift{"topology.socket.cxl_port_latency=20ns", 0, 0, 0, 15},
                                           Shift{"topology.pool.port_latency=15ns", 0, 0, 0, 5},
                                           Shift{"topology.pool.internal_latency=12ns", 0, 0, 0, 4},
                                           Shift{"topology.pool.memory.t_cl=20.667ns", 0, 0, 0, 4},
                                           Shift{"topology.socket.memory.t_rcd=18.667ns", 2, 2, 2, 0},
                                           Shift{"topology.socket.uncore_latency=50ns", 10, 10, 10, 10}),
                         [](const ::testing::TestParamInfo<Shift>& i) {
                           std::string n = i.param.set;
                           n = n.substr(9, n.find('=') - 9);
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(UnloadedLatency, PathsAddUpToTheMeasuredLatency) {
  auto p = Platform::build(kPlatforms + "starnuma16-switch.yaml");
  LatencyMatrix m = measure_unloaded_latency(*p, true);
  for (size_t s = 0; s < m.sockets.size(); ++s)
    for (size_t n = 0; n < m.nodes.size(); ++n) {
      Time sum;
      for (const PathStep& step : m.paths[s][n].steps) sum = sum + step.time;
      EXPECT_EQ(sum, m.latency[s][n]) << m.sockets[s] << " -> " << m.nodes[n];
    }
  EXPECT_EQ(m.routes[0][16], "socket0 -cxl-> cxl_switch0 -cxl-> pool");
  EXPECT_EQ(m.routes[0][8], "socket0 -upi-> flex0 -numalink-> flex4 -upi-> socket8");
}

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

// The run's AMAT split uses the fabric's computed unloaded latencies; they must equal what the
// probes measure, on a platform with switches and all four access classes.
TEST(UnloadedLatency, ComputedEqualsMeasuredForEveryPair) {
  auto p = Platform::build(kPlatforms + "starnuma16-switch.yaml");
  LatencyMatrix m = measure_unloaded_latency(*p, false);
  const Fabric& f = p->fabric();
  for (size_t s = 0; s < m.sockets.size(); ++s)
    for (size_t n = 0; n < m.nodes.size(); ++n) EXPECT_EQ(f.unloaded_latency(s, n), m.latency[s][n]) << s << " " << n;
  EXPECT_EQ(f.access_class(0, 0), AccessClass::Local);
  EXPECT_EQ(f.access_class(0, 3), AccessClass::OneHop);
  EXPECT_EQ(f.access_class(0, 4), AccessClass::TwoHop);
  EXPECT_EQ(f.access_class(0, 16), AccessClass::Pool);
}

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

// Untraced accesses and coherence messages take the fabric's compiled paths, traced ones walk the
// routes hop by hop: the two must time every one alike, loaded and out of order too. The same
// random sequence (accesses, and messages either way between a socket and another socket or a
// pool) goes to a platform with switches and all four access classes twice: traced in a child
// process (one SystemC elaboration per process), untraced here. Completion times as text, one per
// line.
std::string completions(bool traced, size_t* loaded) {
  auto p = Platform::build(kPlatforms + "starnuma16-switch.yaml");
  Fabric& f = p->fabric();
  const auto& map = f.address_map();
  uint64_t rng = 12345;
  const auto next = [&rng] {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  std::string out;
  int64_t clock_ps = 0;
  for (int i = 0; i < 20000; ++i) {
    const size_t r = next() % f.requesters().size();
    const size_t k = next() % map.size();
    const uint64_t address = map[k].base + (next() % (map[k].size / 64)) * 64;
    const MemOp op = next() % 4 == 0 ? MemOp::Write : MemOp::Read;
    clock_ps += 300;
    const Time issue = Time::from_ps(clock_ps - static_cast<int64_t>(next() % 1'000'000));  // up to 1 us late
    PathTrace trace;
    if (next() % 3 == 0) {  // a coherence message of any kind, to a socket or to a memory's node
      const FabricNode& to = next() % 2 ? *f.requesters()[next() % f.requesters().size()] : *map[k].node;
      const bool outbound = next() % 2;
      const auto kind = static_cast<CohMessage>(next() % kCohMessages);
      out += std::to_string(f.send(r, to, outbound, issue, kind, traced ? &trace : nullptr).ps()) + '\n';
      continue;
    }
    const Time done = f.access(r, MemAccess{op, address, traced ? &trace : nullptr}, issue);
    out += std::to_string(done.ps()) + '\n';
    if (loaded && done - issue > f.unloaded_latency(r, k) + Time::from_ns(100)) ++*loaded;
  }
  // And each link direction counts the same messages of each kind.
  for (const Link* link : p->links())
    for (const FabricNode* from : {link->node_a(), link->node_b()}) {
      out += link->direction_name(*from);
      for (size_t k = 0; k < kCohMessages; ++k)
        out += ' ' + std::to_string(link->coherent_sent(*from, static_cast<CohMessage>(k)));
      out += '\n';
    }
  return out;
}

TEST(LoadedLatency, TracedAndUntracedAccessesTimeAlike) {
  const std::string traced = testing::in_child([] { return completions(true, nullptr); });
  size_t loaded = 0;
  const std::string untraced = completions(false, &loaded);
  ASSERT_GT(std::count(untraced.begin(), untraced.end(), '\n'), 20000);
  EXPECT_TRUE(untraced == traced)
      << "the first difference is at byte "
      << std::mismatch(untraced.begin(), untraced.end(), traced.begin(), traced.end()).first - untraced.begin();
  EXPECT_GT(loaded, 1000u) << "the sequence must load the fabric for the comparison to mean anything";
}

}  // namespace
}  // namespace starnuma
