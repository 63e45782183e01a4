// Trace files: starnuma's own format (round trip, every kind of damage, bounded memory) and
// ChampSim traces, plain and xz (built here, compressed with liblzma).
#include <lzma.h>

#include <unistd.h>

#include <cstring>
#include <functional>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "harness/champsim_trace.hpp"
#include "harness/expect_report.hpp"
#include "harness/scratch_files.hpp"
#include "run/simulation.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/champsim_writer.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/trace/trace_reader.hpp"
#include "stimulus/trace/trace_writer.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using namespace trace;
using testing::capture_report;
using testing::encode;
using testing::Record;
namespace fs = std::filesystem;

fs::path scratch() { return testing::scratch_dir("starnuma_trace_test_"); }

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) { testing::write_file(p, bytes); }

constexpr size_t kOddBatch = 100;  // streams are read in odd batches on purpose (take's third argument)

void expect_same(const std::vector<StreamOp>& a, const std::vector<StreamOp>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].kind, b[i].kind) << "op " << i;
    ASSERT_EQ(a[i].dependent, b[i].dependent) << "op " << i;
    ASSERT_EQ(a[i].starts_measurement, b[i].starts_measurement) << "op " << i;
    ASSERT_EQ(a[i].instructions, b[i].instructions) << "op " << i;
    ASSERT_EQ(a[i].address, b[i].address) << "op " << i;
  }
}

TraceHeader header_for(const Workload& w, const std::string& description, uint64_t seed, uint64_t instructions) {
  TraceHeader h;
  h.threads = w.threads();
  h.seed = seed;
  h.footprint = w.footprint();
  h.instructions = instructions;
  h.initialises = w.initialises();
  h.workload = description;
  return h;
}

// Records `description` for `threads` threads; returns the file.
fs::path record(const fs::path& dir, const std::string& description, unsigned threads, uint64_t instructions,
                uint64_t seed = 3) {
  auto w = make_workload(description, threads, 1, seed);
  const fs::path file = dir / "t.snt";
  record_trace(*w, file.string(), header_for(*w, description, seed, instructions));
  return file;
}

size_t header_bytes(const std::string& description) { return kHeaderFixedBytes + description.size() + 4; }

TEST(Trace, RoundTripGivesTheGeneratorsStreamsAndHeader) {
  const fs::path dir = scratch();
  for (const std::string description :
       {"uniform:footprint=1MiB", "chase:footprint=1MiB,operations=3000", "bfs:scale=8,trials=1"}) {
    SCOPED_TRACE(description);
    const fs::path file = record(dir, description, 4, 20000);
    auto live = make_workload(description, 4, 1, 3);
    auto f = TraceFile::open(file.string());
    EXPECT_EQ(f->header().workload, description);
    EXPECT_EQ(f->header().threads, 4u);
    EXPECT_EQ(f->header().seed, 3u);
    EXPECT_EQ(f->header().footprint, live->footprint());
    EXPECT_EQ(f->header().instructions, 20000u);
    EXPECT_EQ(f->header().initialises, live->initialises());
    TraceWorkload traced(f);
    for (unsigned t = 0; t < 4; ++t) {
      ASSERT_GT(f->ops(t), 0u);
      auto from_trace = traced.stream(t);
      expect_same(take(*from_trace, f->ops(t), kOddBatch), take(*live->stream(t), f->ops(t), kOddBatch));
    }
  }
}

TEST(Trace, RecordingCoversTheRunsBudgetFromTheMeasurementStart) {
  const fs::path dir = scratch();
  // chase: thread 0 first touches the array's 1024 pages before the barrier.
  const fs::path file = record(dir, "chase:footprint=4MiB,instructions=9", 2, 5000);
  auto f = TraceFile::open(file.string());
  const auto threads = verify_trace(f);
  EXPECT_EQ(threads[0].barriers, 1u);
  EXPECT_EQ(threads[0].stores, 1024u);  // the initialisation is recorded whole
  EXPECT_EQ(threads[1].ops, 1u);        // thread 1 only passes the barrier, and its stream ends
  EXPECT_TRUE(threads[1].stream_ended);
  uint64_t after_barrier = 0;
  TraceStream s(f, 0);
  bool measuring = false;
  for (const StreamOp& op : take(s, f->ops(0), kOddBatch)) {
    if (op.starts_measurement) measuring = true;
    else if (measuring && op.kind != StreamOp::Kind::Barrier) after_barrier += op.instructions + 1;
  }
  EXPECT_GE(after_barrier, recording_budget(5000));
  EXPECT_LT(after_barrier, recording_budget(5000) + 10);
}

