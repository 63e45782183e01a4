// Functional warming of the TLBs (run --warm-tlbs, docs/sampling.md): the functional pass's
// checkpoints carry every thread's TLBs with their annexes' phase marks, and a window started with
// them walks less and flushes the entries still marked, the same with the annex model and the RTL.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "os/checkpoint.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";

std::vector<std::string> tracked(const std::string& impl) {
  return {"topology.socket.tracking.impl=" + impl, "os.phase_instructions=40000"};
}

std::string make_unit(const std::string& name) {
  const std::string out =
      (fs::temp_directory_path() / ("starnuma-warm-" + std::to_string(getpid()) + "-" + name)).string();
  auto p = Platform::build(kPlatform, tracked("model"));
  FunctionalPassOptions o;
  o.workload = "sharing:pages=2048";
  o.seed = 3;
  o.checkpoints = 2;
  o.units_per_phase = 1;
  o.out = out;
  run_functional_pass(*p, o);
  return out;
}

RunResult window(const std::string& impl, const std::string& unit, bool warm) {
  auto p = Platform::build(kPlatform, tracked(impl));
  RunOptions o = testing::window_options(unit, "sharing:pages=2048", 3, 10000, 2000);
  o.warm_tlbs = warm;
  return run_workload(*p, o);
}

uint64_t flushes(const RunResult& r) {
  uint64_t n = 0;
  for (const auto& [name, node] : r.stats["nodes"].items())
    if (node.contains("tracking")) n += node["tracking"]["flushes"].get<uint64_t>();
  return n;
}

// One window per process (SystemC elaborates once): the others in children.
std::string summary(const RunResult& r) {
  std::ostringstream s;
  s << r.tlbs_warmed << " " << r.page_walks << " " << flushes(r);
  return s.str();
}

TEST(WarmTlbs, AUnitsWindowStartsWithThePassesTlbsAndTheirMarks) {
  const std::string out = make_unit("unit");
  const std::string unit = out + "/unit-2-1.ckpt";
  const Checkpoint c = read_checkpoint(unit);
  ASSERT_EQ(c.tlbs.size(), 64u);
  EXPECT_TRUE(c.annex_stlb);  // tracking.tlb: l2 on this platform
  uint64_t entries = 0, marked = 0, counted = 0;
  for (const Checkpoint::ThreadTlbs& t : c.tlbs) {
    EXPECT_EQ(t.counts.size(), t.stlb.size());  // the annexed STLB's counts, entry by entry
    for (uint32_t n : t.counts) counted += n > 0;
    EXPECT_EQ(t.stlb_entries, 1536u);
    EXPECT_LE(t.stlb.size(), t.stlb_entries);
    EXPECT_LE(t.dtlb.size(), t.dtlb_entries);
    entries += t.dtlb.size() + t.stlb.size();
    for (uint64_t e : t.stlb) marked += e & 1;
    for (uint64_t e : t.dtlb) EXPECT_EQ(e & 1, 0u);  // marks are the annexed level's
  }
  // A phase in, most translations have met the boundary's mark, not all.
  EXPECT_GT(marked, 0u);
  EXPECT_LT(marked, entries / 2);
  // Entries gather counts between flushes, and the trackers what was flushed since the boundary.
  EXPECT_GT(counted, 0u);
  EXPECT_FALSE(c.metadata.empty());

  std::istringstream cold(testing::in_child([&] { return summary(window("model", unit, false)); }));
  std::istringstream model(testing::in_child([&] { return summary(window("model", unit, true)); }));
  uint64_t cold_warmed = 0, cold_walks = 0, cold_flushes = 0, warmed = 0, walks = 0, model_flushes = 0;
  ASSERT_TRUE(cold >> cold_warmed >> cold_walks >> cold_flushes);
  ASSERT_TRUE(model >> warmed >> walks >> model_flushes);
  EXPECT_EQ(cold_warmed, 0u);
  EXPECT_EQ(warmed, entries);  // every page the TLBs held is placed in the unit's map
  EXPECT_LT(walks * 2, cold_walks);
  // Cold, no entry is marked and none leaves a TLB not yet full: nothing flushes. Warm, the marked
  // entries flush at their first hit: a quarter of them within the window (973 of 3 908 marked,
  // 2026-11-27), and more with evictions.
  EXPECT_EQ(cold_flushes, 0u);
  EXPECT_GT(model_flushes, marked / 5);

  // The RTL's annexes take the same fills and marks: the same flushes.
  const RunResult rtl = window("rtl", unit, true);
  fs::remove_all(out);
  EXPECT_EQ(rtl.tlbs_warmed, entries);
  EXPECT_EQ(flushes(rtl), model_flushes);
  EXPECT_EQ(rtl.page_walks, walks);
}

// A pass with perfect knowledge (the baseline's) keeps the same TLBs without annexes: a comparison's
// two machines start their windows alike.
TEST(WarmTlbs, ThePerfectKnowledgePassKeepsTheTlbsWithoutMarks) {
  const std::string baseline = std::string(STARNUMA_SOURCE_DIR) + "/platforms/baseline16-scaled.yaml";
  const std::string out =
      (fs::temp_directory_path() / ("starnuma-warm-" + std::to_string(getpid()) + "-perfect")).string();
  auto p = Platform::build(baseline, {"os.phase_instructions=40000"});
  FunctionalPassOptions o;
  o.workload = "sharing:pages=2048";
  o.seed = 3;
  o.checkpoints = 2;
  o.out = out;
  run_functional_pass(*p, o);
  const Checkpoint c = read_checkpoint(out + "/checkpoint-2.ckpt");
  EXPECT_EQ(c.knowledge, "perfect");
  ASSERT_EQ(c.tlbs.size(), 64u);
  uint64_t entries = 0;
  for (const Checkpoint::ThreadTlbs& t : c.tlbs) {
    entries += t.dtlb.size() + t.stlb.size();
    for (const std::vector<uint64_t>* level : {&t.dtlb, &t.stlb})
      for (uint64_t e : *level) EXPECT_EQ(e & 1, 0u);  // no annexes, no marks
  }
  EXPECT_GT(entries, 10000u);
  RunOptions w = testing::window_options(out + "/checkpoint-2.ckpt", "sharing:pages=2048", 3, 5000, 1000);
  w.warm_tlbs = true;
  const RunResult r = run_workload(*p, w);
  fs::remove_all(out);
  EXPECT_EQ(r.tlbs_warmed, entries);
  EXPECT_TRUE(r.shortfalls.empty()) << r.shortfalls.front();
}

TEST(WarmTlbs, NeedsACheckpointThatCarriesThem) {
  const auto r = testing::capture_report([] {
    auto p = Platform::build(kPlatform, tracked("model"));
    RunOptions o;
    o.workload = "sharing:pages=2048";
    o.instructions = 1000;
    o.warm_tlbs = true;
    run_workload(*p, o);
  });
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("--warm-tlbs needs --checkpoint"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
