// The sampled evaluation in one process: the functional pass's checkpoints (deterministic, the same
// decisions as a continuous run), a timing window started from one of them, and the checks that
// refuse a checkpoint made for something else.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "harness/expect_report.hpp"
#include "harness/run_platform.hpp"
#include "os/checkpoint.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "run/sampled_window.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";
// T16 trackers (their metadata through the LLCs); short phases so a small run has several.
const std::vector<std::string> kTracked = {"topology.socket.tracking.impl=model", "os.phase_instructions=40000"};

std::string folder(const std::string& name) {
  return (fs::temp_directory_path() / ("starnuma-sampled-" + std::to_string(getpid()) + "-" + name)).string();
}

FunctionalPassResult pass(Platform& p, const std::string& out, unsigned checkpoints = 3,
                          const std::string& workload = "sharing:pages=2048", unsigned units_per_phase = 0,
                          uint64_t unit_every = 0) {
  FunctionalPassOptions o;
  o.workload = workload;
  o.seed = 3;
  o.checkpoints = checkpoints;
  o.units_per_phase = units_per_phase;
  o.unit_every = unit_every;
  o.out = out;
  return run_functional_pass(p, o);
}

// The timing window of checkpoint `path` (the pass's workload and seed).
RunResult window(Platform& p, const std::string& path, uint64_t instructions, uint64_t warmup) {
  return run_workload(p, testing::window_options(path, "sharing:pages=2048", 3, instructions, warmup));
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FunctionalPass, IsDeterministic) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string a = folder("a"), b = folder("b");
  pass(*p, a);
  pass(*p, b);
  for (int k = 1; k <= 3; ++k) {
    const std::string name = "/checkpoint-" + std::to_string(k) + ".ckpt";
    EXPECT_EQ(bytes_of(a + name), bytes_of(b + name)) << name;
  }
  fs::remove_all(a);
  fs::remove_all(b);
}

// The same scan and Algorithm 1 decide from what the annexes flushed, in both: the functional pass
// (batches of 8 operations, no time) and the timed run see nearly the same counts. Measured: HI
// equal in every phase, candidates within 2 of 17-19, pages decided within 11 %.
TEST(FunctionalPass, DecidesAsAContinuousRunDoes) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("agree");
  const nlohmann::ordered_json manifest = pass(*p, out).manifest;
  fs::remove_all(out);
  RunOptions o;
  o.workload = "sharing:pages=2048";
  o.seed = 3;
  o.instructions = 125000;  // past the third boundary
  o.placement = Placement::Dynamic;
  const RunResult r = run_workload(*p, o);
  const auto& timed = r.migration["per_phase"];
  ASSERT_GE(timed.size(), 3u);
  uint64_t decided = 0;
  for (size_t k = 0; k < 3; ++k) {
    const auto& f = manifest["phases"][k];
    const auto& t = timed[k];
    SCOPED_TRACE("phase " + std::to_string(k + 1));
    EXPECT_EQ(f["hi"].get<uint64_t>(), t["hi"].get<uint64_t>());
    EXPECT_NEAR(f["candidates"].get<double>(), t["candidates"].get<double>(), 0.15 * t["candidates"].get<double>() + 1);
    EXPECT_NEAR(f["pages_decided"].get<double>(), t["pages_decided"].get<double>(),
                0.15 * t["pages_decided"].get<double>() + 8);
    decided += f["pages_decided"].get<uint64_t>();
  }
  EXPECT_GT(decided, 100u);  // the comparison has something to compare
}