TEST(Trace, AStreamThatEndedEndsAgainWhenReplayed) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform:operations=300", 2, 1000000);
  auto f = TraceFile::open(file.string());
  EXPECT_TRUE(f->stream_ended(0));
  TraceStream s(f, 0);
  EXPECT_EQ(take(s, 1000, kOddBatch).size(), 300u);
  StreamOp op;
  EXPECT_EQ(s.fill(&op, 1), 0u);
}

TEST(Trace, ReadingPastTheRecordedBudgetIsAnError) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform", 2, 1000);
  auto f = TraceFile::open(file.string());
  EXPECT_FALSE(f->stream_ended(1));
  TraceStream s(f, 1);
  EXPECT_EQ(take(s, f->ops(1), kOddBatch).size(), f->ops(1));
  StreamOp op;
  auto r = capture_report([&] { s.fill(&op, 1); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find(file.string() + ": thread 1: the run reads past the"), std::string::npos) << r.message;
}

// A window resumes a stream by skipping to its checkpoint's position: a trace passes whole blocks
// unread, and what follows is what a reader that decoded them all would get, wherever it stops
// (a block's first op, inside a block, its last, the end of a recording).
TEST(Trace, SkippingPassesBlocksUnreadAndResumesAtTheSameOp) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform:footprint=64MiB", 2, 400000);
  auto f = TraceFile::open(file.string());
  ASSERT_GT(f->blocks(0).size(), 3u) << "the case needs several blocks";
  const std::vector<StreamOp> all = take(*TraceWorkload(f).stream(0), f->ops(0), kOddBatch);
  const uint64_t first_block = f->block_ops(0)[0], two_blocks = first_block + f->block_ops(0)[1];
  for (const uint64_t at : {uint64_t{0}, uint64_t{1}, first_block - 1, first_block, first_block + 17, two_blocks,
                            f->ops(0) - 5, f->ops(0)}) {
    SCOPED_TRACE(at);
    TraceStream s(f, 0);
    ASSERT_EQ(s.skip(at), at);
    EXPECT_EQ(s.delivered(), at);
    const std::vector<StreamOp> rest = take(s, f->ops(0) - at, kOddBatch);
    expect_same(rest, std::vector<StreamOp>(all.begin() + static_cast<std::ptrdiff_t>(at), all.end()));
    if (at >= two_blocks) {
      EXPECT_LT(s.bytes_read(), f->file().size() / 2) << "whole blocks were read";
    }
  }
  // A skip that starts inside a block, after ops were read.
  TraceStream s(f, 0);
  take(s, 5, kOddBatch);
  ASSERT_EQ(s.skip(two_blocks), two_blocks);
  expect_same(take(s, 10, kOddBatch),
              std::vector<StreamOp>(all.begin() + 5 + static_cast<std::ptrdiff_t>(two_blocks),
                                    all.begin() + 15 + static_cast<std::ptrdiff_t>(two_blocks)));
}

TEST(Trace, SkippingPastTheRecordingIsTheSameErrorAsReadingPastIt) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform", 2, 1000);
  auto f = TraceFile::open(file.string());
  TraceStream s(f, 1);
  auto r = capture_report([&] { s.skip(f->ops(1) + 1); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find(file.string() + ": thread 1: the run reads past the"), std::string::npos) << r.message;
  // A stream that ended: a skip past it passes what there was.
  const fs::path ended = record(dir, "uniform:operations=300", 2, 1000000);
  TraceStream e(TraceFile::open(ended.string()), 0);
  EXPECT_EQ(e.skip(1000), 300u);
}

