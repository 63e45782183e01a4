#include "common/config_node.hpp"

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

using testing::capture_report;

TEST(ConfigNode, RemembersFileLineAndColumnOfEveryValue) {
  ConfigNode n = load_yaml_string("a:\n  b: 25ns\n  c: [1, 2]\n", "mem.yaml");
  ASSERT_TRUE(n.is_map());
  const ConfigNode* b = n.find("a")->find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->value(), "25ns");
  EXPECT_EQ(b->location().str(), "mem.yaml:2:6");
  EXPECT_EQ(n.find("a")->find_entry("c")->key_location.str(), "mem.yaml:3:3");
  EXPECT_EQ(n.find("a")->find("c")->items().size(), 2u);
}

TEST(ConfigNode, KeepsKeyOrder) {
  ConfigNode n = load_yaml_string("z: 1\na: 2\nm: 3\n", "x");
  std::string order;
  for (const auto& e : n.entries()) order += e.key;
  EXPECT_EQ(order, "zam");
}

TEST(ConfigNode, SyntaxErrorNamesFileLineAndColumn) {
  auto r = capture_report([] { load_yaml_string("a: [1, 2\nb: 3\n", "broken.yaml"); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_NE(r.message.find("broken.yaml:"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("YAML syntax error"), std::string::npos) << r.message;
}

TEST(ConfigNode, DuplicateKeyIsAnError) {
  auto r = capture_report([] { load_yaml_string("a: 1\nb: 2\na: 3\n", "dup.yaml"); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.message, "dup.yaml:3:1: error: a: duplicate key 'a' (first given at line 1, column 1)");
}

TEST(ConfigNode, SeveralDocumentsAreAnError) {
  auto r = capture_report([] { load_yaml_string("a: 1\n---\nb: 2\n", "two.yaml"); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.message, "two.yaml:3:1: error: a second YAML document starts here; a platform file holds exactly one");
}

TEST(ConfigNode, MergeOverridesDeeplyAndNullRemoves) {
  ConfigNode base = load_yaml_string("a: {x: 1, y: 2}\nb: 5\nc: 7\n", "base.yaml");
  ConfigNode over = load_yaml_string("a: {y: 3, z: 4}\nb: ~\nd: {e: 1, f: ~}\n", "over.yaml");
  merge_config(base, over);
  EXPECT_EQ(base.find("a")->find("x")->value(), "1");
  EXPECT_EQ(base.find("a")->find("y")->value(), "3");
  EXPECT_EQ(base.find("a")->find("y")->location().str(), "over.yaml:1:8");
  EXPECT_EQ(base.find("a")->find("z")->value(), "4");
  EXPECT_EQ(base.find("b"), nullptr);
  EXPECT_EQ(base.find("c")->value(), "7");
  ASSERT_NE(base.find("d"), nullptr);
  EXPECT_EQ(base.find("d")->find("f"), nullptr);
}

}  // namespace
}  // namespace starnuma