TEST(SampledWindow, RestoresTheMapAndReplaysThePhasesMoves) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("window");
  const nlohmann::ordered_json manifest = pass(*p, out).manifest;
  const std::string path = out + "/checkpoint-2.ckpt";
  const Checkpoint c = read_checkpoint(path);
  ASSERT_GT(c.moves.size(), 0u);
  const RunResult r = window(*p, path, 20000, 5000);
  fs::remove_all(out);
  EXPECT_EQ(r.placement, "sampled window");
  EXPECT_EQ(r.checkpoint_phase, 2u);
  const auto& m = r.migration;
  ASSERT_EQ(m["phases"].get<uint64_t>(), 1u);
  EXPECT_EQ(m["per_phase"][0]["phase"].get<uint64_t>(), 2u);
  EXPECT_EQ(m["per_phase"][0]["pages_decided"].get<uint64_t>(), manifest["phases"][1]["pages_decided"].get<uint64_t>());
  EXPECT_GT(m["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["pages_moved"].get<uint64_t>() + m["dropped"].get<uint64_t>() + m["skipped"].get<uint64_t>(),
            c.moves.size());
  EXPECT_GT(r.breakdown[3], 0.0);  // pool accesses: pages the earlier phase moved there
  EXPECT_EQ(r.instructions, 20000u * 64);
}

// Sampling units (docs/sampling.md, "Units"): evenly inside each phase between two boundaries, each
// the map there and every thread's position, with no decision; the pass around them is unchanged.
TEST(FunctionalPass, WritesUnitsEvenlyInsideThePhasesAndNothingElseChanges) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string plain = folder("plain"), with = folder("units");
  pass(*p, plain);
  const nlohmann::ordered_json m = pass(*p, with, 3, "sharing:pages=2048", 3).manifest;
  for (int k = 1; k <= 3; ++k) {  // the boundaries' checkpoints are the same bytes
    const std::string name = "/checkpoint-" + std::to_string(k) + ".ckpt";
    EXPECT_EQ(bytes_of(plain + name), bytes_of(with + name)) << name;
  }
  const auto& units = m["units"];
  ASSERT_EQ(units.size(), 9u);  // inside the phases after boundaries 1, 2 and 3 (the last)
  for (size_t k = 0; k < units.size(); ++k) {
    const uint64_t phase = 1 + k / 3, unit = 1 + k % 3;
    EXPECT_EQ(units[k]["phase"], phase);
    EXPECT_EQ(units[k]["unit"], unit);
    // At or just past phase x 40 K + unit x 10 K instructions of the phases' clock.
    const uint64_t at = units[k]["clock_instructions"], due = phase * 40000 + unit * 10000;
    EXPECT_GE(at, due);
    EXPECT_LT(at, due + 1000);
    const Checkpoint c = read_checkpoint(with + "/" + units[k]["file"].get<std::string>());
    EXPECT_EQ(c.phase, phase);
    EXPECT_EQ(c.unit, unit);
    // The boundary's moves, each made one with the node its page left.
    const Checkpoint b = read_checkpoint(with + "/checkpoint-" + std::to_string(phase) + ".ckpt");
    ASSERT_EQ(c.moves.size(), b.moves.size());
    for (size_t i = 0; i < c.moves.size(); ++i) {
      EXPECT_EQ(c.moves[i].vpage, b.moves[i].vpage);
      EXPECT_EQ(c.moves[i].to, b.moves[i].to);
      if (c.from[i] != Checkpoint::kUnknownNode) {
        EXPECT_EQ(c.from[i], b.from[i]);
      }
    }
  }
  fs::remove_all(plain);
  fs::remove_all(with);
}

