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

namespace starnuma {
namespace {

// The bins tile the integers: each value's bin is the previous value's or the next one, and no
// bin is wider than 1/32 of the values it holds.
TEST(LatencyHistogram, BinsAreContiguousAndNarrow) {
  size_t previous = LatencyHistogram::bin_of(0);
  EXPECT_EQ(previous, 0u);
  for (uint64_t v = 1; v < (uint64_t{1} << 22); ++v) {
    const size_t b = LatencyHistogram::bin_of(v);
    ASSERT_TRUE(b == previous || b == previous + 1) << v;
    previous = b;
  }
  EXPECT_EQ(LatencyHistogram::bin_of(31), 31u);
  EXPECT_EQ(LatencyHistogram::bin_of(32), 32u);
  EXPECT_EQ(LatencyHistogram::bin_of(64), 64u);
  EXPECT_EQ(LatencyHistogram::bin_of(66), 65u);  // from 64, bins are 2 wide
  EXPECT_EQ(LatencyHistogram::bin_of(~uint64_t{0}), LatencyHistogram::kBins - 1);
  for (size_t b = 0; b + 1 < LatencyHistogram::kBins; ++b)  // each bin's low end is in it, the next one's not
    ASSERT_TRUE(LatencyHistogram::bin_of(LatencyHistogram::bin_low(b)) == b &&
                LatencyHistogram::bin_of(LatencyHistogram::bin_low(b + 1) - 1) == b)
        << b;
}

// Quantiles of a known distribution, latencies of 100 to 1099 ns (1 ns apart): within 2 %.
TEST(LatencyHistogram, QuantilesOfAUniformSpreadAreWithinTwoPercent) {
  std::vector<uint64_t> bins(LatencyHistogram::kBins, 0);
  for (uint64_t ns = 100; ns < 1100; ++ns) ++bins[LatencyHistogram::bin_of(ns * 1000)];
  for (const auto& [q, expected] : {std::pair{0.5, 599.0}, {0.99, 1089.0}, {0.999, 1098.0}, {0.0, 100.0}})
    EXPECT_NEAR(LatencyHistogram::quantile_ps(bins, q) / 1e3 / expected, 1.0, 0.02) << q;
  EXPECT_EQ(LatencyHistogram::quantile_ps(std::vector<uint64_t>(LatencyHistogram::kBins, 0), 0.5), 0.0);
}

// A long tail moves p99.9, not p50: 998 accesses at 180 ns and 2 at 5 us.
TEST(LatencyHistogram, TheTailIsInTheHighPercentilesOnly) {
  std::vector<uint64_t> bins(LatencyHistogram::kBins, 0);
  bins[LatencyHistogram::bin_of(180'000)] += 998;
  bins[LatencyHistogram::bin_of(5'000'000)] += 2;
  EXPECT_NEAR(LatencyHistogram::quantile_ps(bins, 0.5) / 1e3, 180.0, 180.0 * 0.02);
  EXPECT_NEAR(LatencyHistogram::quantile_ps(bins, 0.99) / 1e3, 180.0, 180.0 * 0.02);
  EXPECT_NEAR(LatencyHistogram::quantile_ps(bins, 0.999) / 1e3, 5000.0, 5000.0 * 0.02);
}

struct Sampled : Component {
  Sampled(sc_core::sc_module_name n, const ScopeContext& c) : Component(n, c) {}
  LatencyHistogram latency{*this, "latency", "Latencies"};
};

TEST(LatencyHistogram, WritesItsPercentilesAndResets) {
  Elaboration elab;
  Sampled s{"s", ScopeContext{&elab, nullptr, "s", {}, nullptr, "s"}};
  for (uint64_t i = 0; i < 100; ++i) s.latency.sample(i < 90 ? 100'000 : 400'000);
  const nlohmann::json j = s.latency.to_json(sc_core::SC_ZERO_TIME);
  EXPECT_EQ(j["count"], 100);
  EXPECT_NEAR(j["p50"].get<double>(), 100.0, 2.0);
  EXPECT_NEAR(j["p99"].get<double>(), 400.0, 8.0);
  std::vector<uint64_t> sum;
  s.latency.add_to(sum);
  s.latency.add_to(sum);
  EXPECT_NEAR(LatencyHistogram::quantile_ps(sum, 0.95) / 1e3, 400.0, 8.0);
  s.latency.reset();
  EXPECT_EQ(s.latency.count(), 0u);
  EXPECT_EQ(s.latency.to_json(sc_core::SC_ZERO_TIME)["p50"], 0.0);
}

}  // namespace
}  // namespace starnuma
