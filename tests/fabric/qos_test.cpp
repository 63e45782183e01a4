// CXL QoS telemetry (pool/pool_qos.hpp, the fabric's qos_throttle; docs/cxl-device.md): the device
// reports its load in every response, from its requests' waits, and hosts that throttle by it
// space their requests out.
#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "platform/probes.hpp"
#include "pool/cxl_pool.hpp"

namespace starnuma {
namespace {

// Three hosts on one pool of one channel (17 GB/s at most): easy to overload.
const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/cxl-hpc3-scaled.yaml";

struct Measured {
  BandwidthResult bandwidth;
  uint64_t loads[4] = {0, 0, 0, 0};  // responses per DevLoad
};

Measured measure(const std::vector<std::string>& sets, unsigned outstanding, std::vector<std::string> from = {"all"}) {
  auto p = Platform::build(kPlatform, sets);
  BandwidthOptions o;
  o.from = from;
  o.to = "pool";
  o.requests = 40000;
  o.outstanding = outstanding;
  o.random = true;
  Measured m;
  m.bandwidth = measure_bandwidth(*p, o);
  const auto* pool = dynamic_cast<const CxlPool*>(p->find_node("pool"));
  EXPECT_NE(pool, nullptr);
  for (size_t k = 0; pool && k < 4; ++k) m.loads[k] = pool->qos().responses(static_cast<DevLoad>(k));
  return m;
}

std::string summary(const Measured& m) {
  return std::to_string(m.bandwidth.achieved_gbps) + " " + std::to_string(m.bandwidth.mean_latency_ns);
}

const std::vector<std::string> kTelemetry = {"topology.pool.qos.enabled=true"};
const std::vector<std::string> kThrottled = {"topology.pool.qos.enabled=true", "fabric.qos_throttle=true"};

TEST(Qos, TelemetryAloneChangesNoTiming) {
  const std::string without = testing::in_child([] { return summary(measure({}, 256)); });
  const Measured with = measure(kTelemetry, 256);
  EXPECT_EQ(summary(with), without);
  EXPECT_EQ(with.loads[0] + with.loads[1] + with.loads[2] + with.loads[3], 40000u);  // one per response
}

TEST(Qos, AnIdleDeviceReportsLightLoad) {
  const Measured m = measure(kTelemetry, 1, {"socket0"});
  EXPECT_GT(m.loads[0], 39000u);  // a refresh now and then is no load
  EXPECT_EQ(m.loads[2] + m.loads[3], 0u);
}

TEST(Qos, AnOverloadedDeviceSaysSo) {
  const Measured m = measure(kTelemetry, 1024);  // every host, far more than the pool serves
  EXPECT_GT(m.loads[3], 30000u);                 // severe overload for most of the run
}

TEST(Qos, ThrottlingHostsKeepTheDeviceOutOfSevereOverload) {
  const std::string free_running = testing::in_child([] {
    const Measured m = measure(kTelemetry, 1024);
    return std::to_string(m.loads[3]) + " " + std::to_string(m.bandwidth.mean_latency_ns);
  });
  const uint64_t severe_before = std::stoull(free_running);
  const Measured m = measure(kThrottled, 1024);
  EXPECT_LT(m.loads[3], severe_before / 4);
  EXPECT_GT(m.loads[1] + m.loads[2], m.loads[3]);  // held near its optimal load instead
}

TEST(Qos, RefusesLoadsOutOfOrder) {
  const testing::Raised e =
      testing::capture_report([] { Platform::build(kPlatform, {"topology.pool.qos.severe=150ns"}); });
  ASSERT_TRUE(e.raised);
  EXPECT_NE(e.message.find("qos.severe: must be at least 200ns"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace starnuma