// Units over the work (checkpoint --unit-every): one each time the mean thread passes a multiple of
// K, from boundary 1 to the end of the last boundary's phase, each in the phase it falls in.
TEST(FunctionalPass, WritesUnitsEvenlyOverTheMeanThreadsWork) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string plain = folder("plain-work"), with = folder("units-work");
  pass(*p, plain);
  const nlohmann::ordered_json m = pass(*p, with, 3, "sharing:pages=2048", 0, 7000).manifest;
  for (int k = 1; k <= 3; ++k) {  // the boundaries' checkpoints are the same bytes
    const std::string name = "/checkpoint-" + std::to_string(k) + ".ckpt";
    EXPECT_EQ(bytes_of(plain + name), bytes_of(with + name)) << name;
  }
  EXPECT_EQ(m["unit_every"], 7000u);
  const auto& phases = m["phases"];
  const auto& units = m["units"];
  ASSERT_GT(units.size(), 10u);
  uint64_t last_multiple = 0, unit_in_phase = 0, phase = 0;
  for (const auto& u : units) {
    const uint64_t at = u["mean_instructions"], multiple = at / 7000;
    EXPECT_LT(at - multiple * 7000, 300u) << "just past a multiple of 7 000";
    if (last_multiple) {
      EXPECT_EQ(multiple, last_multiple + 1) << "one unit per multiple, none skipped";
    }
    last_multiple = multiple;
    // In the phase of the last boundary before it, numbered from 1 there.
    uint64_t in = 0;
    for (const auto& b : phases) in += b["mean_instructions"].get<uint64_t>() <= at;
    unit_in_phase = in == phase ? unit_in_phase + 1 : 1;
    phase = in;
    EXPECT_EQ(u["phase"], phase);
    EXPECT_EQ(u["unit"], unit_in_phase);
    EXPECT_LT(u["furthest_instructions"].get<uint64_t>(), 4u * 40000 + 1000);  // the last phase ends at 160 K
  }
  EXPECT_GE(units.front()["mean_instructions"].get<uint64_t>(), phases[0]["mean_instructions"].get<uint64_t>());
  EXPECT_GE(units.back()["furthest_instructions"].get<uint64_t>(), 4u * 40000 - 7000);
  fs::remove_all(plain);
  fs::remove_all(with);
  const auto r = testing::capture_report([&] { pass(*p, with, 3, "sharing:pages=2048", 2, 7000); });
  EXPECT_NE(r.message.find("--units-per-phase and --unit-every"), std::string::npos) << r.message;
}

// The units' placement tests' pass: sharing over 3 phases of 40 K, a unit every 7 000.
FunctionalPassOptions units_every_7000(const std::string& out) {
  FunctionalPassOptions o;
  o.workload = "sharing:pages=2048";
  o.seed = 3;
  o.checkpoints = 3;
  o.unit_every = 7000;
  o.out = out;
  return o;
}

// A systematic sample's start (checkpoint --unit-offset): the same spacing, every unit just past a
// multiple plus the offset; an offset the spacing does not exceed, or without a spacing, is refused.
TEST(FunctionalPass, UnitsStartWhereTheOffsetSays) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("units-offset");
  FunctionalPassOptions o = units_every_7000(out);
  o.unit_offset = 3000;
  const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
  EXPECT_EQ(m["unit_offset"], 3000u);
  ASSERT_GT(m["units"].size(), 10u);
  uint64_t last = 0;
  for (const auto& u : m["units"]) {
    const uint64_t at = u["mean_instructions"], multiple = (at - 3000) / 7000;
    EXPECT_LT(at - 3000 - multiple * 7000, 300u) << "just past a multiple of 7 000, plus 3 000";
    if (last) {
      EXPECT_EQ(multiple, last + 1) << "one unit per multiple, none skipped";
    }
    last = multiple;
  }
  fs::remove_all(out);
  o.unit_offset = 7000;
  auto r = testing::capture_report([&] { run_functional_pass(*p, o); });
  EXPECT_NE(r.message.find("--unit-offset 7000 must be below --unit-every's 7000"), std::string::npos) << r.message;
  o.unit_every = 0;
  o.unit_offset = 5;
  r = testing::capture_report([&] { run_functional_pass(*p, o); });
  EXPECT_NE(r.message.find("--unit-offset 5: it places the units of --unit-every"), std::string::npos) << r.message;
}

