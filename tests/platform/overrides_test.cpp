// --set overrides and extends chains.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "platform/platform.hpp"

namespace starnuma {
namespace {

using testing::capture_report;
const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

const Link* find_link(const Platform& p, const std::string& name) {
  for (const Link* l : p.links())
    if (l->basename() == name) return l;
  return nullptr;
}

TEST(Overrides, SetOnAGeneratorTemplateChangesEveryGeneratedComponent) {
  auto p = Platform::build(kPlatforms + "baseline16.yaml", {"topology.upi.bandwidth=26.4GB/s"});
  for (const Link* l : p->links()) {
    double expected = l->type_name() == "upi" ? 26.4 : l->type_name() == "numalink" ? 13.0 : 0.0;
    EXPECT_DOUBLE_EQ(l->bandwidth().gb_per_s(), expected) << l->name();
  }
}

TEST(Overrides, SetOnOneElaboratedComponentChangesOnlyIt) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml",
                           {"nodes.socket3.cores=8", "links.cxl_socket2_pool.latency=7.5ns"});
  EXPECT_EQ(p->find_node("socket3")->find_param("cores")->value_text(), "8");
  EXPECT_EQ(p->find_node("socket2")->find_param("cores")->value_text(), "28");
  EXPECT_EQ(p->find_node("socket3")->find_param("cores")->source().str(), "--set nodes.socket3.cores=8");
  EXPECT_EQ(find_link(*p, "cxl_socket2_pool")->wire_latency(), Time::from_ps(7500));
  EXPECT_EQ(find_link(*p, "cxl_socket1_pool")->wire_latency(), Time::from_ps(5000));
}

TEST(Overrides, LaterSetWinsAndAnEmptyValueRemovesAKey) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml", {"platform.quantum=2us", "platform.quantum=500ns",
                                                            "topology.memory_pool=", "topology.pool="});
  EXPECT_EQ(p->settings().quantum(), Time::from_ns(500));
  EXPECT_EQ(p->find_node("pool"), nullptr);  // back to the default: no pool, a baseline machine
  EXPECT_EQ(p->links().size(), 68u);
}

TEST(Overrides, BadValueIsReportedAtTheCommandLine) {
  auto r = capture_report([] { Platform::build(kPlatforms + "baseline16.yaml", {"nodes.socket0.cores=0"}); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_EQ(r.message, "--set nodes.socket0.cores=0: error: nodes.socket0.cores: value 0 is out of range [1, 1024]");
}

TEST(Overrides, UnknownKeyThroughSetIsRejected) {
  auto r = capture_report([] { Platform::build(kPlatforms + "baseline16.yaml", {"platform.quantun=1us"}); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("unknown key 'quantun' (did you mean 'quantum'?)"), std::string::npos) << r.message;
}

TEST(Overrides, MalformedAssignmentIsAUserError) {
  for (const char* bad : {"platform.quantum", "=1us", "platform..quantum=1us"}) {
    auto r = capture_report([&] { Platform::build(kPlatforms + "baseline16.yaml", {bad}); });
    ASSERT_TRUE(r.raised) << bad;
    EXPECT_EQ(r.type, "starnuma/config") << bad;
  }
}

TEST(Extends, ChildOverridesBaseKeyByKey) {
  std::string dir = ::testing::TempDir();
  std::ofstream(dir + "child.yaml") << "extends: " << kPlatforms << "starnuma16.yaml\n"
                                    << "topology:\n  chassis: 2\n  cxl: {latency: 6ns}\n";
  auto p = Platform::build(dir + "child.yaml");
  EXPECT_EQ(p->nodes().size(), 8u + 4u + 1u);  // sockets, FLEX ASICs, pool
  EXPECT_EQ(find_link(*p, "cxl_socket0_pool")->wire_latency(), Time::from_ns(6));
  EXPECT_DOUBLE_EQ(find_link(*p, "cxl_socket0_pool")->bandwidth().gb_per_s(), 40.0);  // inherited
}

TEST(Extends, RelativePathsResolveFromTheExtendingFile) {
  std::string dir = ::testing::TempDir();
  std::filesystem::create_directories(dir + "sub");
  std::ofstream(dir + "base.yaml") << "nodes:\n  s: {type: socket}\n";
  std::ofstream(dir + "sub/child.yaml") << "extends: ../base.yaml\nnodes:\n  s: {cores: 2}\n";
  auto p = Platform::build(dir + "sub/child.yaml");
  EXPECT_EQ(p->find_node("s")->find_param("cores")->value_text(), "2");
}

}  // namespace
}  // namespace starnuma