// A trace from a machine with wider virtual addresses than the cores translate (2^48 bytes:
// x86-64's four-level paging, with TLBs of enough sets to name them all) is refused at the op that
// goes beyond, naming the file and thread.
TEST(TraceRun, AnAddressBeyondTheVirtualAddressSpaceIsTheTracesError) {
  const fs::path dir = scratch();
  auto platform = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/baseline16-scaled.yaml",
                                  {"topology.socket.core.dtlb.entries=256"});
  TraceHeader h;
  h.threads = 64;
  h.footprint = 1 << 20;
  h.instructions = 100;
  h.workload = "hand-made";
  const fs::path file = dir / "wide.snt";
  {
    TraceWriter w(file.string(), h);
    for (unsigned t = 0; t < h.threads; ++t) {
      for (unsigned i = 0; i < 4; ++i) {
        StreamOp op;
        op.instructions = 10;
        op.address = t == 5 && i == 2 ? uint64_t{1} << 48 : 0x10000 + 64 * i;
        w.append(t, op);
      }
      w.end_thread(t, true);
    }
    w.commit();
  }
  RunOptions o;
  o.trace_in = {file.string()};
  o.instructions = 100;
  auto r = capture_report([&] { run_workload(*platform, o); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("trace " + file.string() + ": thread 5, op 2: address 0x1000000000000 is beyond"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("x86-64 four-level paging"), std::string::npos) << r.message;
}

// A TLB with one set names only 2^43 bytes of pages with its 31-bit tags: kv's table at 2^43 is
// then beyond it, and the error names the TLB instead of failing inside it.
TEST(TraceRun, ATlbTooSmallToNameTheWorkloadsAddressesIsNamed) {
  auto platform = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/baseline16-scaled.yaml",
                                  {"topology.socket.core.dtlb.ways=64"});
  RunOptions o;
  o.workload = "kv";
  o.instructions = 1000;
  auto r = capture_report([&] { run_workload(*platform, o); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("workload kv: thread 0, op 0: address"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("core.dtlb has 1 set"), std::string::npos) << r.message;
}

// Damages a recorded trace with `damage` and expects opening and reading it to fail with `expected`.
void expect_damage_reported(const std::function<void(std::vector<uint8_t>&)>& damage, const std::string& expected) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform", 2, 3000);
  std::vector<uint8_t> bytes = read_bytes(file);
  damage(bytes);
  write_bytes(file, bytes);
  auto r = capture_report([&] {
    auto f = TraceFile::open(file.string());
    verify_trace(f);
  });
  ASSERT_TRUE(r.raised) << "no error for damage expected to give: " << expected;
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_EQ(r.message.rfind(file.string() + ": offset ", 0), 0u) << r.message;
  EXPECT_NE(r.message.find(expected), std::string::npos) << r.message;
}

TEST(TraceDamage, BadMagic) {
  expect_damage_reported([](auto& b) { b[0] = 'X'; }, "offset 0: not a starnuma trace (bad magic number)");
}
TEST(TraceDamage, WrongVersion) {
  expect_damage_reported([](auto& b) { b[8] = 2; }, "offset 8: trace format version 2; this starnuma reads version 1");
}
TEST(TraceDamage, TruncatedHeader) {
  expect_damage_reported([](auto& b) { b.resize(30); }, "offset 30: truncated header");
  expect_damage_reported([](auto& b) { b.resize(5); }, "offset 5: truncated header");
}
TEST(TraceDamage, HeaderChecksum) {
  expect_damage_reported([](auto& b) { b[20] ^= 1; }, "header checksum mismatch");
}
TEST(TraceDamage, TruncatedBlock) {
  const size_t block = header_bytes("uniform");
  expect_damage_reported(
      [&](auto& b) { b.resize(block + 100); },
      "offset " + std::to_string(block + 100) + ": truncated block: the block at offset " + std::to_string(block));
  expect_damage_reported([&](auto& b) { b.resize(block + 10); },
                         "offset " + std::to_string(block + 10) + ": truncated block header");
}
TEST(TraceDamage, FlippedPayloadByteFailsTheChecksum) {
  const size_t block = header_bytes("uniform");
  expect_damage_reported([&](auto& b) { b[block + kBlockHeaderBytes + 500] ^= 0x10; },
                         "offset " + std::to_string(block) + ": block checksum mismatch (thread 0");
}
TEST(TraceDamage, MissingEndRecord) {
  expect_damage_reported([](auto& b) { b.resize(b.size() - 15); }, "truncated end record");
  const size_t end_record = 8 + 9 * 2 + 4;  // two threads
  expect_damage_reported([&](auto& b) { b.resize(b.size() - end_record); }, "the file ends without its end record");
}
TEST(TraceDamage, BlockOfAThreadTheTraceDoesNotHave) {
  const size_t block = header_bytes("uniform");
  expect_damage_reported([&](auto& b) { b[block + 4] = 9; },
                         "offset " + std::to_string(block + 4) + ": a block of thread 9 in a trace of 2 threads");
}
TEST(TraceDamage, DataAfterTheEndRecord) {
  expect_damage_reported([](auto& b) { b.push_back(0); }, "1 bytes of unexpected data after the end record");
}

TEST(TraceDamage, WrongThreadCountForTheRun) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform", 4, 100);
  auto r = capture_report([&] { open_trace_input({file.string()}, 64); });
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_EQ(r.message,
            file.string() + ": offset 12: the trace has 4 threads; this run has 64 (one per core of the platform)");
  EXPECT_EQ(open_trace_input({file.string()}, 4).workload->threads(), 4u);
}

