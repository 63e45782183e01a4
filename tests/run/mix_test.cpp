// Several programs at once (stimulus/program_mix.hpp): placement on cores, per-program results,
// barriers per program, capacity running out onto other nodes.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/champsim_trace.hpp"
#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"

namespace starnuma {
namespace {

RunResult run_mix(const std::string& platform, const std::string& mix, uint64_t instructions,
                  const std::vector<std::string>& sets = {}, sc_core::sc_time timeline = sc_core::SC_ZERO_TIME) {
  RunOptions o;
  o.workload = mix;
  o.instructions = instructions;
  o.placement = Placement::FirstTouch;
  o.timeline = timeline;
  return testing::run_platform(platform, o, sets);
}

TEST(Mix, EachProgramRunsOnItsOwnCoresWithItsOwnBudget) {
  const std::string file = ::testing::TempDir() + "mix.yaml";
  std::ofstream(file) << "programs:\n"
                         "  - {name: small, workload: 'uniform:footprint=1MiB', sockets: 0, cores: 1-2}\n"
                         "  - {name: long, workload: 'local:footprint=1MiB', sockets: 1-2, instructions: 30000}\n";
  const RunResult r = run_mix("multichip4-scaled.yaml", file, 10000);
  ASSERT_EQ(r.programs.size(), 2u);
  EXPECT_EQ(r.programs[0].name, "small");
  EXPECT_EQ(r.programs[0].threads, 2u);
  EXPECT_EQ(r.programs[0].instructions, 2u * 10000u);
  EXPECT_EQ(r.programs[1].threads, 8u);
  EXPECT_EQ(r.programs[1].instructions, 8u * 30000u);
  EXPECT_EQ(r.instructions, 20000u + 240000u);
  EXPECT_GT(r.programs[0].ipc, 0.0);
  EXPECT_GT(r.programs[1].time_ns, r.programs[0].time_ns);  // three times the instructions
  EXPECT_EQ(r.socket_ipc[3], 0.0);                          // no program on socket3
  // socket0 has two busy cores of four: its mean IPC is half the program's.
  EXPECT_NEAR(r.socket_ipc[0], r.programs[0].ipc / 2, 1e-9);
  const auto j = r.summary_json();
  EXPECT_EQ(j["programs"]["long"]["place"], "socket1-2");
  EXPECT_EQ(j["programs"]["long"]["threads"], 8);
}

// bfs meets barriers (and starts measurement at one) while gups, on other cores, never does: each
// program's barriers wait only for its own threads.
TEST(Mix, BarriersWaitOnlyForTheirOwnProgram) {
  const std::string mix = "bfs:scale=10,degree=8@socket0-1,gups:log2_size=16@socket2";
  const auto summary = [](const RunResult& r) {
    return std::to_string(r.programs[0].time_ns) + " " + std::to_string(r.programs[1].ipc);
  };
  const std::string again = testing::in_child([&] { return summary(run_mix("multichip4-scaled.yaml", mix, 20000)); });
  const RunResult r = run_mix("multichip4-scaled.yaml", mix, 20000);
  ASSERT_EQ(r.programs.size(), 2u);
  EXPECT_EQ(r.programs[0].threads, 8u);
  EXPECT_GT(r.programs[0].instructions, 0u);
  EXPECT_EQ(r.programs[1].instructions, 4u * 20000u);
  EXPECT_EQ(summary(r), again);  // deterministic
}

TEST(Mix, PlacementsThePlatformCannotHonourAreErrors) {
  auto r = testing::capture_report([] { run_mix("multichip4-scaled.yaml", "gups@socket0-1,stream@socket1", 1000); });
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("program 'stream': core"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("already program 'gups''s"), std::string::npos) << r.message;
  r = testing::capture_report([] { run_mix("multichip4-scaled.yaml", "gups@socket4", 1000); });
  EXPECT_NE(r.message.find("the platform has 4 sockets"), std::string::npos) << r.message;
  r = testing::capture_report([] { run_mix("multichip4-scaled.yaml", "gups@socket0.core2-5", 1000); });
  EXPECT_NE(r.message.find("socket0 has 4 cores"), std::string::npos) << r.message;
}

// The multi-chip paper's situation: a program too large for its node spills. First touch puts the
// overflow on the nodes of its fallback list in turn; hybrid spreads it over all three.
TEST(Mix, HybridSpreadsTheOverflowFirstTouchPilesOnOneNode) {
  const std::string mix = "gups:log2_size=22,updates_per_word=1@socket0";
  // Pages on socket0..3 at the end, as "a b c d".
  const auto final_pages = [&](const std::string& allocation) {
    const RunResult r = run_mix("multichip4-scaled.yaml", mix, 40000, {"os.allocation=" + allocation},
                                sc_core::sc_time(20, sc_core::SC_US));
    std::vector<uint64_t> pages;
    for (const char* node : {"socket0", "socket1", "socket2", "socket3"})
      pages.push_back(r.timeline["nodes"][node]["pages"].back().get<uint64_t>());
    return pages;
  };
  std::istringstream ft_text(testing::in_child([&] {
    std::string s;
    for (uint64_t p : final_pages("first-touch")) s += std::to_string(p) + " ";
    return s;
  }));
  std::vector<uint64_t> ft(4);
  for (uint64_t& p : ft) ft_text >> p;
  const std::vector<uint64_t> hy = final_pages("hybrid");
  EXPECT_EQ(ft[0], 4096u);  // socket0's 16 MiB is full
  EXPECT_EQ(hy[0], 4096u);
  // First touch: the overflow fills socket1, then the rest (32 MiB and the page tables are more
  // than two nodes hold) goes to socket2, the next in the fallback list; socket3 gets nothing.
  EXPECT_EQ(ft[1], 4096u);
  EXPECT_GT(ft[2], 0u);
  EXPECT_EQ(ft[3], 0u);
  // Hybrid: in equal thirds, to within the round-robin's last turn; socket1 also holds the page
  // tables' frames once socket0 is full (they are always allocated first-touch).
  EXPECT_GT(hy[2], 1000u);
  EXPECT_LE(std::max(hy[2], hy[3]) - std::min(hy[2], hy[3]), 1u);
  EXPECT_GE(hy[1], hy[2]);
  EXPECT_LE(hy[1], hy[2] + 100);
}

// DM (os.migration: balance): socket0's program overflows onto socket1, whose node then serves
// only remote traffic; the phases move those pages to the idle nodes, never socket0's own.
TEST(Mix, DynamicMigrationMovesTheOverflowOffTheBusiestNode) {
  RunOptions o;
  o.workload = "uniform:footprint=24MiB@socket0";
  o.instructions = 400000;
  o.placement = Placement::Dynamic;
  const RunResult r =
      testing::run_platform("multichip4-scaled.yaml", o, {"os.migration=balance", "os.phase_instructions=50000"});
  const auto& m = r.migration;
  ASSERT_FALSE(m.is_null());
  EXPECT_GT(m["pages_moved"].get<uint64_t>(), 100u);
  EXPECT_EQ(m["pages_moved"].get<uint64_t>(), m["socket_to_socket"].get<uint64_t>());
  for (const auto& p : m["per_phase"]) {
    if (p["pages_moved"].get<uint64_t>() == 0) continue;
    EXPECT_EQ(p["busiest_node"], "socket1");
    EXPECT_NE(p["least_busy_node"], "socket0");
    EXPECT_NE(p["least_busy_node"], "socket1");
    EXPECT_LT(p["accesses_moved"].get<uint64_t>(),
              p["busiest_accesses"].get<uint64_t>() - p["least_busy_accesses"].get<uint64_t>());
  }
  EXPECT_EQ(r.migration_policy, "balance (DM) on per-page counts");
}

// os.allocation weighted: the CXL pooling paper's composed memory. Half of host 0's pages in the
// pool, so half its LLC misses go there; without a CPU-less node the policy is refused.
TEST(Mix, WeightedAllocationPutsItsShareOfEveryHostsPagesInThePool) {
  const RunResult r = run_mix("cxl-hpc3-scaled.yaml", "local:footprint=8MiB@socket0", 50000, {"os.cpuless_share=0.5"});
  EXPECT_NEAR(r.breakdown[0], 0.5, 0.02);
  EXPECT_NEAR(r.breakdown[3], 0.5, 0.02);
  EXPECT_EQ(r.breakdown[1] + r.breakdown[2], 0.0);  // never another host's memory
}

TEST(Mix, WeightedAllocationNeedsACpuLessNode) {
  const auto e = testing::capture_report(
      [] { run_mix("multichip4-scaled.yaml", "local@socket0", 1000, {"os.allocation=weighted"}); });
  EXPECT_NE(e.message.find("weighted places pages on CPU-less CXL nodes"), std::string::npos) << e.message;
}

// One ChampSim trace per process: a single-threaded program from a trace beside a generated one,
// each in its own address space (the trace's real addresses are kept within its terabytes).
TEST(Mix, AChampSimTraceIsAProgramOfItsOwn) {
  std::vector<testing::Record> program(2000);
  for (size_t i = 0; i < program.size(); ++i) {
    program[i].ip = 0x401000 + 4 * (i % 64);
    if (i % 2 == 0) program[i].source_memory[0] = 0x7ffd00000000ull + (i * 4096) % (1 << 22);  // a stack far up
  }
  const std::vector<uint8_t> bytes = testing::encode(program);
  const std::string path = ::testing::TempDir() + "mix-program.champsim";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const RunResult r =
      run_mix("multichip4-scaled.yaml", "trace:" + path + "@socket1,uniform:footprint=1MiB@socket0", 20000);
  ASSERT_EQ(r.programs.size(), 2u);
  EXPECT_EQ(r.programs[0].name, "mix-program.champsim");
  EXPECT_EQ(r.programs[0].threads, 1u);           // one thread per trace
  EXPECT_GE(r.programs[0].instructions, 20000u);  // the budget, and the last op's instructions
  EXPECT_LE(r.programs[0].instructions, 20010u);
  EXPECT_GT(r.programs[0].llc_misses, 0u);
  EXPECT_EQ(r.programs[1].threads, 4u);
  EXPECT_EQ(r.socket_ipc[2], 0.0);
}

}  // namespace
}  // namespace starnuma
