// The ChampSim traces of one multi-threaded program share its address space (TraceSpace::Shared):
// addresses kept, folded into the platform's by ProgramMix's terabyte rule; against the
// multi-programmed default, where each core has its own.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/champsim_trace.hpp"
#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "harness/scratch_files.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/trace_input.hpp"

namespace starnuma {
namespace {

using namespace trace;
using testing::Record;
namespace fs = std::filesystem;

constexpr uint64_t kStack = 0x7f0000000000;  // terabyte 127, where a program's mmap areas and stack are

// Loads over `pages` pages from `base`, visited in an order `step` sets (two threads: other orders).
std::vector<Record> loads(uint64_t base, unsigned pages, unsigned step, size_t n) {
  std::vector<Record> r(n);
  for (size_t i = 0; i < n; ++i) r[i].source_memory[0] = base + 4096 * ((i * step) % pages) + 64 * (i % 64);
  return r;
}

fs::path write_trace(const fs::path& dir, const std::string& name, const std::vector<Record>& records) {
  testing::write_file(dir / name, testing::encode(records));
  return dir / name;
}

TEST(SharedTrace, ThreadsTouchingOneAddressMeetInSharedModeNotInSeparate) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const std::string a = write_trace(dir, "t0", loads(kStack, 16, 1, 64)).string();
  const std::string b = write_trace(dir, "t1", loads(kStack, 16, 1, 64)).string();
  ChampSimWorkload separate({a, b}, 2), shared({a, b}, 2, TraceSpace::Shared);
  const auto s0 = take(*separate.stream(0), 64), s1 = take(*separate.stream(1), 64);
  const auto h0 = take(*shared.stream(0), 64), h1 = take(*shared.stream(1), 64);
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_NE(s0[i].address, s1[i].address) << i;                             // two programs: two spaces
    EXPECT_EQ(h0[i].address, h1[i].address) << i;                             // one program: one space
    EXPECT_EQ(h0[i].address, kStack + 4096 * (i % 16) + 64 * (i % 64)) << i;  // as the trace has it
  }
}

// Folded as a one-program mix: terabyte r becomes r mod M, the same whichever thread is pulled
// first (cores pull streams in an order simulated timing decides).
TEST(SharedTrace, FoldingIsByTerabyteAndIndependentOfPullOrder) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const std::string a = write_trace(dir, "a", loads(0x555500000000, 8, 3, 200)).string();  // terabyte 85
  const std::string b = write_trace(dir, "b", loads(kStack, 8, 5, 200)).string();          // terabyte 127
  const uint64_t space = 64 * kTerabyte;                                                   // M = 64
  auto run = [&](bool b_first) {
    auto w = one_process(std::make_unique<ChampSimWorkload>(std::vector<std::string>{a, b}, 2, TraceSpace::Shared),
                         "prog", space);
    std::vector<StreamOp> first = take(*w->stream(b_first ? 1 : 0), 200);
    std::vector<StreamOp> second = take(*w->stream(b_first ? 0 : 1), 200);
    if (b_first) std::swap(first, second);
    first.insert(first.end(), second.begin(), second.end());
    return first;
  };
  const auto x = run(false), y = run(true);
  ASSERT_EQ(x.size(), 400u);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].address, y[i].address) << i;
  EXPECT_EQ(x[0].address / kTerabyte, 85u % 64);
  EXPECT_EQ(x[200].address / kTerabyte, 127u % 64);
  EXPECT_EQ(x[200].address % kTerabyte, kStack % kTerabyte);    // offsets within a terabyte kept
  EXPECT_EQ(x[200].address, mix_address(kStack, 0, 1, space));  // b's first op, as a page-owner file is folded
}

TEST(SharedTrace, TerabytesFoldingOntoOneAreTheMixError) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  std::vector<Record> r = loads(0x1000000, 4, 1, 10);              // terabyte 0 (non-PIE data)
  for (const Record& s : loads(kStack, 4, 1, 10)) r.push_back(s);  // terabyte 127
  const std::string f = write_trace(dir, "spread", r).string();
  auto w = one_process(std::make_unique<ChampSimWorkload>(std::vector<std::string>{f}, 1, TraceSpace::Shared), "spread",
                       127 * kTerabyte);  // the default 16-set DTLB's 127 terabytes: 127 lands on 0
  const auto e = testing::capture_report([&] { take(*w->stream(0), 20); });
  ASSERT_TRUE(e.raised);
  EXPECT_NE(e.message.find("program spread: thread 0, op 10: address 0x7f0000000000 is in its terabyte 127, whose "
                           "place in the shared address space program spread's terabyte 0 already holds"),
            std::string::npos)
      << e.message;
}