TEST(Trace, ReaderHoldsOneBlockNotTheFile) {
  const fs::path dir = scratch();
  const fs::path file = record(dir, "uniform:footprint=1GiB", 2, 4000000);  // about 2 x 800k ops
  const uint64_t size = fs::file_size(file);
  ASSERT_GT(size, 20u * kTargetPayloadBytes);
  auto f = TraceFile::open(file.string());
  EXPECT_LT(f->scanned_bytes(), size / 1000);  // the index read block headers only
  ASSERT_GT(f->blocks(0).size(), 10u);
  TraceStream s(f, 0);
  take(s, 1000, kOddBatch);
  EXPECT_LE(s.bytes_read(), kBlockHeaderBytes + kTargetPayloadBytes + kMaxOpBytes);
  take(s, f->ops(0) - 1000, kOddBatch);
  EXPECT_EQ(s.delivered(), f->ops(0));
  EXPECT_LE(s.buffer_capacity(), kTargetPayloadBytes + kMaxOpBytes);  // one block, reused
}

TEST(Trace, FailedRecordingLeavesNoFile) {
  const fs::path dir = scratch();
  auto w = make_workload("uniform", 2, 1, 1);
  TraceHeader bad = header_for(*w, "uniform", 1, 100);
  bad.threads = 0;
  EXPECT_TRUE(capture_report([&] { TraceWriter writer((dir / "bad.snt").string(), bad); }).raised);
  {
    TraceWriter unfinished((dir / "unfinished.snt").string(), header_for(*w, "uniform", 1, 100));
    unfinished.append(0, StreamOp{});
  }                                // destroyed without commit(), as when recording fails
  EXPECT_TRUE(fs::is_empty(dir));  // neither the files nor their temporaries
  record_trace(*w, (dir / "good.snt").string(), header_for(*w, "uniform", 1, 100));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

// ---- ChampSim ----

std::vector<uint8_t> xz(const std::vector<uint8_t>& plain) {
  std::vector<uint8_t> out(lzma_stream_buffer_bound(plain.size()));
  size_t used = 0;
  EXPECT_EQ(
      lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr, plain.data(), plain.size(), out.data(), &used, out.size()),
      LZMA_OK);
  out.resize(used);
  return out;
}

