#include "fabric/routing.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "platform/platform.hpp"
#include "socket/socket.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

std::string route_text(const Platform& p, const char* from, const char* to) {
  const auto& f = p.fabric();
  size_t r = f.requester_index(*p.find_node(from));
  return RouteTable::describe(*p.find_node(from), f.route(r, *p.find_node(to)));
}

TEST(Routing, TakesTheLeastLatencyPathAndBreaksTiesByDeclarationOrder) {
  auto p = Platform::build(kPlatforms + "baseline16.yaml");
  EXPECT_EQ(route_text(*p, "socket0", "socket3"), "socket0 -upi-> socket3");
  // socket1 reaches chassis 1 through its own ASIC flex1; socket5's ASIC is flex3.
  EXPECT_EQ(route_text(*p, "socket1", "socket5"), "socket1 -upi-> flex1 -numalink-> flex3 -upi-> socket5");
  EXPECT_EQ(route_text(*p, "socket0", "socket0"), "socket0");
}

TEST(Routing, SocketTrafficNeverCrossesACxlSwitch) {
  auto p = Platform::build(kPlatforms + "starnuma32.yaml");
  EXPECT_EQ(route_text(*p, "socket0", "socket31"), "socket0 -upi-> flex0 -numalink-> flex15 -upi-> socket31");
  EXPECT_EQ(route_text(*p, "socket31", "pool"), "socket31 -cxl-> cxl_switch3 -cxl-> pool");
}

TEST(Routing, EqualCostPathsResolveTheSameWayEveryTime) {
  // Two sockets joined by two parallel UPI links: the one declared first wins.
  std::string f = ::testing::TempDir() + "parallel.yaml";
  std::ofstream(f) << "nodes:\n  s0: {type: socket}\n  s1: {type: socket}\n"
                      "links:\n  second: {type: upi, a: s0, b: s1}\n  first: {type: upi, a: s1, b: s0}\n";
  auto p = Platform::build(f);
  const auto& fab = p->fabric();
  const Route& r = fab.route(0, *p->find_node("s1"));
  ASSERT_EQ(r.hops.size(), 1u);
  EXPECT_STREQ(r.hops[0].link->basename(), "second");
}

TEST(Routing, AMemoryNodeNoRouteReachesIsATopologyError) {
  // s0 and s2 hang off s1, and sockets do not forward: s0 cannot reach s2's memory.
  std::string f = ::testing::TempDir() + "line.yaml";
  std::ofstream(f) << "nodes:\n  s0: {type: socket}\n  s1: {type: socket}\n  s2: {type: socket}\n"
                      "links:\n  a: {type: upi, a: s0, b: s1}\n  b: {type: upi, a: s1, b: s2}\n";
  auto r = testing::capture_report([&] { Platform::build(f); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/topology");
  EXPECT_NE(r.message.find("pairs have no route (s0 to the memory of s2"), std::string::npos) << r.message;
}

TEST(AddressMap, EachHomeOwnsOneRangeInDeclarationOrder) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  const auto& map = p->fabric().address_map();
  ASSERT_EQ(map.size(), 17u);
  const uint64_t socket_bytes = 6ull * (32ull << 30);
  EXPECT_EQ(map[3].base, 3 * socket_bytes);
  EXPECT_EQ(map[3].size, socket_bytes);
  EXPECT_STREQ(map[16].node->basename(), "pool");
  EXPECT_EQ(map[16].size, 16ull * (48ull << 30));
  EXPECT_STREQ(p->fabric().home_of(3 * socket_bytes + 12345)->node->basename(), "socket3");
  EXPECT_STREQ(p->fabric().home_of(16 * socket_bytes)->node->basename(), "pool");
  EXPECT_EQ(p->fabric().home_of(16 * socket_bytes + map[16].size), nullptr);
}

// home_of answers from a table of the map's granules, or by a search when the map is too fine for
// one: either way it is the range a scan of the map finds, interleaved windows included.
void expect_home_of_matches_a_scan(const Fabric& f) {
  const std::vector<Fabric::Range>& map = f.address_map();
  const auto scan = [&](uint64_t a) -> const Fabric::Range* {
    for (const Fabric::Range& r : map)
      if (a >= r.base && a - r.base < r.size) return &r;
    return nullptr;
  };
  std::vector<uint64_t> probes{f.map_end(), f.map_end() + 4096};
  for (const Fabric::Range& r : map)
    for (uint64_t a : {r.base, r.base + 64, r.base + r.size / 2, r.base + r.size - 1}) probes.push_back(a);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 10000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    probes.push_back(x % (f.map_end() + (f.map_end() >> 4)));
  }
  for (uint64_t a : probes) ASSERT_EQ(f.home_of(a), scan(a)) << std::hex << a;
}

TEST(AddressMap, HomeOfIsTheRangeAScanFinds) {
  expect_home_of_matches_a_scan(Platform::build(kPlatforms + "starnuma16.yaml")->fabric());
  // 32 769 MiB sockets: 1 MiB granules, millions of them, too many for the table.
  expect_home_of_matches_a_scan(
      Platform::build(kPlatforms + "starnuma16.yaml", {"topology.socket.memory.channel_capacity=32769MiB"})->fabric());
  std::vector<std::string> pools;  // cxl-hpc-links-scaled's three pools interleaved 256 B at a time
  for (unsigned k = 0; k < 3; ++k)
    for (const std::string& kv : {std::string("set=pools"), std::string("ways=3"), "position=" + std::to_string(k),
                                  std::string("granularity=256B")})
      pools.push_back("nodes.pool" + std::to_string(k) + ".hdm." + kv);
  expect_home_of_matches_a_scan(Platform::build(kPlatforms + "cxl-hpc-links-scaled.yaml", pools)->fabric());
}

}  // namespace
}  // namespace starnuma
