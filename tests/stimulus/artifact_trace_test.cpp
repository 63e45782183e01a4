// The StarNUMA artifact's trace set, from small files written here in its formats (we do not have
// its real traces): memory-access traces, the set's directory, page-owner files as the initial
// placement, and their errors.
#include <functional>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/champsim_trace.hpp"
#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "harness/scratch_files.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/binary_io.hpp"
#include "stimulus/trace/memtrace.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using namespace trace;
namespace fs = std::filesystem;

constexpr uint64_t kHeap = 0x7f1200000000;  // terabyte 127

// (address word, instruction count) pairs, little-endian, as the tracer's fwrite leaves them.
std::vector<uint8_t> memtrace(const std::vector<std::pair<uint64_t, uint64_t>>& records) {
  std::vector<uint8_t> b(records.size() * 16);
  for (size_t i = 0; i < records.size(); ++i) {
    put_u64(&b[16 * i], records[i].first);
    put_u64(&b[16 * i + 8], records[i].second);
  }
  return b;
}

fs::path dir() { return testing::scratch_dir("starnuma_artifact_test_"); }

TEST(MemTrace, RecordsBecomeLoadsStoresAndInstructionGaps) {
  const fs::path d = dir();
  testing::write_file(d / "m", memtrace({{kHeap | 0, 1000},           // load
                                         {(kHeap + 0x40) | 1, 1004},  // store, 3 instructions between
                                         {kMemTraceMarker, 1100},     // a marker: skipped
                                         {kHeap + 0x80, 1104},        // the gap runs across it: 99
                                         {kHeap + 0xc0, 1104}}));     // one instruction's second operand
  MemTraceStream s((d / "m").string(), 990, false);                   // the traced stretch starts at 990
  const auto ops = take(s, 10);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].kind, StreamOp::Kind::Load);
  EXPECT_EQ(ops[0].address, kHeap);
  EXPECT_EQ(ops[0].instructions, 10u);  // since the stretch began
  EXPECT_EQ(ops[1].kind, StreamOp::Kind::Store);
  EXPECT_EQ(ops[1].address, kHeap + 0x40);  // the write flag is not part of the address
  EXPECT_EQ(ops[1].instructions, 3u);
  EXPECT_EQ(ops[2].instructions, 99u);
  EXPECT_EQ(ops[3].instructions, 0u);
  EXPECT_FALSE(ops[3].dependent);
  EXPECT_EQ(s.records(), 5u);
}

TEST(MemTrace, RepeatsAtTheEndInBoundedMemory) {
  const fs::path d = dir();
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (uint64_t i = 0; i < 100000; ++i) r.push_back({kHeap + 64 * (i % 5000), 10 * i});  // 1.6 MB
  testing::write_file(d / "big", memtrace(r));
  MemTraceStream s((d / "big").string());
  const auto ops = take(s, 250000);
  ASSERT_EQ(ops.size(), 250000u);
  EXPECT_EQ(s.passes(), 2u);
  EXPECT_EQ(ops[100000].address, kHeap);  // the file again
  EXPECT_EQ(ops[100000].instructions, 0u);
  EXPECT_EQ(ops[100001].instructions, 9u);
  EXPECT_LE(s.buffer_bytes(), 64u << 10);
}

// A stream written as a phase's memory-access trace (counts from P x 10^9, as the tracer's) reads
// back as the same operations, the first one's instructions included: light threads reading the
// artifact's form run in step with the same stream in starnuma's form.
TEST(MemTrace, APhaseTraceReadsBackAsTheStreamItRecords) {
  auto w = make_workload("uniform:footprint=1MiB,store_fraction=0.3", 1, 1, 7);
  const std::vector<StreamOp> ops = all_ops(*w, 0, 1000, 20000);
  ASSERT_GT(ops.front().instructions, 0u);                                     // the case the first count decides
  for (const StreamOp& op : ops) ASSERT_NE(op.kind, StreamOp::Kind::Barrier);  // which a trace cannot hold
  const uint64_t phase = 12;
  uint64_t count = phase * kArtifactPhaseInstructions;
  std::vector<std::pair<uint64_t, uint64_t>> records;
  for (const StreamOp& op : ops) {
    count += op.instructions;  // the access is the instruction after them
    records.push_back({op.address | (op.kind == StreamOp::Kind::Store), count});
    ++count;
  }
  const fs::path d = dir();
  testing::write_file(d / "mtrace_t0_12.out", memtrace(records));
  ArtifactWorkload artifact(find_artifact_set(d.string(), 1, std::nullopt, {false}));
  const std::vector<StreamOp> back = take(*artifact.stream(0), ops.size());
  ASSERT_EQ(back.size(), ops.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    ASSERT_EQ(back[k].kind, ops[k].kind) << k;
    ASSERT_EQ(back[k].address, ops[k].address & ~uint64_t{0xf}) << k;
    ASSERT_EQ(back[k].instructions, ops[k].instructions) << k;
  }
}