// A pointer chase (each load's address register comes from the previous load), with arithmetic
// between, a store and an instruction with two loads.
std::vector<Record> sample_program() {
  std::vector<Record> p(6);
  p[0].source_memory[0] = 0x1000;  // load r1 <- [0x1000]
  p[0].destination_registers[0] = 1;
  p[1].source_registers[0] = 1;  // r2 <- r1 + 8 (no memory)
  p[1].destination_registers[0] = 2;
  p[2].source_registers[0] = 2;  // load r3 <- [r2]: dependent
  p[2].source_memory[0] = 0x2008;
  p[2].destination_registers[0] = 3;
  p[3].destination_memory[0] = 0x3000;  // store [0x3000] <- r5
  p[3].source_registers[0] = 5;
  p[4].source_memory[0] = 0x4000;  // two loads, one instruction, independent
  p[4].source_memory[1] = 0x4040;
  p[4].source_memory[2] = 0x4000;  // the same address again: one access
  p[4].destination_registers[0] = 4;
  p[5].source_registers[0] = 1;  // nothing in memory
  return p;
}

void expect_sample_ops(const std::vector<StreamOp>& ops, uint64_t base) {
  ASSERT_GE(ops.size(), 5u);
  EXPECT_EQ(ops[0].kind, StreamOp::Kind::Load);
  EXPECT_EQ(ops[0].address, base + 0x1000);
  EXPECT_FALSE(ops[0].dependent);
  EXPECT_EQ(ops[0].instructions, 0u);
  EXPECT_EQ(ops[1].address, base + 0x2008);
  EXPECT_TRUE(ops[1].dependent);
  EXPECT_EQ(ops[1].instructions, 1u);  // the add
  EXPECT_EQ(ops[2].kind, StreamOp::Kind::Store);
  EXPECT_EQ(ops[2].address, base + 0x3000);
  EXPECT_EQ(ops[3].address, base + 0x4000);
  EXPECT_FALSE(ops[3].dependent);
  EXPECT_EQ(ops[4].address, base + 0x4040);
  EXPECT_EQ(ops[4].instructions, 0u);  // same instruction as the op before
}

TEST(ChampSim, PlainRecordsBecomeLoadsStoresAndGaps) {
  const fs::path dir = scratch();
  write_bytes(dir / "prog.champsim", encode(sample_program()));
  EXPECT_EQ(detect_trace_kind((dir / "prog.champsim").string()), TraceKind::ChampSim);
  ChampSimStream s((dir / "prog.champsim").string(), 3, 36);
  const auto ops = take(s, 10, kOddBatch);  // five per pass: the file starts again at its end
  ASSERT_EQ(ops.size(), 10u);
  const uint64_t base = uint64_t{3} << 36;
  expect_sample_ops(ops, base);
  EXPECT_EQ(ops[5].address, base + 0x1000);
  EXPECT_EQ(ops[5].instructions, 1u);  // the last record of the pass before it
  EXPECT_EQ(s.passes(), 1u);
}

TEST(ChampSim, XzIsDetectedByItsMagicNotItsName) {
  const fs::path dir = scratch();
  const auto plain = encode(sample_program());
  write_bytes(dir / "prog.trace", xz(plain));
  EXPECT_EQ(detect_trace_kind((dir / "prog.trace").string()), TraceKind::ChampSimXz);
  ChampSimStream s((dir / "prog.trace").string(), 0, 36, false);
  const auto ops = take(s, 100, kOddBatch);
  EXPECT_EQ(ops.size(), 5u);
  EXPECT_EQ(s.records(), 6u);
  expect_sample_ops(ops, 0);
}

TEST(ChampSim, FilesMapToCoresRoundRobinEachInItsOwnSpace) {
  const fs::path dir = scratch();
  write_bytes(dir / "a", encode(sample_program()));
  std::vector<Record> other(1);
  other[0].destination_memory[0] = 0x9000;
  write_bytes(dir / "b.xz", xz(encode(other)));
  TraceInput in = open_trace_input({(dir / "a").string(), (dir / "b.xz").string()}, 5);
  ASSERT_EQ(in.workload->threads(), 5u);
  EXPECT_FALSE(in.seed.has_value());
  for (unsigned core = 0; core < 5; ++core) {
    const auto ops = take(*in.workload->stream(core), 3, kOddBatch);
    const uint64_t base = uint64_t{core} << champsim_window_bits(5);
    EXPECT_EQ(ops[0].address, base + (core % 2 == 0 ? 0x1000 : 0x9000)) << core;
  }
}