// SMARTS's placement (checkpoint --unit-lead W): each unit's checkpoint W before a multiple, where
// its window, warming W, starts measuring, from the first multiple at or after boundary 1 (its
// checkpoint in phase 0); none whose measured stretch would pass the last phase's end (160 K here);
// the lead with an offset, or without a spacing, is refused.
TEST(FunctionalPass, UnitsLeadTheirStretchesByTheWarmUp) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("units-lead");
  FunctionalPassOptions o = units_every_7000(out);
  o.unit_lead = 10000;  // so the checkpoints sit at the multiples plus 4 000
  const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
  EXPECT_EQ(m["unit_lead"], 10000u);
  ASSERT_GT(m["units"].size(), 10u);
  uint64_t last = 0;
  for (const auto& u : m["units"]) {
    const uint64_t measures_from = u["mean_instructions"].get<uint64_t>() + 10000, multiple = measures_from / 7000;
    EXPECT_LT(measures_from - multiple * 7000, 300u) << "its window measures from just past a multiple of 7 000";
    if (last) {
      EXPECT_EQ(multiple, last + 1) << "one unit per multiple, none skipped";
    }
    last = multiple;
  }
  // The first stretch is the one boundary 1 (at 40 000) starts, from 42 000: its unit lies the lead
  // before, in phase 0, and its window crosses the boundary in its warm-up.
  const nlohmann::ordered_json& first = m["units"].front();
  EXPECT_EQ((first["mean_instructions"].get<uint64_t>() + 10000) / 7000, 6u) << "measures from 42 000";
  EXPECT_EQ(first["phase"], 0u) << "written before boundary 1";
  EXPECT_LT(first["mean_instructions"].get<uint64_t>(), m["phases"][0]["mean_instructions"].get<uint64_t>());
  EXPECT_EQ(m["units"][1]["phase"], 0u) << "and the unit measuring from 49 000, led from 39 000";
  EXPECT_EQ(m["units"][2]["phase"], 1u);
  EXPECT_TRUE(fs::exists(fs::path(out) / first["file"].get<std::string>()));
  const uint64_t end = m["units"].back()["mean_instructions"].get<uint64_t>() + 10000 + 7000;
  EXPECT_LE(end, 4u * 40000 + 300) << "the last stretch ends by the last phase's end";
  EXPECT_GT(end + 7000, 4u * 40000) << "and the next would not";
  fs::remove_all(out);
  o.unit_offset = 3000;
  auto r = testing::capture_report([&] { run_functional_pass(*p, o); });
  EXPECT_NE(r.message.find("--unit-lead and --unit-offset"), std::string::npos) << r.message;
  o.unit_offset = 0;
  o.unit_every = 0;
  r = testing::capture_report([&] { run_functional_pass(*p, o); });
  EXPECT_NE(r.message.find("--unit-lead 10000: it places the units of --unit-every"), std::string::npos) << r.message;
}