void expect_error(const fs::path& file, const std::string& text) {
  const auto e = testing::capture_report([&] {
    MemTraceStream s(file.string());
    take(s, 100);
  });
  ASSERT_TRUE(e.raised) << text;
  EXPECT_EQ(e.type, "starnuma/input");
  EXPECT_NE(e.message.find(file.string() + ": " + text), std::string::npos) << e.message;
}

TEST(MemTraceDamage, ErrorsNameFileAndOffset) {
  const fs::path d = dir();
  std::vector<uint8_t> cut = memtrace({{kHeap, 1}, {kHeap, 2}});
  cut.resize(24);
  testing::write_file(d / "cut", cut);
  expect_error(d / "cut", "offset 16: truncated memory-access record (8 of 16 bytes)");
  testing::write_file(d / "bits", memtrace({{kHeap, 1}, {kHeap | 4, 2}}));
  expect_error(d / "bits", "offset 16: address word 0x7f1200000004 has bits 1-3 set");
  testing::write_file(d / "back", memtrace({{kHeap, 10}, {kHeap, 20}, {kHeap, 15}}));
  expect_error(d / "back", "offset 32: instruction count 15 is below the previous record's (20)");
  testing::write_file(d / "empty", memtrace({{kMemTraceMarker, 100}}));
  expect_error(d / "empty", "offset 16: no memory accesses in 1 records: nothing to simulate");
}

// ---- the set's directory ----

// Phase `phase` of a set of `threads` threads: ChampSim traces for the first `champsim`, memory
// accesses for all (as the tracer writes them), each thread over `pages` pages from kHeap.
void write_set(const fs::path& d, unsigned threads, unsigned champsim, uint64_t phase, unsigned pages = 64) {
  for (unsigned t = 0; t < threads; ++t) {
    std::vector<std::pair<uint64_t, uint64_t>> m;
    std::vector<testing::Record> c(2 * pages);
    for (unsigned i = 0; i < 2 * pages; ++i) {
      const uint64_t a = kHeap + 4096 * ((i * (t + 1)) % pages) + 64 * t;
      m.push_back({a | (i % 3 == 0), phase * 1000000000 + 7 * i});
      c[i].source_memory[0] = a;
    }
    testing::write_file(d / ("mtrace_t" + std::to_string(t) + "_" + std::to_string(phase) + ".out"), memtrace(m));
    if (t < champsim)
      testing::write_file(d / ("champsim_" + std::to_string(t) + "_" + std::to_string(phase) + ".trace"),
                          testing::encode(c));
  }
}

