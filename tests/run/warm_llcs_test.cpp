// Functional warming of the LLCs and coherence directories (checkpoint --warm-llcs, run
// --warm-llcs; docs/sampling.md): the pass keeps its LLCs coherent and its checkpoints carry them
// with the pool's directory; a window started with them misses less, is a state the protocol's
// checker accepts, and a platform whose LLCs differ starts them empty and says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <unordered_set>
#include <unistd.h>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "common/output_file.hpp"
#include "os/checkpoint.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";
const std::string kWorkload = "sharing:pages=2048";

std::vector<std::string> sets(std::vector<std::string> more = {}) {
  more.insert(more.begin(), {"topology.socket.tracking.impl=model", "os.phase_instructions=40000"});
  return more;
}

std::string make_checkpoints(const std::string& name, bool warm_llcs, bool warm_l2s = false) {
  const std::string out =
      (fs::temp_directory_path() / ("starnuma-warm-llcs-" + std::to_string(getpid()) + "-" + name)).string();
  auto p = Platform::build(kPlatform, sets());
  FunctionalPassOptions o;
  o.workload = kWorkload;
  o.seed = 3;
  o.checkpoints = 2;
  o.units_per_phase = 1;
  o.warm_llcs = warm_llcs;
  o.warm_l2s = warm_l2s;
  o.out = out;
  run_functional_pass(*p, o);
  return out;
}

RunResult window(const std::string& checkpoint, bool warm, std::vector<std::string> more = {},
                 std::optional<uint64_t> copies_done = std::nullopt) {
  auto p = Platform::build(kPlatform, sets(std::move(more)));
  RunOptions o = testing::window_options(checkpoint, kWorkload, 3, 5000, 1000);
  o.warm_tlbs = true;
  o.warm_llcs = warm;
  o.copies_done = copies_done;
  return run_workload(*p, o);
}

// The cores' counter `key`, summed.
uint64_t cores_sum(const RunResult& r, const char* key) {
  uint64_t n = 0;
  for (const auto& [name, node] : r.stats["nodes"].items())
    for (const auto& [core, c] : node.items())
      if (c.is_object() && c.contains(key)) n += c[key].get<uint64_t>();
  return n;
}

// One window per process (SystemC elaborates once): the others in children.
std::string summary(const RunResult& r) {
  std::ostringstream s;
  s << r.llc_lines_warmed << " " << cores_sum(r, "llc_misses") << " " << cores_sum(r, "walk_llc_misses") << " "
    << r.stats["coherence"]["violations"].get<uint64_t>() << " " << r.shortfalls.size();
  return s.str();
}

TEST(WarmLlcs, AUnitsWindowStartsWithThePassesCoherentLlcs) {
  const std::string out = make_checkpoints("unit", true);
  const std::string unit = out + "/unit-2-1.ckpt";
  const Checkpoint c = read_checkpoint(unit);
  ASSERT_EQ(c.caches.llcs.size(), 16u);
  EXPECT_TRUE(c.caches.coherent);
  EXPECT_EQ(c.caches.llcs[0].lines, 4u * 2 * 1024 * 1024 / 64);  // 4 cores x 2 MiB
  ASSERT_EQ(c.caches.directories.size(), 17u);                   // the sockets' and the pool's
  EXPECT_GT(c.caches.directories.back().records.size(), 0u);
  EXPECT_GT(c.caches.directories.front().records.size(), 0u);
  const uint64_t lines = c.caches.lines();
  EXPECT_GT(lines, 50000u);

  std::istringstream cold(testing::in_child([&] { return summary(window(unit, false, {"coherence.check=true"})); }));
  std::istringstream warm(testing::in_child([&] { return summary(window(unit, true, {"coherence.check=true"})); }));
  uint64_t cold_warmed = 0, cold_misses = 0, cold_walk_misses = 0, cold_violations = 0, cold_short = 0;
  uint64_t warmed = 0, misses = 0, walk_misses = 0, violations = 0, shortfalls = 0;
  ASSERT_TRUE(cold >> cold_warmed >> cold_misses >> cold_walk_misses >> cold_violations >> cold_short);
  ASSERT_TRUE(warm >> warmed >> misses >> walk_misses >> violations >> shortfalls);
  EXPECT_EQ(cold_warmed, 0u);
  EXPECT_EQ(warmed, lines);
  EXPECT_EQ(violations, 0u);  // the protocol's checker accepts the state it started in
  EXPECT_EQ(shortfalls, 0u);
  EXPECT_LT(misses, cold_misses * 0.9);
  // The pass's walks left their page-table lines in the LLCs, at the page tables the window makes
  // again: the window's walks hit them.
  EXPECT_FALSE(c.page_tables.empty());
  EXPECT_LT(walk_misses * 4, cold_walk_misses);

  // With its boundary's copies all in flight, the pages go back to their sources, and what the
  // pass's LLCs held of the frames they vacate is left out: still a state the checker accepts.
  ASSERT_GT(c.moves.size(), 10u);
  std::istringstream in_flight(
      testing::in_child([&] { return summary(window(unit, true, {"coherence.check=true"}, uint64_t{0})); }));
  uint64_t flight_warmed = 0, flight_misses = 0, flight_walk_misses = 0, flight_violations = 0, flight_short = 0;
  ASSERT_TRUE(in_flight >> flight_warmed >> flight_misses >> flight_walk_misses >> flight_violations >> flight_short);
  EXPECT_LT(flight_warmed, lines);
  EXPECT_GT(flight_warmed, lines / 2);
  EXPECT_EQ(flight_violations, 0u);

  // LLCs of another size start empty, and the run says so.
  const RunResult other = window(unit, true, {"topology.socket.llc.size_per_core=1MiB"});
  fs::remove_all(out);
  EXPECT_EQ(other.llc_lines_warmed, 0u);
  ASSERT_EQ(other.shortfalls.size(), 1u);
  EXPECT_NE(other.shortfalls[0].find("LLC of socket 0 (131072 lines in 16 ways) is not this platform's"),
            std::string::npos)
      << other.shortfalls[0];
}