// Units at random points of their stretches (checkpoint --unit-jitter): still one per stretch of
// 7 000, each measuring from anywhere inside its own (within a turn's 300 past), the points spread
// over the stretch, drawn from the seed alone, the last stretch measured by the last phase's end
// included (its point may lie past the end: the pass goes on for it), and without a lead the last
// stretch starting before the end and the first starting at boundary 1; without a spacing it is
// refused.
TEST(FunctionalPass, UnitsAtRandomPointsOfTheirStretches) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("units-jitter");
  FunctionalPassOptions o = units_every_7000(out);
  o.unit_lead = 10000;
  o.unit_jitter = true;
  const auto places = [&] {
    const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
    EXPECT_EQ(m["unit_jitter"], true);
    const uint64_t end = 4 * m["phase_instructions"].get<uint64_t>();
    std::vector<uint64_t> into;  // each unit's measurement's distance into its stretch
    uint64_t last = 0;
    for (const auto& u : m["units"]) {
      const uint64_t stretch = u["stretch_from"].get<uint64_t>() + 10000;
      EXPECT_EQ(stretch % 7000, 0u) << "a stretch starts at a multiple, where the grid would measure from";
      if (last) {
        EXPECT_EQ(stretch, last + 7000) << "one unit per stretch, none skipped";
      }
      last = stretch;
      const uint64_t measures_from = u["mean_instructions"].get<uint64_t>() + 10000;
      EXPECT_GE(measures_from, stretch);
      EXPECT_LT(measures_from, stretch + 7000 + 300) << "inside its own stretch";
      into.push_back(measures_from - stretch);
    }
    EXPECT_LE(last + 7000, end) << "measured by the end";
    EXPECT_GT(last + 2 * 7000, end) << "the last stretch measured by the end has its unit";
    fs::remove_all(out);
    return into;
  };
  const std::vector<uint64_t> first = places();
  ASSERT_GT(first.size(), 10u);
  const auto [low, high] = std::minmax_element(first.begin(), first.end());
  EXPECT_LT(*low, 2000u) << "spread over the stretch";
  EXPECT_GT(*high, 5000u) << "spread over the stretch";
  EXPECT_EQ(places(), first) << "the same seed, the same points";
  o.seed = 4;
  EXPECT_NE(places(), first) << "another seed, other points";
  // No lead: every stretch starting before the end, the last one's point mostly past it (the last
  // stretch of 7 900 starts 2 000 before the end).
  for (const uint64_t seed : {3, 4, 5, 6, 7}) {
    o.seed = seed;
    o.unit_lead = 0;
    o.unit_every = 7900;
    const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
    fs::remove_all(out);
    const uint64_t end = 4 * m["phase_instructions"].get<uint64_t>();
    const uint64_t last = m["units"].back()["stretch_from"].get<uint64_t>();
    EXPECT_LT(last, end);
    EXPECT_GE(last + 7900, end) << "seed " << seed << ": the last stretch starting before the end has its unit";
  }
  o.unit_every = 8000;  // divides the phases: boundary 1 starts a stretch, and its stretch is sampled
  const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
  fs::remove_all(out);
  EXPECT_EQ(m["units"].front()["stretch_from"].get<uint64_t>(), m["phase_instructions"].get<uint64_t>());
  o.unit_every = 0;
  o.unit_lead = 0;
  auto r = testing::capture_report([&] { run_functional_pass(*p, o); });
  EXPECT_NE(r.message.find("--unit-jitter: it places the units of --unit-every"), std::string::npos) << r.message;
}

// A workload ending inside the last phase (sharing's 25 000 operations: 125 K instructions a thread,
// the phase ends at 160 K): the units whose windows would measure from past its end stand for no
// work, so the pass drops them, their files too, and counts them.
TEST(FunctionalPass, UnitsMeasuringPastTheWorkloadsEndAreDropped) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("units-past-end");
  FunctionalPassOptions o = units_every_7000(out);
  o.workload = "sharing:pages=2048,operations=25000";
  o.unit_lead = 10000;
  const nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
  const uint64_t end = m["instructions"].get<uint64_t>() / m["threads"].get<uint64_t>();
  ASSERT_LT(end, 4u * 40000) << "the workload ends inside the last phase";
  EXPECT_EQ(m["units_past_the_workloads_end"], 2u);
  ASSERT_GT(m["units"].size(), 5u);
  for (const auto& u : m["units"]) {
    EXPECT_LT(u["mean_instructions"].get<uint64_t>() + 10000, end) << "measures from before the end";
    EXPECT_TRUE(fs::exists(out + "/" + u["file"].get<std::string>()));
  }
  const uint64_t last = m["units"].back()["mean_instructions"];
  EXPECT_GE(last + 10000 + 7000, end - 300) << "and the next multiple's would not";
  size_t unit_files = 0;
  for (const auto& e : fs::directory_iterator(out)) unit_files += e.path().filename().string().rfind("unit-", 0) == 0;
  EXPECT_EQ(unit_files, m["units"].size()) << "the dropped units' files are gone";
  fs::remove_all(out);
}

