#include "platform/platform.hpp"

#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "harness/param_names.hpp"

#include "platform/describe.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

std::map<std::string, int> link_types(const Platform& p) {
  std::map<std::string, int> n;
  for (const Link* l : p.links()) ++n[l->type_name()];
  return n;
}

TEST(Platform, Baseline16IsFourChassisOfFourSockets) {
  auto p = Platform::build(kPlatforms + "baseline16.yaml");
  EXPECT_EQ(p->nodes().size(), 16u + 8u);
  // 6 UPI per chassis between sockets + 1 per socket to a FLEX ASIC; 8 ASICs pairwise: 28.
  EXPECT_EQ(link_types(*p), (std::map<std::string, int>{{"numalink", 28}, {"upi", 4 * 6 + 16}}));
  EXPECT_EQ(p->find_node("pool"), nullptr);
  for (int s = 0; s < 16; ++s) EXPECT_EQ(p->find_node("socket" + std::to_string(s))->links().size(), 4u);
  for (int f = 0; f < 8; ++f) EXPECT_EQ(p->find_node("flex" + std::to_string(f))->links().size(), 2u + 7u);
}

TEST(Platform, Starnuma16AddsAPoolLinkedToEverySocket) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  FabricNode* pool = p->find_node("pool");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->type_name(), "cxl_pool");
  EXPECT_EQ(pool->links().size(), 16u);
  EXPECT_EQ(link_types(*p)["cxl"], 16);
  const FabricNode* s5 = p->find_node("socket5");
  int cxl = 0;
  for (const Link* l : s5->links())
    if (l->type_name() == "cxl") {
      ++cxl;
      EXPECT_EQ(l->node_b(), pool);
      EXPECT_DOUBLE_EQ(l->bandwidth().gb_per_s(), 40.0);
    }
  EXPECT_EQ(cxl, 1);
}

TEST(Platform, ComponentNamesAreTheirYamlPaths) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  EXPECT_STREQ(p->find_node("socket3")->name(), "nodes.socket3");
  EXPECT_EQ(p->find_node("socket3")->path(), "nodes.socket3");
  EXPECT_STREQ(p->settings().name(), "platform");
  EXPECT_EQ(p->settings().quantum(), Time::from_ns(100));
  const sc_core::sc_object* memory = sc_core::sc_find_object("nodes.socket3.memory");
  ASSERT_NE(memory, nullptr);
}

TEST(Platform, DescribeJsonListsComponentsParametersAndLinks) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml");
  auto j = describe_json(*p);
  EXPECT_EQ(j["nodes"].size(), 25u);
  EXPECT_EQ(j["links"].size(), 84u);
  const auto& s0 = j["nodes"][0];
  EXPECT_EQ(s0["name"], "socket0");
  EXPECT_EQ(s0["type"], "socket");
  EXPECT_EQ(s0["params"]["cores"]["value"], 28);
  EXPECT_EQ(s0["params"]["memory.channel_capacity"]["value"], 32ull << 30);
  EXPECT_EQ(s0["params"]["memory.channel_capacity"]["unit"], "B");
  EXPECT_NE(s0["params"]["cores"]["source"].get<std::string>().find("baseline16.yaml:"), std::string::npos);
  const auto& l0 = j["links"][0];
  EXPECT_EQ(l0["name"], "upi_socket0_socket1");
  EXPECT_EQ(l0["a"], "socket0");
  EXPECT_EQ(l0["b"], "socket1");
  EXPECT_DOUBLE_EQ(l0["bandwidth_GBps"].get<double>(), 20.8);
  EXPECT_DOUBLE_EQ(l0["latency_ns"].get<double>(), 15.0);
}

// Every file shipped in platforms/ must elaborate without error; one test process per file.
class ShippedPlatform : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedPlatform, Elaborates) {
  auto p = Platform::build(kPlatforms + GetParam());
  EXPECT_GT(p->nodes().size(), 0u);
}

std::vector<std::string> shipped() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kPlatforms))
    if (e.path().extension() == ".yaml") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(Platforms, ShippedPlatform, ::testing::ValuesIn(shipped()), testing::file_test_name);

}  // namespace
}  // namespace starnuma