// With --warm-l2s the pass keeps each core's L2 in front of its socket's LLC, inside it (coherent:
// inclusive), and a unit's window starts with them: its cores hit their L2s more than with the same checkpoint's
// L2s left out, the protocol's checker accepts the state, and L2s of another size start empty, as
// the run says.
TEST(WarmLlcs, AUnitsWindowStartsWithThePassesL2sInsideItsLlcs) {
  const std::string out = make_checkpoints("l2s", true, true);
  const std::string unit = out + "/unit-2-1.ckpt", without = out + "/unit-2-1-no-l2s.ckpt";
  Checkpoint c = read_checkpoint(unit);
  ASSERT_EQ(c.caches.l2s.size(), 64u);  // a thread on each of the 16 sockets' 4 cores, socket by socket
  EXPECT_EQ(c.caches.l2s[0].lines, 1024u * 1024 / 64);
  EXPECT_EQ(c.caches.l2s[0].ways, 16u);
  const uint64_t l2_lines = c.caches.l2_lines();
  EXPECT_GT(l2_lines, 10000u);
  for (size_t t = 0; t < c.caches.l2s.size(); ++t) {
    std::unordered_set<uint64_t> llc;
    for (uint64_t e : c.caches.llcs[t / 4].entries) llc.insert(e >> 2);
    for (uint64_t e : c.caches.l2s[t].entries) ASSERT_TRUE(llc.count(e >> 2)) << "thread " << t;
  }
  c.caches.l2s.clear();
  write_file_atomically(without, c.serialise());
  // Without --warm-l2s (the default) the pass records none, and still the LLCs.
  const std::string no_l2s = make_checkpoints("no-l2s", true);
  const Checkpoint plain = read_checkpoint(no_l2s + "/unit-2-1.ckpt");
  fs::remove_all(no_l2s);
  EXPECT_TRUE(plain.caches.l2s.empty());
  EXPECT_GT(plain.caches.lines(), 50000u);

  const auto l2_summary = [](const RunResult& r) {
    return std::to_string(r.l2_lines_warmed) + " " + std::to_string(cores_sum(r, "l2_hits")) + " " +
           std::to_string(r.stats["coherence"]["violations"].get<uint64_t>()) + " " +
           std::to_string(r.shortfalls.size());
  };
  std::istringstream warm(testing::in_child([&] { return l2_summary(window(unit, true, {"coherence.check=true"})); }));
  std::istringstream cold(testing::in_child([&] { return l2_summary(window(without, true)); }));
  uint64_t warmed = 0, hits = 0, violations = 0, shortfalls = 0, cold_warmed = 0, cold_hits = 0, cold_v = 0, cold_s = 0;
  ASSERT_TRUE(warm >> warmed >> hits >> violations >> shortfalls);
  ASSERT_TRUE(cold >> cold_warmed >> cold_hits >> cold_v >> cold_s);
  EXPECT_EQ(warmed, l2_lines);
  EXPECT_EQ(cold_warmed, 0u);
  EXPECT_EQ(violations, 0u);
  EXPECT_EQ(shortfalls, 0u);
  EXPECT_GT(hits, cold_hits * 1.1);

  // L2s of another size start empty, and the run says so.
  const RunResult other = window(unit, true, {"topology.socket.core.l2.size=512KiB"});
  fs::remove_all(out);
  EXPECT_EQ(other.l2_lines_warmed, 0u);
  EXPECT_GT(other.llc_lines_warmed, 0u);
  ASSERT_EQ(other.shortfalls.size(), 1u);
  EXPECT_NE(other.shortfalls[0].find("the checkpoint's L2s (thread 0: 16384 lines in 16 ways) are not this "
                                     "platform's cores': the window's L2s started empty"),
            std::string::npos)
      << other.shortfalls[0];
}

TEST(WarmLlcs, NeedsACheckpointThatCarriesThem) {
  const std::string out = make_checkpoints("none", false);
  const Checkpoint c = read_checkpoint(out + "/checkpoint-1.ckpt");
  EXPECT_TRUE(c.caches.empty());  // without --warm-llcs the pass records none
  const auto r = testing::capture_report([&] { window(out + "/checkpoint-1.ckpt", true); });
  fs::remove_all(out);
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("carries no LLCs (make it with checkpoint --warm-llcs)"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
