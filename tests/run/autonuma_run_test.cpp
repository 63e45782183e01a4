// AutoNUMA and LACX in whole runs on lacx2-scaled (two sockets and a CPU-less CXL node).
#include <sstream>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"

namespace starnuma {
namespace {

// Threads on both sockets share one array (SHM-bench's pattern); one more thread has its own.
RunResult run_balancing(const std::string& platform, const std::string& rule) {
  RunOptions o;
  o.workload = "uniform:footprint=8MiB@socket0-1.core0-2,local:footprint=1MiB@socket0.core3";
  o.instructions = 200000;
  o.placement = Placement::Dynamic;
  // Scans of 4 MiB every 100 us: every page faults several times within this short run.
  return testing::run_platform(platform, o,
                               {"os.migration=" + rule, "coherence.enabled=false", "os.numa_scan_size=4MiB"});
}

TEST(AutoNumaRun, LacxMovesPagesSharedAcrossNodesToTheCxlNodeAndAutoNumaNever) {
  const std::string autonuma = testing::in_child([] {
    const RunResult r = run_balancing("lacx2-scaled.yaml", "autonuma");
    const auto& m = r.migration;
    return std::to_string(m["hinting_faults"].get<uint64_t>()) + " " +
           std::to_string(m["shared_faults"].get<uint64_t>()) + " " + std::to_string(m["to_cxl"].get<uint64_t>()) +
           " " + std::to_string(r.accesses[3]) + " " + std::to_string(m["pages_moved"].get<uint64_t>());
  });
  std::istringstream in(autonuma);
  uint64_t faults = 0, shared = 0, to_cxl = 1, cxl_accesses = 1, moved = 0;
  in >> faults >> shared >> to_cxl >> cxl_accesses >> moved;
  EXPECT_GT(faults, 1000u);
  EXPECT_GT(shared, faults / 4);  // six threads on one array: most faults follow another task's
  EXPECT_EQ(to_cxl, 0u);          // the footprint fits the sockets, and AutoNUMA never demotes
  EXPECT_EQ(cxl_accesses, 0u);
  EXPECT_GT(moved, 0u);  // private remote faults do move pages between the sockets

  const RunResult r = run_balancing("lacx2-scaled.yaml", "lacx");
  const auto& m = r.migration;
  EXPECT_EQ(r.migration_policy, "AutoNUMA with LACX");
  EXPECT_GT(m["to_cxl"].get<uint64_t>(), 100u);
  EXPECT_EQ(m["from_cxl"].get<uint64_t>(), 0u);  // the mark keeps them there
  EXPECT_GT(r.accesses[3], 0u);                  // the CXL node now serves accesses
  EXPECT_LE(m["to_cxl"].get<uint64_t>(), m["pages_moved"].get<uint64_t>());
  // Each faulting core copies its own page: at most one copy per core (eight) in flight.
  EXPECT_GE(m["copies_in_flight_peak"].get<uint64_t>(), 1u);
  EXPECT_LE(m["copies_in_flight_peak"].get<uint64_t>(), 8u);
}

TEST(AutoNumaRun, LacxNeedsACpuLessNode) {
  const auto r = testing::capture_report([] { run_balancing("multichip4-scaled.yaml", "lacx"); });
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("CPU-less CXL memory node"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