TEST(ArtifactSet, DetailedCoresReadChampSimTheOthersMemoryAccesses) {
  const fs::path d = dir();
  write_set(d, 4, 3, 5);
  const ArtifactSet s = find_artifact_set(d.string(), 4, std::nullopt, {true, true, false, false});
  EXPECT_EQ(s.phase, 5u);
  EXPECT_EQ(s.champsim, (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(fs::path(s.files[0]).filename(), "champsim_0_5.trace");
  EXPECT_EQ(fs::path(s.files[3]).filename(), "mtrace_t3_5.out");
  EXPECT_NE(s.description.find("phase 5 (ChampSim: 0-1; memory accesses: 2-3)"), std::string::npos) << s.description;
  // Every thread shares the traces' addresses.
  ArtifactWorkload w(s);
  EXPECT_EQ(take(*w.stream(0), 1)[0].address, kHeap);
  EXPECT_EQ(take(*w.stream(2), 1)[0].address, kHeap + 128);
}

TEST(ArtifactSet, ErrorsNameTheDirectory) {
  const fs::path d = dir();
  write_set(d, 4, 1, 2);
  write_set(d, 4, 1, 3);
  auto error = [&](const std::function<void()>& f) { return testing::capture_report(f).message; };
  EXPECT_NE(error([&] {
              find_artifact_set(d.string(), 4, std::nullopt, {});
            }).find(d.string() + ": the trace set holds phases 2, 3; say which with --trace-phase"),
            std::string::npos);
  EXPECT_NE(error([&] { find_artifact_set(d.string(), 4, 7, {}); }).find("no traces of phase 7 (it holds phases 2, 3)"),
            std::string::npos);
  EXPECT_NE(error([&] {
              find_artifact_set(d.string(), 8, 2, {});
            }).find("phase 2 has traces of 4 threads (0 to 3); this run has 8"),
            std::string::npos);
  fs::remove(d / "mtrace_t2_3.out");
  EXPECT_NE(error([&] {
              find_artifact_set(d.string(), 4, 3, {});
            }).find("thread 2 has no trace of phase 3 (champsim_2_3.trace[.xz] or mtrace_t2_3.out)"),
            std::string::npos);
}

TEST(PageOwners, LinesAreReadAndBadOnesNamed) {
  const fs::path d = dir();
  std::ofstream(d / "ok") << "34359738368 3\n\n  34359738369\t100\r\n";
  std::vector<std::string> seen;
  read_page_owners((d / "ok").string(), [&](uint64_t line, uint64_t page, uint64_t owner) {
    seen.push_back(std::to_string(line) + ":" + std::to_string(page) + ":" + std::to_string(owner));
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"1:34359738368:3", "3:34359738369:100"}));
  std::ofstream(d / "bad") << "12 3\n13 socket4\n";
  const auto e = testing::capture_report([&] { read_page_owners((d / "bad").string(), [](auto, auto, auto) {}); });
  EXPECT_NE(e.message.find("bad: line 2: expected '<virtual page> <owner>' (two decimal numbers), got '13 socket4'"),
            std::string::npos)
      << e.message;
}

// ---- whole runs ----

// The set over starnuma16-scaled's 64 cores, socket0 detailed (the artifact's layout), with every
// page the threads touch listed in a page-owner file.
RunOptions artifact_run(const fs::path& d, uint64_t owner) {
  write_set(d, 64, 4, 1);
  std::ofstream owners(d / "page_owner_pre.txt");
  for (unsigned p = 0; p < 64; ++p) owners << (kHeap >> 12) + p << ' ' << owner << '\n';
  RunOptions o;
  o.trace_in = {d.string()};
  o.initial_placement = (d / "page_owner_pre.txt").string();
  o.instructions = 3000;
  o.placement = Placement::FirstTouch;
  o.pool_fraction = 1.0;
  o.detailed_sockets = 1;
  return o;
}

TEST(ArtifactRun, TheSetRunsWithItsPagesWhereTheOwnerFileSays) {
  const RunResult r = testing::run_platform("starnuma16-scaled.yaml", artifact_run(dir(), 100));
  EXPECT_EQ(r.workload.rfind("artifact:", 0), 0u);
  EXPECT_GT(r.breakdown[static_cast<size_t>(MissClass::Pool)], 0.99);  // every page the pool's
}

// Each run elaborates the platform: each in its own process.
std::string run_error(const std::string& platform, const RunOptions& o) {
  return testing::in_child([&] {
    const auto e = testing::capture_report([&] { testing::run_platform(platform, o); });
    return e.raised ? e.message : std::string("no error");
  });
}

TEST(ArtifactRun, OwnerFileErrorsNameFileAndLine) {
  const fs::path d = dir();
  RunOptions o = artifact_run(d, 100);
  EXPECT_NE(run_error("baseline16-scaled.yaml", o).find("page_owner_pre.txt: line 1: owner 100 is the pool"),
            std::string::npos);
  o.pool_fraction = 0.2;  // 13 of the 64 pages listed
  const std::string full = run_error("starnuma16-scaled.yaml", o);
  EXPECT_NE(full.find("page_owner_pre.txt: line 14: "), std::string::npos) << full;
  EXPECT_NE(full.find("is full"), std::string::npos) << full;
  o = artifact_run(d, 16);
  EXPECT_NE(run_error("starnuma16-scaled.yaml", o).find("line 1: owner 16: the platform has sockets 0 to 15"),
            std::string::npos);
  o = artifact_run(d, 2);
  std::ofstream(d / "page_owner_pre.txt", std::ios::app) << (kHeap >> 12) << " 2\n";
  EXPECT_NE(
      run_error("starnuma16-scaled.yaml", o).find("line 65: page " + std::to_string(kHeap >> 12) + " is listed twice"),
      std::string::npos);
  o.placement = Placement::Oracle;
  EXPECT_NE(run_error("starnuma16-scaled.yaml", o).find("the oracle places every page itself"), std::string::npos);
}

}  // namespace
}  // namespace starnuma
