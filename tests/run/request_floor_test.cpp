// No access reaches a memory before the floor (request_floor_fs): the DRAM calendars forget only
// what no initiator can still need. Each case sent thousands of accesses into the memories' past
// before the floor followed the cores that fell behind SystemC time (docs/memory.md, "The floor").
#include <gtest/gtest.h>

#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"

namespace starnuma {
namespace {

struct FloorCase {
  const char* name;
  const char* workload;
  uint64_t instructions;
  Placement placement;
  std::vector<std::string> sets;
};

void PrintTo(const FloorCase& c, std::ostream* os) { *os << c.name; }

class RequestFloorRuns : public ::testing::TestWithParam<FloorCase> {};

TEST_P(RequestFloorRuns, NoAccessReachesAMemoryBeforeTheFloor) {
  const FloorCase& c = GetParam();
  const RunResult r = testing::run_platform("starnuma16-scaled.yaml", c.workload, c.instructions, c.placement, c.sets);
  EXPECT_EQ(r.threads_ended_early, 0u);
  EXPECT_EQ(testing::arrivals_before_floor(r.stats), 0u);
  EXPECT_GT(r.page_walks, 0u);  // the walks' waits in SystemC are what leaves cores behind it
}

// Before the floor, measured (2026-11-28): kv's initialisation, whose first touches wait in time
// order, 5 550 accesses before SystemC time; sharing's walks 43 845; tpcc's cores held by full
// tracker queues, their older accesses still to go out, 16 (the case that covers that wait).
INSTANTIATE_TEST_SUITE_P(
    Cases, RequestFloorRuns,
    ::testing::Values(FloorCase{"kv_from_its_start", "kv", 20000, Placement::FirstTouch, {}},
                      FloorCase{
                          "sharing_dynamic", "sharing", 50000, Placement::Dynamic, {"os.phase_instructions=20000"}},
                      FloorCase{"tpcc_dynamic", "tpcc", 150000, Placement::Dynamic, {"os.phase_instructions=30000"}}),
    [](const ::testing::TestParamInfo<FloorCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace starnuma