TEST(ChampSim, ProgramRegionsArePackedIntoTheCoresWindow) {
  EXPECT_EQ(champsim_window_bits(1), 38u);
  EXPECT_EQ(champsim_window_bits(64), 36u);
  EXPECT_EQ(champsim_window_bits(65), 35u);
  EXPECT_EQ(champsim_window_bits(1024), 32u);
  const fs::path dir = scratch();
  std::vector<Record> p(5);
  p[0].source_memory[0] = 0x7ffd12345678;  // stack
  p[1].source_memory[0] = 0x555555554000;  // program data
  p[2].destination_memory[0] = 0x7ffd12345680;
  p[3].source_memory[0] = 0x7f0040000010;  // mmap, two regions
  p[4].source_memory[0] = 0x7f0000000010;
  write_bytes(dir / "spread", encode(p));
  ChampSimStream s((dir / "spread").string(), 2, 32, false);
  const auto ops = take(s, 10, kOddBatch);
  ASSERT_EQ(ops.size(), 5u);
  const uint64_t base = uint64_t{2} << 32, gib = uint64_t{1} << 30;
  EXPECT_EQ(ops[0].address, base + 0x12345678 % gib);
  EXPECT_EQ(ops[1].address, base + gib + 0x555555554000 % gib);
  EXPECT_EQ(ops[2].address, base + 0x12345680 % gib);
  EXPECT_EQ(ops[3].address, base + 2 * gib + 0x10);
  EXPECT_EQ(ops[4].address, base + 3 * gib + 0x10);
  // A fifth region does not fit a 4 GiB window.
  p.push_back(p[0]);
  p.back().source_memory[0] = 0x10000;
  write_bytes(dir / "too_spread", encode(p));
  ChampSimStream t((dir / "too_spread").string(), 0, 32, false);
  auto r = capture_report([&] { take(t, 10, kOddBatch); });
  EXPECT_NE(r.message.find("too_spread: offset 320: the program touches more than 4 distinct 1 GiB regions"),
            std::string::npos)
      << r.message;
}

TEST(ChampSim, LargeXzTraceStreamsInBoundedMemory) {
  const fs::path dir = scratch();
  std::vector<Record> program(200000);
  for (size_t i = 0; i < program.size(); ++i) program[i].source_memory[0] = 0x10000 + 64 * (i % 5000);
  write_bytes(dir / "big.xz", xz(encode(program)));
  ChampSimStream s((dir / "big.xz").string(), 0, 36, false);
  take(s, 10, kOddBatch);
  const size_t held = s.buffer_bytes();
  EXPECT_LT(held, 200u << 10);
  EXPECT_EQ(take(s, 1000000, kOddBatch).size(), 200000u - 10);
  EXPECT_EQ(s.buffer_bytes(), held);
}

void expect_champsim_error(const fs::path& file, const std::string& expected, size_t ops = 100) {
  auto r = capture_report([&] {
    auto w = open_trace_input({file.string()}, 1);
    take(*w.workload->stream(0), ops, kOddBatch);
  });
  ASSERT_TRUE(r.raised) << expected;
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_EQ(r.message.rfind(file.string() + ": offset ", 0), 0u) << r.message;
  EXPECT_NE(r.message.find(expected), std::string::npos) << r.message;
}

TEST(ChampSimDamage, TruncatedRecordPlain) {
  const fs::path dir = scratch();
  auto bytes = encode(sample_program());
  bytes.resize(bytes.size() - 10);
  write_bytes(dir / "cut", bytes);
  expect_champsim_error(dir / "cut", "offset 320: truncated ChampSim record (54 of 64 bytes)");
}

TEST(ChampSimDamage, TruncatedRecordInsideXz) {
  const fs::path dir = scratch();
  auto bytes = encode(sample_program());
  bytes.resize(bytes.size() - 10);
  write_bytes(dir / "cut.xz", xz(bytes));
  expect_champsim_error(dir / "cut.xz", "offset 320: truncated ChampSim record (54 of 64 bytes of decompressed data)");
}