// A run from two traces over every core of starnuma16-scaled (cores alternate a and b): shared,
// every socket touches the same pages, so the oracle sends the widely shared ones to the pool and
// the rest are remote for most sockets; separate, each core's pages are its own and all local.
RunOptions two_traces(const fs::path& dir, std::optional<TraceSpace> space) {
  RunOptions o;
  o.trace_in = {write_trace(dir, "a", loads(kStack, 2048, 7, 3000)).string(),
                write_trace(dir, "b", loads(kStack, 2048, 11, 3000)).string()};
  o.trace_space = space;
  o.instructions = 6000;
  o.placement = Placement::Oracle;
  return o;
}

std::string summary(const RunResult& r) {
  std::ostringstream s;
  s.precision(17);
  s << r.amat_ns << " " << r.ipc;
  for (double b : r.breakdown) s << " " << b;
  return s.str();
}

TEST(SharedTraceRun, SharedTracesReachThePoolAndOtherSocketsSeparateOnesStayLocal) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const std::string separate = testing::in_child(
      [&] { return summary(testing::run_platform("starnuma16-scaled.yaml", two_traces(dir, TraceSpace::Separate))); });
  const std::string baseline = testing::in_child(
      [&] { return summary(testing::run_platform("baseline16-scaled.yaml", two_traces(dir, TraceSpace::Shared))); });
  const RunResult r = testing::run_platform("starnuma16-scaled.yaml", two_traces(dir, TraceSpace::Shared));
  EXPECT_EQ(r.workload.rfind("champsim-shared:", 0), 0u) << r.workload;
  EXPECT_GT(r.breakdown[static_cast<size_t>(MissClass::Pool)], 0.05);
  EXPECT_GT(r.breakdown[static_cast<size_t>(MissClass::OneHop)] + r.breakdown[static_cast<size_t>(MissClass::TwoHop)],
            0.05);
  std::istringstream sep(separate);
  double amat = 0, ipc = 0, local = 0, pool = 0;
  sep >> amat >> ipc >> local;
  EXPECT_DOUBLE_EQ(local, 1.0) << separate;  // each core its own pages, all local
  std::istringstream base(baseline);
  base >> amat >> ipc >> local;
  for (int k = 0; k < 3; ++k) base >> pool;
  EXPECT_EQ(pool, 0.0) << baseline;  // the baseline has no pool
  EXPECT_GT(std::abs(amat / r.amat_ns - 1.0), 0.02) << baseline << " against " << summary(r);  // not 1.00x
}

TEST(SharedTraceRun, SameInputsGiveTheSameRun) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const std::string again = testing::in_child(
      [&] { return summary(testing::run_platform("starnuma16-scaled.yaml", two_traces(dir, TraceSpace::Shared))); });
  EXPECT_EQ(summary(testing::run_platform("starnuma16-scaled.yaml", two_traces(dir, TraceSpace::Shared))), again);
}

// In a mix a program is one process: its two traces on two sockets share pages, so one socket's
// first touches are the other's remote accesses.
TEST(SharedTraceRun, AMixProgramsTracesAreItsThreadsInOneSpace) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const std::string a = write_trace(dir, "a", loads(kStack, 512, 7, 2000)).string();
  const std::string b = write_trace(dir, "b", loads(kStack, 512, 13, 2000)).string();
  RunOptions o;
  o.workload = "trace:" + a + "+" + b + "@socket0-1.core0";
  o.instructions = 8000;
  o.placement = Placement::FirstTouch;
  const RunResult r = testing::run_platform("multichip4-scaled.yaml", o);
  ASSERT_EQ(r.programs.size(), 1u);
  EXPECT_EQ(r.programs[0].threads, 2u);
  EXPECT_LT(r.breakdown[0], 0.9);  // the other socket's first touches
  EXPECT_GT(r.breakdown[0], 0.1);
}

TEST(SharedTraceRun, TracePhaseNeedsAnArtifactTraceSet) {
  const fs::path dir = testing::scratch_dir("starnuma_shared_trace_");
  const auto e = testing::capture_report([&] {
    TraceInputOptions options;
    options.phase = 3;
    open_trace_input({write_trace(dir, "a", loads(kStack, 4, 1, 8)).string()}, 1, options);
  });
  EXPECT_NE(e.message.find("--trace-phase: applies to an artifact trace set"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace starnuma
