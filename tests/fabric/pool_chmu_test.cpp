// The pool device's CXL Hotness Monitoring Unit in a platform (docs/cxl-device.md): it sees every
// request the pool serves, never delays one, and says what it counted.
#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "platform/probes.hpp"
#include "pool/cxl_pool.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

struct Measured {
  BandwidthResult bandwidth;
  ChmuStats chmu;
  std::vector<HotlistEntry> hotlist;
};

Measured measure(const std::vector<std::string>& sets, double write_fraction = 0) {
  auto p = Platform::build(kPlatforms + "starnuma16.yaml", sets);
  BandwidthOptions o;
  o.from = {"socket0"};
  o.to = "pool";
  o.write_fraction = write_fraction;
  o.requests = 20000;
  o.random = true;
  Measured m;
  m.bandwidth = measure_bandwidth(*p, o);
  auto* pool = dynamic_cast<CxlPool*>(p->find_node("pool"));
  EXPECT_NE(pool, nullptr);
  if (!pool || !pool->chmu().stats()) return m;
  m.chmu = *pool->chmu().stats();
  pool->chmu().drain(m.hotlist);
  return m;
}

TEST(PoolChmu, CountsEveryRequestThePoolServes) {
  const Measured m =
      measure({"nodes.pool.chmu.enabled=true", "nodes.pool.chmu.threshold=1", "nodes.pool.chmu.epoch=2us"});
  EXPECT_EQ(m.chmu.counted, m.bandwidth.requests);
  EXPECT_EQ(m.chmu.filtered + m.chmu.sampled_out, 0u);
  EXPECT_GT(m.chmu.reported, 0u);
  EXPECT_EQ(m.hotlist.size(), m.chmu.reported);  // nobody had drained it before
}

TEST(PoolChmu, FiltersAndSamplesAsConfigured) {
  const Measured m =
      measure({"nodes.pool.chmu.enabled=true", "nodes.pool.chmu.track=reads", "nodes.pool.chmu.down_sampling=4"}, 0.5);
  EXPECT_EQ(m.chmu.filtered + m.chmu.counted + m.chmu.sampled_out, m.bandwidth.requests);
  EXPECT_NEAR(static_cast<double>(m.chmu.filtered) / m.bandwidth.requests, 0.5, 0.05);
  // Sequential down-sampling keeps exactly one tracked request in four (rounded up).
  EXPECT_EQ(m.chmu.counted, (m.bandwidth.requests - m.chmu.filtered + 3) / 4);
}

TEST(PoolChmu, ASmallTableReplacesAndAFullRingDrops) {
  const Measured m =
      measure({"nodes.pool.chmu.enabled=true", "nodes.pool.chmu.sets=4", "nodes.pool.chmu.ways=2",
               "nodes.pool.chmu.hotlist=8", "nodes.pool.chmu.threshold=1", "nodes.pool.chmu.mode=always_on"});
  EXPECT_GT(m.chmu.replaced, 0u);
  EXPECT_EQ(m.chmu.reported, 7u);  // the ring holds 7 and nobody drains it
  EXPECT_EQ(m.chmu.dropped, m.chmu.counted - 7);
}

// That it never delays a request and that the same run gives the same counts: the CLI tests
// cli.chmu_changes_nothing_else and cli.chmu_run_is_deterministic (one platform per process here).

TEST(Usage, AChmuThresholdAboveItsCountersIsRefused) {
  auto r = testing::capture_report([] {
    Platform::build(kPlatforms + "starnuma16.yaml", {"nodes.pool.chmu.counter_bits=4", "nodes.pool.chmu.threshold=16"});
  });
  EXPECT_NE(r.message.find("nodes.pool.chmu.threshold"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("4-bit counters hold (15)"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
