// A unit's window whose stretch crosses the next phase boundary (run --next-boundary): the next
// phase starts in the window where the phases' clock gets to it, with that boundary's decision, as
// in a continuous run; a window that does not get there stays in its phase; the options refuse a
// checkpoint that is not the unit's next boundary. One timed run per process (each test its own).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <unistd.h>

#include "harness/expect_report.hpp"
#include "harness/run_platform.hpp"
#include "os/checkpoint.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";
const std::vector<std::string> kTracked = {"topology.socket.tracking.impl=model", "os.phase_instructions=40000"};
const std::string kWorkload = "sharing:pages=2048";

// A pass with one unit in the middle of each phase; its folder is removed with the object.
struct Pass {
  std::string out;
  nlohmann::ordered_json manifest;
  explicit Pass(Platform& p, const std::string& name)
      : out((fs::temp_directory_path() / ("starnuma-next-" + std::to_string(getpid()) + "-" + name)).string()) {
    FunctionalPassOptions o;
    o.workload = kWorkload;
    o.seed = 3;
    o.checkpoints = 3;
    o.units_per_phase = 1;
    o.out = out;
    manifest = run_functional_pass(p, o).manifest;
  }
  ~Pass() { fs::remove_all(out); }
  // The phases' clock from unit 1 of the phase after boundary `phase` to the next boundary.
  uint64_t unit_to_next(uint64_t phase) const {
    return manifest["phases"][phase]["clock_instructions"].get<uint64_t>() -
           manifest["units"][phase - 1]["clock_instructions"].get<uint64_t>();
  }
};

RunOptions unit_window(const Pass& pass, uint64_t instructions, uint64_t warmup) {
  RunOptions o = testing::window_options(pass.out + "/unit-1-1.ckpt", kWorkload, 3, instructions, warmup);
  o.common_span = true;
  o.next_boundary = pass.out + "/checkpoint-2.ckpt";
  o.next_boundary_after = pass.unit_to_next(1);
  return o;
}

TEST(NextBoundary, AWindowCrossingItStartsThatPhaseWithItsDecision) {
  auto p = Platform::build(kPlatform, kTracked);
  const Pass pass(*p, "cross");
  const uint64_t after = pass.unit_to_next(1);
  ASSERT_GT(after, 10000u);
  const Checkpoint next = read_checkpoint(pass.out + "/checkpoint-2.ckpt");
  ASSERT_GT(next.moves.size(), 0u);
  const RunResult r = run_workload(*p, unit_window(pass, after, 5000));  // measures across it
  EXPECT_TRUE(r.next_boundary_crossed);
  EXPECT_EQ(r.next_boundary_phase, 2u);
  EXPECT_EQ(r.summary_json()["checkpoint_next_boundary"]["after_clock_instructions"].get<uint64_t>(), after);
  const auto& phases = r.migration["per_phase"];
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0]["phase"].get<uint64_t>(), 1u);
  EXPECT_EQ(phases[0]["pages_to_copy"].get<uint64_t>(), 0u);  // the unit's own copies: all made by it
  EXPECT_EQ(phases[1]["phase"].get<uint64_t>(), 2u);
  EXPECT_EQ(phases[1]["pages_decided"].get<uint64_t>(), pass.manifest["phases"][1]["pages_decided"].get<uint64_t>());
  EXPECT_EQ(phases[1]["pages_to_copy"].get<uint64_t>(), next.moves.size());
  EXPECT_GT(phases[1]["pages_moved"].get<uint64_t>(), 0u);
  // It starts where the clock gets there (every thread takes part: the mean thread's work), within
  // one of the OS's polls.
  const auto at = phases[1]["mean_instructions"].get<uint64_t>();
  EXPECT_GE(at, after);
  EXPECT_LT(at, after + 2000);
  EXPECT_GT(r.migration["os_core_busy_ns"].get<double>(), 0.0);  // its scan and its pages
  EXPECT_TRUE(r.shortfalls.empty()) << r.shortfalls.front();
}

// Crossed in the warm-up: the phase starts there, and the unit's own copies (none here) never do.
TEST(NextBoundary, CrossedInTheWarmUpTheOwnPhaseIsDropped) {
  auto p = Platform::build(kPlatform, kTracked);
  const Pass pass(*p, "warm");
  const uint64_t after = pass.unit_to_next(1);
  const RunResult r = run_workload(*p, unit_window(pass, 5000, after + 5000));
  EXPECT_TRUE(r.next_boundary_crossed);
  const auto& phases = r.migration["per_phase"];
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0]["phase"].get<uint64_t>(), 1u);
  EXPECT_EQ(phases[1]["phase"].get<uint64_t>(), 2u);
  EXPECT_LT(phases[1]["mean_instructions"].get<uint64_t>(), after + 5000);  // before measurement
}

TEST(NextBoundary, AWindowEndingBeforeItStaysInItsPhase) {
  auto p = Platform::build(kPlatform, kTracked);
  const Pass pass(*p, "short");
  const uint64_t after = pass.unit_to_next(1);
  const RunResult r = run_workload(*p, unit_window(pass, after / 4, after / 4));
  EXPECT_FALSE(r.next_boundary_crossed);
  EXPECT_FALSE(r.summary_json()["checkpoint_next_boundary"]["crossed"].get<bool>());
  ASSERT_EQ(r.migration["per_phase"].size(), 1u);
  EXPECT_EQ(r.migration["pages_moved"].get<uint64_t>(), 0u);
}

// The unit window's options, changed by `change`, are refused with a usage error saying `message`.
void expect_refused(const std::string& name, const std::function<void(RunOptions&, const Pass&)>& change,
                    const std::function<std::string(const Pass&)>& message) {
  auto p = Platform::build(kPlatform, kTracked);
  const Pass pass(*p, name);
  RunOptions o = unit_window(pass, 5000, 5000);
  change(o, pass);
  const testing::Raised r = testing::capture_report([&] { run_workload(*p, o); });
  EXPECT_EQ(r.type, "starnuma/usage");
  EXPECT_NE(r.message.find(message(pass)), std::string::npos) << r.message;
}

TEST(NextBoundary, RefusesAnotherBoundary) {
  expect_refused(
      "other", [](RunOptions& o, const Pass& pass) { o.next_boundary = pass.out + "/checkpoint-3.ckpt"; },
      [](const Pass& pass) {
        return "checkpoint-3.ckpt is not the boundary after " + pass.out +
               "/unit-1-1.ckpt (it holds phase 3, tracker knowledge; a checkpoint-2.ckpt";
      });
}

TEST(NextBoundary, RefusesABoundarysWindow) {
  expect_refused(
      "boundary", [](RunOptions& o, const Pass& pass) { o.checkpoint = pass.out + "/checkpoint-1.ckpt"; },
      [](const Pass&) { return "checkpoint-1.ckpt is a boundary's checkpoint; only a unit's window runs on"; });
}

TEST(NextBoundary, NeedsWhereTheClockCrossesIt) {
  expect_refused(
      "after", [](RunOptions& o, const Pass&) { o.next_boundary_after.reset(); },
      [](const Pass&) { return "--next-boundary and --next-boundary-after go together"; });
}

}  // namespace
}  // namespace starnuma
