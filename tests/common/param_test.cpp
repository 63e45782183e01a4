#include "common/param.hpp"

#include <gtest/gtest.h>

#include "common/component.hpp"
#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

using namespace literals;
using testing::capture_report;

struct Part : Component {
  Part(sc_core::sc_module_name n, const ScopeContext& c) : Component(n, c) {}
  Param<unsigned> channels{*this, "channels", 6, "Channels", between(1u, 16u)};
};

struct Widget : Component {
  Widget(sc_core::sc_module_name n, const ScopeContext& c) : Component(n, c) {}
  Param<Time> latency{*this, "latency", 25_ns, "Latency", at_least(0_ns)};
  Param<Bandwidth> bandwidth{*this, "bandwidth", Bandwidth::gbps(20.8), "Bandwidth"};
  Param<unsigned> count{*this, "count", required, "How many", between(1u, 8u)};
  Param<std::string> policy{*this, "policy", "lru", "Replacement", std::vector<std::string>{"lru", "random"}};
  Param<bool> enabled{*this, "enabled", true, "On or off"};
  Part memory{"memory", part("memory")};
};

struct Built {
  ConfigNode doc;
  Elaboration elab;
  std::unique_ptr<Widget> widget;
};

std::unique_ptr<Built> build(const std::string& yaml) {
  auto b = std::make_unique<Built>();
  b->doc = load_yaml_string(yaml, "w.yaml");
  b->widget = std::make_unique<Widget>("w", ScopeContext{&b->elab, &b->doc, "w", b->doc.location(), nullptr, "widget"});
  b->widget->check_unused_keys();
  return b;
}

std::string errors(const Built& b) {
  std::string s;
  for (const auto& i : b.elab.diagnostics().issues()) s += i.str() + "\n";
  return s;
}

TEST(Param, ReadsValuesWithUnitsAndKeepsDefaults) {
  auto b = build("latency: 40ns\ncount: 3\nmemory: {channels: 8}\n");
  EXPECT_EQ(errors(*b), "");
  EXPECT_EQ(b->widget->latency.get(), 40_ns);
  EXPECT_EQ(b->widget->count.get(), 3u);
  EXPECT_EQ(b->widget->memory.channels.get(), 8u);
  EXPECT_DOUBLE_EQ(b->widget->bandwidth->gb_per_s(), 20.8);
  EXPECT_TRUE(b->widget->bandwidth.is_default());
  EXPECT_FALSE(b->widget->latency.is_default());
  EXPECT_EQ(b->widget->latency.source().str(), "w.yaml:1:10");
  EXPECT_EQ(b->widget->memory.path(), "w.memory");
  EXPECT_STREQ(b->widget->memory.name(), "w.memory");
}

TEST(Param, OutOfRangeNamesTheFullKeyAndKeepsTheDefault) {
  auto b = build("count: 3\nmemory: {channels: 0}\n");
  EXPECT_EQ(errors(*b), "w.yaml:2:20: error: w.memory.channels: value 0 is out of range [1, 16]\n");
  EXPECT_EQ(b->widget->memory.channels.get(), 6u);
}

TEST(Param, EveryKindOfBadValueIsReportedAtOnce) {
  auto b = build("latency: 25\nbandwidth: fast\npolicy: fifo\nenabled: yes\ncount: [1]\n");
  std::string e = errors(*b);
  EXPECT_NE(e.find("w.yaml:1:10: error: w.latency: '25' needs a time unit"), std::string::npos) << e;
  EXPECT_NE(e.find("w.yaml:2:12: error: w.bandwidth: 'fast' is not a bandwidth"), std::string::npos) << e;
  EXPECT_NE(e.find("w.yaml:3:9: error: w.policy: 'fifo' is not one of lru, random"), std::string::npos) << e;
  EXPECT_NE(e.find("w.yaml:4:10: error: w.enabled: 'yes' is not a boolean"), std::string::npos) << e;
  EXPECT_NE(e.find("w.yaml:5:8: error: w.count: expected an integer, got a list"), std::string::npos) << e;
  EXPECT_EQ(b->elab.diagnostics().count(), 5u);
}

TEST(Param, MissingRequiredKeyIsReported) {
  auto b = build("latency: 1ns\n");
  EXPECT_EQ(errors(*b), "w.yaml:1:1: error: w: missing required key 'count'\n");
}

TEST(Param, UnknownKeysAreRejectedWithTheNearestValidKey) {
  auto b = build("count: 1\nlatncy: 3ns\nmemory: {chanels: 2}\nzzz: 1\n");
  std::string e = errors(*b);
  EXPECT_NE(e.find("w.yaml:2:1: error: w.latncy: unknown key 'latncy' (did you mean 'latency'?)"), std::string::npos)
      << e;
  EXPECT_NE(e.find("w.yaml:3:10: error: w.memory.chanels: unknown key 'chanels' (did you mean 'channels'?)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("w.zzz: unknown key 'zzz' (valid keys: bandwidth, count, enabled, latency, memory, policy)"),
            std::string::npos)
      << e;
}

TEST(Param, APartMustBeAMap) {
  auto b = build("count: 1\nmemory: 4\n");
  EXPECT_EQ(errors(*b), "w.yaml:2:9: error: w.memory: expected a map of parameters, got a single value\n");
}

TEST(Param, SchemaModeUsesDefaultsAndDescribesEveryParameter) {
  Elaboration schema(true);
  Widget w("w", ScopeContext{&schema, nullptr, "w", {}, nullptr, "widget"});
  EXPECT_TRUE(schema.diagnostics().empty());
  auto j = w.find_param("latency")->schema_json();
  EXPECT_EQ(j["kind"], "time");
  EXPECT_EQ(j["default"], "25ns");
  EXPECT_EQ(j["range"], ">= 0ns");
  EXPECT_EQ(w.find_param("count")->schema_json()["required"], true);
  EXPECT_EQ(w.find_param("policy")->schema_json()["kind"], "choice");
}

}  // namespace
}  // namespace starnuma
