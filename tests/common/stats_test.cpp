#include "common/stats.hpp"

#include <gtest/gtest.h>

#include "common/component.hpp"
#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

struct Leaf : Component {
  Leaf(sc_core::sc_module_name n, const ScopeContext& c) : Component(n, c) {}
  Counter reads{*this, "reads", "requests", "Reads"};
  Average latency{*this, "latency", "ns", "Latency"};
  Histogram hist{*this, "latency_hist", "ns", "Latency distribution", 0.0, 10.0, 4};
  Rate arrivals{*this, "arrivals", "requests", "Arrivals"};
};

struct Tree : Component {
  Tree(sc_core::sc_module_name n, const ScopeContext& c) : Component(n, c) {}
  Counter zeta{*this, "zeta", "", "Sorted last"};
  Leaf b{"b", part("b")};
  Leaf a{"a", part("a")};
};

struct Fixture {
  Elaboration elab;
  Tree tree{"tree", ScopeContext{&elab, nullptr, "tree", {}, nullptr, "tree"}};
};

TEST(Stats, CountersAveragesHistogramsAndRates) {
  Fixture f;
  Leaf& l = f.tree.a;
  ++l.reads;
  l.reads += 4;
  EXPECT_EQ(l.reads.value(), 5u);
  for (double v : {5.0, 15.0, 15.0, 35.0, 55.0, -1.0}) {
    l.latency.sample(v);
    l.hist.sample(v);
  }
  EXPECT_DOUBLE_EQ(l.latency.mean(), 124.0 / 6);
  EXPECT_DOUBLE_EQ(l.latency.min(), -1.0);
  EXPECT_DOUBLE_EQ(l.latency.max(), 55.0);
  EXPECT_EQ(l.hist.bin(0), 1u);
  EXPECT_EQ(l.hist.bin(1), 2u);
  EXPECT_EQ(l.hist.bin(3), 1u);
  EXPECT_EQ(l.hist.underflow(), 1u);
  EXPECT_EQ(l.hist.overflow(), 1u);
  EXPECT_DOUBLE_EQ(l.hist.quantile(0.5), 15.0);  // 3rd of 6 samples: middle of bin [10, 20)
  l.arrivals += 1000;
  EXPECT_DOUBLE_EQ(l.arrivals.per_second(sc_core::sc_time(1, sc_core::SC_US)), 1e9);
  l.reset_stats();
  EXPECT_EQ(l.reads.value(), 0u);
  EXPECT_EQ(l.hist.count(), 0u);
}

TEST(Stats, WalkerDumpsTheHierarchyWithSortedKeys) {
  Fixture f;
  f.tree.a.reads += 3;
  f.tree.b.latency.sample(10);
  nlohmann::json j = stats_json({&f.tree}, sc_core::sc_time(1, sc_core::SC_US));
  EXPECT_EQ(j["tree"]["a"]["reads"], 3);
  EXPECT_EQ(j["tree"]["b"]["latency"]["mean"], 10.0);
  EXPECT_EQ(j["tree"]["zeta"], 0);
  std::string text = j.dump();
  EXPECT_LT(text.find("\"a\""), text.find("\"b\""));  // sorted although b was declared first
  EXPECT_LT(text.find("\"b\""), text.find("\"zeta\""));
  EXPECT_EQ(text, stats_json({&f.tree}, sc_core::sc_time(1, sc_core::SC_US)).dump());
}

TEST(Stats, DuplicateStatisticNameIsAnInternalError) {
  Fixture f;
  auto r = testing::capture_report([&] { Counter again(f.tree.a, "reads", "", "again"); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/internal");
}

}  // namespace
}  // namespace starnuma
