// Servers on a CXL fabric (platform.separate_hosts): where pages go, and what lent memory does.
#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/run_platform.hpp"

namespace starnuma {
namespace {

RunResult run_on(const std::string& platform, const std::string& workload, const std::vector<std::string>& sets = {}) {
  RunOptions o;
  o.workload = workload;
  o.instructions = 1000000000;  // the workload's own end
  o.placement = Placement::FirstTouch;
  return testing::run_platform(platform, o, sets);
}

// host0's 16 MiB fill, and the rest goes to the pool, never to another server's memory.
TEST(Hosts, ASeparateHostSpillsToThePoolNeverToAnotherServer) {
  const RunResult r = run_on("lmp4-physical-scaled.yaml", "vecsum:size=24MiB,repeats=1@socket0");
  EXPECT_GT(r.breakdown[0], 0.5);
  EXPECT_GT(r.breakdown[3], 0.2);
  EXPECT_DOUBLE_EQ(r.breakdown[0] + r.breakdown[3], 1.0);
}

// A logical pool: the summing server's memory first, then the others' over CXL (the pool class):
// 50 of 64 MiB local, as the paper's 3/8 of a 64 GB vector on 24 GB servers.
TEST(Hosts, LentMemoryTakesWhatTheServersOwnCannot) {
  const RunResult r = run_on("lmp4-scaled.yaml", "vecsum:size=64MiB,repeats=1@socket0");
  EXPECT_NEAR(r.breakdown[0], 50.0 / 64.0, 0.02);
  EXPECT_NEAR(r.breakdown[3], 14.0 / 64.0, 0.02);
  EXPECT_GT(r.amat_unloaded_ns, 80.0);
}

TEST(Hosts, APhysicalPoolTooSmallCannotRunWhatTheLogicalOneCan) {
  const auto e = testing::capture_report([] {
    run_on("lmp4-physical-scaled.yaml", "vecsum:size=192MiB,repeats=1@socket0",
           {"os.allocation=weighted", "os.cpuless_share=1"});
  });
  EXPECT_EQ(e.type, "starnuma/input");
  EXPECT_NE(e.message.find("out of memory"), std::string::npos) << e.message;
}

TEST(Hosts, MachineWidePlacementIsRefusedForSeparateHosts) {
  const auto e = testing::capture_report([] {
    RunOptions o;
    o.workload = "uniform@socket0";
    o.instructions = 1000;
    o.placement = Placement::Oracle;
    testing::run_platform("lmp4-scaled.yaml", o);
  });
  EXPECT_NE(e.message.find("separate hosts use first-touch"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace starnuma