TEST(ChampSimDamage, CorruptAndTruncatedXz) {
  const fs::path dir = scratch();
  std::vector<Record> program(5000);
  for (size_t i = 0; i < program.size(); ++i) program[i].source_memory[0] = 0x10000 + 4096 * ((i * 7919) % 5000);
  const auto packed = xz(encode(program));
  auto corrupt = packed;
  corrupt[packed.size() / 2] ^= 0xff;
  write_bytes(dir / "corrupt.xz", corrupt);
  expect_champsim_error(dir / "corrupt.xz", "corrupt .xz data", 20000);
  auto cut = packed;
  cut.resize(packed.size() / 2);
  write_bytes(dir / "cut.xz", cut);
  expect_champsim_error(dir / "cut.xz", "offset " + std::to_string(cut.size()) + ": truncated .xz data", 20000);
}

TEST(ChampSimDamage, ATraceWithoutMemoryOperationsIsAnError) {
  const fs::path dir = scratch();
  write_bytes(dir / "empty", {});
  expect_champsim_error(dir / "empty", "offset 0: no memory operations in 0 records");
}

// What `trace champsim` writes, ChampSim's own register rules make dependent exactly where the
// stream says so; reading it back gives the stream's loads and stores, as they were.
TEST(ChampSimWriter, AWorkloadsStreamReadsBackAsTheSameOps) {
  const fs::path dir = scratch();
  auto w = make_workload("bfs:scale=8,trials=1", 2, 1, 3);
  std::vector<StreamOp> written;
  for (const StreamOp& op : take(*w->stream(1), 20000, kOddBatch))
    if (op.kind != StreamOp::Kind::Barrier) written.push_back(op);
  size_t dependent = 0;
  ChampSimWriter writer((dir / "bfs.champsim").string());
  for (const StreamOp& op : written) {
    writer.append(op);
    dependent += op.dependent;
  }
  EXPECT_FALSE(fs::exists(dir / "bfs.champsim"));  // only once committed
  writer.commit();
  ASSERT_GT(dependent, 100u);
  ChampSimStream back((dir / "bfs.champsim").string(), 0, kSharedSpace, false);
  expect_same(take(back, written.size() + 1, kOddBatch), written);
  uint64_t instructions = 0;
  for (const StreamOp& op : written) instructions += op.instructions + 1;
  EXPECT_EQ(writer.records(), instructions);
}

TEST(ChampSimWriter, AnAccessToAddressZeroIsRefusedAndLeavesNoFile) {
  const fs::path dir = scratch();
  {
    ChampSimWriter writer((dir / "zero.champsim").string());
    StreamOp op;
    op.address = 0;
    const auto r = capture_report([&] { writer.append(op); });
    ASSERT_TRUE(r.raised);
    EXPECT_EQ(r.type, "starnuma/input");
    EXPECT_NE(r.message.find("address 0 has no ChampSim form"), std::string::npos) << r.message;
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

// A whole run from ChampSim traces: two programs over 64 cores, each core in its own address
// space, so the oracle places every page on the socket of the one core that touches it.
TEST(ChampSimRun, MultiProgrammedRunKeepsEachCoreInItsOwnSpace) {
  const fs::path dir = scratch();
  std::vector<Record> a(3000), b(2000);
  for (size_t i = 0; i < a.size(); ++i) a[i].source_memory[0] = 0x7f0000000000 + 64 * ((i * 131) % 3000);
  for (size_t i = 0; i < b.size(); ++i)
    if (i % 2) b[i].destination_memory[0] = 0x10000 + 4096 * (i % 64);
  write_bytes(dir / "a.trace", encode(a));
  write_bytes(dir / "b.trace", xz(encode(b)));
  auto platform = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml");
  RunOptions o;
  o.trace_in = {(dir / "a.trace").string(), (dir / "b.trace").string()};
  o.instructions = 20000;  // several passes over each file
  o.placement = Placement::Oracle;
  RunResult r = run_workload(*platform, o);
  EXPECT_EQ(r.instructions, 64u * 20000u);
  EXPECT_DOUBLE_EQ(r.breakdown[0], 1.0);  // no page shared between cores: all local
  EXPECT_EQ(r.workload, "champsim:" + o.trace_in[0] + "," + o.trace_in[1]);
}

}  // namespace
}  // namespace starnuma
