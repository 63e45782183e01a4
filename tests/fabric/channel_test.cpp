// One link direction against queueing theory.
#include "fabric/channel.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace starnuma {
namespace {

using namespace literals;

struct Owner : StatOwner {};

TEST(Channel, UnloadedDelayIsExactlyTheLatency) {
  Owner o;
  Channel ch(o, "ab", Bandwidth::gbps(20.8), 25_ns);
  EXPECT_EQ(ch.traverse(100_ns, 64), 125_ns);
  EXPECT_EQ(ch.traverse(200_ns, 64), 225_ns);  // the first message left the link long ago
}

TEST(Channel, BackToBackMessagesQueueBehindEachOther) {
  Owner o;
  Channel ch(o, "ab", Bandwidth::gbps(32), 10_ns);  // 64 B take 2 ns
  EXPECT_EQ(ch.traverse(0_ns, 64), 10_ns);
  EXPECT_EQ(ch.traverse(0_ns, 64), 12_ns);
  EXPECT_EQ(ch.traverse(0_ns, 64), 14_ns);
  EXPECT_EQ(ch.traverse(1_ns, 16), Time::from_ps(16000));  // waits until 6 ns
  EXPECT_EQ(ch.busy_time(), Time::from_ps(6500));
  EXPECT_DOUBLE_EQ(ch.utilization(13_ns), 0.5);
}

// Temporal decoupling books messages ahead of SystemC time: those past the measured end count only
// up to it, so no direction is ever busy more than all of the time.
TEST(Channel, UtilizationCountsOnlyWhatIsSentBeforeTheEnd) {
  Owner o;
  Channel ch(o, "ab", Bandwidth::gbps(32), 10_ns);    // 64 B take 2 ns
  for (int k = 0; k < 5; ++k) ch.traverse(0_ns, 64);  // busy 0 to 10 ns
  EXPECT_DOUBLE_EQ(ch.utilization(4_ns), 1.0);
  EXPECT_DOUBLE_EQ(ch.utilization(20_ns), 0.5);
}

// Poisson arrivals of fixed-size messages: the mean wait must be M/D/1's rho*S / (2*(1-rho)).
class MD1 : public ::testing::TestWithParam<double> {};

TEST_P(MD1, MeanWaitMatchesTheFormulaWithinFivePercent) {
  const double rho = GetParam();
  Owner o;
  const Bandwidth bw = Bandwidth::gbps(16);
  Channel ch(o, "ab", bw, 20_ns);
  const uint32_t bytes = 64;
  const double service_ps = bytes / bw.bytes_per_s() * 1e12;  // 4000 ps
  std::mt19937_64 rng(12345);
  double t = 0;
  const int n = 2000000;
  double wait_sum = 0;
  for (int i = 0; i < n; ++i) {
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    t += -std::log(u) * service_ps / rho;
    const Time arrival = Time::from_ps(static_cast<int64_t>(t));
    wait_sum += static_cast<double>((ch.traverse(arrival, bytes) - arrival - ch.latency()).ps());
  }
  const double measured = wait_sum / n;
  const double expected = rho * service_ps / (2 * (1 - rho));
  EXPECT_NEAR(measured / expected, 1.0, 0.05) << "rho " << rho << ": " << measured << " ps vs " << expected;
  EXPECT_NEAR(ch.mean_wait_ns() * 1e3, measured, 1.0);
}

INSTANTIATE_TEST_SUITE_P(Utilization, MD1, ::testing::Values(0.1, 0.3, 0.5, 0.7, 0.9),
                         [](const ::testing::TestParamInfo<double>& i) {
                           return "rho" + std::to_string(static_cast<int>(i.param * 10 + 0.5));
                         });

}  // namespace
}  // namespace starnuma