// A unit's window: the map and positions restored, and with every copy of its boundary made
// (no --copies-done), no migration phase.
TEST(SampledWindow, AUnitsWindowMovesNothing) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("unit-window");
  pass(*p, out, 3, "sharing:pages=2048", 1);
  const RunResult r = window(*p, out + "/unit-2-1.ckpt", 10000, 2000);
  fs::remove_all(out);
  EXPECT_EQ(r.checkpoint_phase, 2u);
  EXPECT_EQ(r.checkpoint_unit, 1u);
  EXPECT_TRUE(r.migration.is_null());
  EXPECT_GT(r.breakdown[3], 0.0);  // the pages boundary 2 moved to the pool
  EXPECT_EQ(r.instructions, 10000u * 64);
  EXPECT_TRUE(r.shortfalls.empty()) << r.shortfalls.front();
}

// With only some of the boundary's copies made by the unit (--copies-done K), the others go back to
// their source and the window's OS copies them again; with none made, every move the pass made is
// in flight. (One run per process: K is the test's parameter.)
class UnitInFlight : public ::testing::TestWithParam<bool> {};

TEST_P(UnitInFlight, TheWindowCopiesTheMovesNotMadeByTheUnit) {
  const bool half = GetParam();
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder(half ? "unit-half" : "unit-none");
  pass(*p, out, 3, "sharing:pages=2048", 1);
  const std::string unit = out + "/unit-2-1.ckpt";
  const Checkpoint c = read_checkpoint(unit);
  const uint64_t done = half ? c.moves.size() / 2 : 0;
  uint64_t in_flight = 0;  // the pass made them, the unit had not yet
  for (size_t i = done; i < c.moves.size(); ++i) in_flight += c.from[i] != Checkpoint::kUnknownNode;
  ASSERT_GT(in_flight, 50u);
  RunOptions o = testing::window_options(unit, "sharing:pages=2048", 3, 10000, 2000);
  o.copies_done = done;
  const RunResult r = run_workload(*p, o);
  fs::remove_all(out);
  EXPECT_EQ(r.copies_in_flight + r.copies_stayed, in_flight);
  EXPECT_LT(r.copies_stayed, in_flight / 10);  // the frames the moves freed are there to go back to
  ASSERT_FALSE(r.migration.is_null());
  const auto& phase = r.migration["per_phase"][0];
  EXPECT_EQ(phase["phase"].get<uint64_t>(), 2u);
  EXPECT_EQ(phase["pages_to_copy"].get<uint64_t>(), r.copies_in_flight);
  EXPECT_EQ(phase["pages_decided"].get<uint64_t>(), 0u);  // the boundary decided them
  // Under way from the window's start, so that the measurement meets their traffic as a continuous
  // run's does, not from the end of the 2 000 instructions of warm-up.
  EXPECT_LT(phase["mean_instructions"].get<uint64_t>(), 500u);
  EXPECT_GT(r.migration["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.instructions, 10000u * 64);
}

INSTANTIATE_TEST_SUITE_P(SampledWindow, UnitInFlight, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "HalfMade" : "NoneMade"; });

// The copies' progress a unit reads from its boundary's window: counted where that window saw,
// extrapolated beyond at the rate from its first copy to its end.
TEST(SampledWindow, CopiesStartedByCountsThenExtrapolates) {
  const std::vector<uint64_t> started = {100, 100, 200, 300, 1000};
  EXPECT_EQ(copies_started_by(started, 1100, 20, 0), 0u);
  EXPECT_EQ(copies_started_by(started, 1100, 20, 100), 2u);
  EXPECT_EQ(copies_started_by(started, 1100, 20, 999), 4u);
  EXPECT_EQ(copies_started_by(started, 1100, 20, 1100), 5u);
  EXPECT_EQ(copies_started_by(started, 1100, 20, 2100), 5u + 5u);  // 5 copies in 1000 instructions
  EXPECT_EQ(copies_started_by(started, 1100, 20, 100000), 20u);    // never more than the phase has
  EXPECT_EQ(copies_started_by(started, 1100, 5, 2100), 5u);        // all started within the window
  EXPECT_EQ(copies_started_by({}, 1100, 20, 5000), 0u);            // none seen: none started
}

// Taking back: the last moves first, each page to a free frame of its source, the map's invariants kept.
TEST(SampledWindow, TakingBackInFlightCopiesRestoresTheirSources) {
  constexpr uint64_t kPage = 4096;
  PageMap m(
      kPage,
      {{"socket0", 0, 4 * kPage, true}, {"socket1", 4 * kPage, 4 * kPage, true}, {"pool", 8 * kPage, 2 * kPage, false}},
      {{0, 1, 2}, {1, 0, 2}});
  m.translate(0x10000, 0);  // vpage 0x10 on socket0
  m.translate(0x20000, 1);  // 0x20 on socket1
  m.translate(0x30000, 0);  // 0x30 on socket0
  Checkpoint c;
  c.nodes = {{"socket0", 0, {}}, {"socket1", 1, {}}, {"pool", -1, {}}};
  c.moves = {{0x10, 2, MoveKind::Candidate},
             {0x20, 2, MoveKind::Candidate},
             {0x30, 1, MoveKind::Candidate},
             {0x40, 1, MoveKind::Candidate}};
  c.from = {0, 1, 0, Checkpoint::kUnknownNode};  // 0x40 was never placed: the pass did not move it
  for (size_t k = 0; k < 3; ++k) m.release(m.move(c.moves[k].vpage, c.moves[k].to).from);
  const InFlight f = take_back_in_flight(c, 1, m, {0, 1}, 2);
  ASSERT_EQ(f.moves.size(), 2u);
  EXPECT_EQ(f.moves[0].vpage, 0x20u);
  EXPECT_EQ(f.moves[1].vpage, 0x30u);
  EXPECT_EQ(f.stayed, 0u);
  EXPECT_EQ(m.node_of(0x10), 2u);  // made before the unit
  EXPECT_EQ(m.node_of(0x20), 1u);
  EXPECT_EQ(m.node_of(0x30), 0u);
  EXPECT_EQ(m.check(), "");
}

TEST(SampledWindow, RefusesACheckpointMadeForSomethingElse) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("refuse");
  pass(*p, out, 1);
  const std::string path = out + "/checkpoint-1.ckpt";
  const Checkpoint c = read_checkpoint(path);
  const auto refused = [&](const Checkpoint& ck, const std::string& workload, uint64_t seed) {
    return testing::capture_report([&] { check_checkpoint(ck, path, p->fabric(), workload, seed); });
  };
  EXPECT_FALSE(refused(c, "sharing:pages=2048", 3).raised);
  EXPECT_NE(
      refused(c, "sharing:pages=4096", 3).message.find("made for workload sharing:pages=2048, not sharing:pages=4096"),
      std::string::npos);
  EXPECT_NE(refused(c, "sharing:pages=2048", 4).message.find("made with seed 3, not 4"), std::string::npos);
  Checkpoint other = c;
  other.starnuma_version = "0.0.1";
  EXPECT_NE(refused(other, "sharing:pages=2048", 3).message.find("written by starnuma 0.0.1"), std::string::npos);
  other = c;
  other.cores_per_socket.assign(8, 8);
  const testing::Raised r = refused(other, "sharing:pages=2048", 3);
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("made on a platform of 8 sockets, 64 cores; this one has 16 sockets, 64 cores"),
            std::string::npos);
  fs::remove_all(out);
}

TEST(FunctionalPass, AWorkloadEndingBeforeTheLastBoundaryLeavesNoFolder) {
  auto p = Platform::build(kPlatform, kTracked);
  const std::string out = folder("short");
  const testing::Raised r = testing::capture_report([&] { pass(*p, out, 3, "sharing:pages=2048,operations=10000"); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("ends after 1 phase boundary of 40000 instructions"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    EXPECT_EQ(e.path().string().find(out + ".partial"), std::string::npos);
}

}  // namespace
}  // namespace starnuma
