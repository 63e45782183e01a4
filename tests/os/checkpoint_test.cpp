// Sampled runs' checkpoints: the file format round trip, every kind of damage reported with the file
// and offset, and a page map carried frame by frame into another map.
#include "os/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

constexpr uint64_t kPage = 4096;

PageMap small_map() {
  return PageMap(
      kPage,
      {{"socket0", 0, 4 * kPage, true}, {"socket1", 4 * kPage, 4 * kPage, true}, {"pool", 8 * kPage, 2 * kPage, false}},
      {{0, 1, 2}, {1, 0, 2}});
}

Checkpoint sample_checkpoint(const PageMap& m) {
  Checkpoint c;
  c.workload = "sharing:pages=4";
  c.seed = 7;
  c.platform = "p.yaml";
  c.cores_per_socket = {2, 2};
  c.knowledge = "tracker";
  c.counter_bits = 16;
  c.phase_instructions = 1000;
  c.phase = 3;
  c.ops = {10, 300000, 7, 0};
  c.retired = {50, 1500000, 35, 0};
  const int sockets[] = {0, 1, -1};
  for (size_t n = 0; n < 3; ++n) c.nodes.push_back({m.nodes()[n].name, sockets[n], m.frames(n)});
  c.moves = {{100, 2, MoveKind::Candidate}, {1ull << 40, 0, MoveKind::Victim}};
  c.from = {0, Checkpoint::kUnknownNode};
  c.scan_entries = 5;
  c.regions_scanned = 2;
  c.decision.hi = 20;
  c.decision.lo = 1;
  c.decision.candidates = 1;
  c.decision.pages = 2;
  c.decision.limit_reached = true;
  c.annex_stlb = true;
  for (uint64_t t = 0; t < 4; ++t)  // the last thread's TLBs empty; the annexed STLB's counts
    c.tlbs.push_back({64, 4, 1536, 12, t < 3 ? std::vector<uint64_t>{(100 + t) << 1} : std::vector<uint64_t>{},
                      t < 3 ? std::vector<uint64_t>{(7 << 1) | 1, (100 + t) << 1, (uint64_t{1} << 40) << 1}
                            : std::vector<uint64_t>{},
                      t < 3 ? std::vector<uint32_t>{0, 3, 65535} : std::vector<uint32_t>{}});
  c.metadata = {{2, 0x10003}, {70000, 1}};
  // Two LLCs of 8 lines in 2 ways (4 sets), the second empty; a pool directory of 4 entries.
  c.caches.coherent = true;
  const auto entry = [](uint64_t line, MesiState s) { return line << 2 | static_cast<uint64_t>(s); };
  c.caches.llcs = {
      {8, 2, {entry(8, MesiState::S), entry(0, MesiState::M), entry(129, MesiState::E), entry(3, MesiState::S)}},
      {8, 2, {}}};
  // A socket's unbounded directory (by block; a stale sharer, 0b100), the pool's of 4 entries.
  c.caches.directories = {{0, 0, 0, {{0, 0, 0}, {3, 0b111, -1}, {8, 0b1, -1}}}, {2, 4, 2, {{129, 0, 0}}}};
  // Two threads' L2s of 4 lines in 2 ways (2 sets), clean copies of their socket's lines.
  c.caches.l2s = {{4, 2, {entry(8, MesiState::E), entry(3, MesiState::E)}}, {4, 2, {}}};
  c.page_tables.root = 5 * kPage;
  c.page_tables.tables = {{1, 6 * kPage}, {9, 7 * kPage}};
  return c;
}

std::string temp_path(const std::string& name) { return "/tmp/starnuma-test-" + std::to_string(getpid()) + "-" + name; }

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

testing::Raised read_damaged(const std::string& bytes) {
  const std::string path = temp_path("damaged.ckpt");
  write(path, bytes);
  testing::Raised r = testing::capture_report([&] { read_checkpoint(path); });
  std::remove(path.c_str());
  return r;
}

PageMap map_with_pages() {
  PageMap m = small_map();
  m.translate(0x10000, 0);
  m.translate(0x20000, 1);
  m.translate(0x30000, 0);
  m.place(0x40, 2);
  const PageMap::Moved mv = m.move(0x30, 1);  // frees a frame of socket0
  m.release(mv.from);
  return m;
}

TEST(Checkpoint, RoundTripsEveryField) {
  const PageMap m = map_with_pages();
  const Checkpoint c = sample_checkpoint(m);
  const std::string path = temp_path("round.ckpt");
  write(path, c.serialise());
  const Checkpoint r = read_checkpoint(path);
  std::remove(path.c_str());
  EXPECT_EQ(r.header().dump(), c.header().dump());
  EXPECT_EQ(r.ops, c.ops);
  EXPECT_EQ(r.retired, c.retired);
  ASSERT_EQ(r.nodes.size(), 3u);
  for (size_t n = 0; n < 3; ++n) {
    EXPECT_EQ(r.nodes[n].socket, c.nodes[n].socket);
    EXPECT_EQ(r.nodes[n].frames.owners, c.nodes[n].frames.owners);
    EXPECT_EQ(r.nodes[n].frames.free, c.nodes[n].frames.free);
  }
  ASSERT_EQ(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[1].vpage, 1ull << 40);
  EXPECT_EQ(r.moves[1].kind, MoveKind::Victim);
  EXPECT_EQ(r.from, c.from);
  EXPECT_TRUE(r.decision.limit_reached);
  EXPECT_TRUE(r.annex_stlb);
  ASSERT_EQ(r.tlbs.size(), 4u);
  for (size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(r.tlbs[t].dtlb, c.tlbs[t].dtlb);
    EXPECT_EQ(r.tlbs[t].stlb, c.tlbs[t].stlb);
    EXPECT_EQ(r.tlbs[t].stlb_entries, 1536u);
    EXPECT_EQ(r.tlbs[t].dtlb_ways, 4u);
    EXPECT_EQ(r.tlbs[t].counts, c.tlbs[t].counts);
  }
  EXPECT_EQ(r.metadata, c.metadata);
  EXPECT_TRUE(r.caches.coherent);
  ASSERT_EQ(r.caches.llcs.size(), 2u);
  for (size_t s = 0; s < 2; ++s) {
    EXPECT_EQ(r.caches.llcs[s].entries, c.caches.llcs[s].entries);
    EXPECT_EQ(r.caches.llcs[s].lines, 8u);
    EXPECT_EQ(r.caches.llcs[s].ways, 2u);
  }
  ASSERT_EQ(r.caches.directories.size(), 2u);
  const CacheContents::Directory& socket = r.caches.directories[0];
  EXPECT_EQ(socket.entries, 0u);
  ASSERT_EQ(socket.records.size(), 3u);
  EXPECT_EQ(socket.records[1].block, 3u);
  EXPECT_EQ(socket.records[1].sharers, 0b111u);
  EXPECT_EQ(socket.records[1].owner, -1);
  EXPECT_EQ(socket.records[2].block, 8u);
  const CacheContents::Directory& pool = r.caches.directories[1];
  EXPECT_EQ(pool.home, 2u);
  EXPECT_EQ(pool.entries, 4u);
  ASSERT_EQ(pool.records.size(), 1u);
  EXPECT_EQ(pool.records[0].block, 129u);
  EXPECT_EQ(pool.records[0].owner, 0);
  ASSERT_EQ(r.caches.l2s.size(), 2u);
  EXPECT_EQ(r.caches.l2s[0].entries, c.caches.l2s[0].entries);
  EXPECT_EQ(r.caches.l2s[0].lines, 4u);
  EXPECT_EQ(r.caches.l2s[1].ways, 2u);
  EXPECT_TRUE(r.caches.l2s[1].entries.empty());
  EXPECT_EQ(r.header()["l2_lines"], 2);
  EXPECT_EQ(r.page_tables.root, 5 * kPage);
  EXPECT_EQ(r.page_tables.tables, c.page_tables.tables);
}

TEST(Checkpoint, CachesInAStateNoLlcCanHoldAreRefused) {
  const PageMap m = map_with_pages();
  Checkpoint c = sample_checkpoint(m);
  c.caches.llcs[0].entries.push_back(7 << 2);  // a line in state I (in set 3, the last)
  auto r = read_damaged(c.serialise());
  EXPECT_NE(r.message.find("an LLC entry out of its cache's sets or of an unknown state"), std::string::npos)
      << r.message;
  c = sample_checkpoint(m);
  c.caches.llcs[1].lines = 7;  // not a whole number of sets
  r = read_damaged(c.serialise());
  EXPECT_NE(r.message.find("an LLC of 7 lines in 2 ways"), std::string::npos) << r.message;
  c = sample_checkpoint(m);
  c.caches.coherent = false;  // an LLC that caches on its own holds no shared copy
  r = read_damaged(c.serialise());
  EXPECT_NE(r.message.find("unknown state"), std::string::npos) << r.message;
  c = sample_checkpoint(m);
  c.caches.l2s[1].entries.push_back(5 << 2 | static_cast<uint64_t>(MesiState::S));  // an L2 keeps no shared state
  r = read_damaged(c.serialise());
  EXPECT_NE(r.message.find("an L2 entry out of its cache's sets or of an unknown state"), std::string::npos)
      << r.message;
}

TEST(Checkpoint, MoreTlbEntriesThanTheTlbHoldsAreRefused) {
  const PageMap m = map_with_pages();
  Checkpoint c = sample_checkpoint(m);
  c.tlbs[0].dtlb_entries = 0;  // one entry in a TLB of none
  const auto r = read_damaged(c.serialise());
  EXPECT_NE(r.message.find("1 TLB entries in a TLB of 0"), std::string::npos) << r.message;
}

TEST(Checkpoint, EveryTruncationIsReportedWithItsOffset) {
  const std::string bytes = sample_checkpoint(map_with_pages()).serialise();
  for (size_t len = 0; len < bytes.size(); ++len) {
    const testing::Raised r = read_damaged(bytes.substr(0, len));
    ASSERT_TRUE(r.raised) << "truncated to " << len << " bytes";
    EXPECT_EQ(r.type, "starnuma/input");
    EXPECT_NE(r.message.find("damaged.ckpt: offset "), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("truncated"), std::string::npos) << r.message;
  }
}

TEST(Checkpoint, AnyFlippedByteIsCaught) {
  const std::string bytes = sample_checkpoint(map_with_pages()).serialise();
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    const testing::Raised r = read_damaged(bad);
    ASSERT_TRUE(r.raised) << "byte " << at;
    EXPECT_EQ(r.type, "starnuma/input");
  }
}

TEST(Checkpoint, OtherFilesAndFormatVersionsAreRefusedByName) {
  EXPECT_NE(read_damaged("stats.json is not a checkpoint").message.find("not a starnuma checkpoint"),
            std::string::npos);
  std::string other = sample_checkpoint(map_with_pages()).serialise();
  other[8] = 1;  // format version 1
  EXPECT_NE(read_damaged(other).message.find("offset 8: checkpoint format version 1; this starnuma reads version 5"),
            std::string::npos);
  EXPECT_NE(read_damaged(sample_checkpoint(map_with_pages()).serialise() + "x").message.find("data after"),
            std::string::npos);
}

TEST(Checkpoint, APageMapRestoresFrameByFrame) {
  const PageMap m = map_with_pages();
  PageMap r = small_map();
  for (size_t n = 0; n < 3; ++n) ASSERT_EQ(r.restore(n, m.frames(n)), "");
  EXPECT_EQ(r.check(), "");
  for (uint64_t v : {0x10ull, 0x20ull, 0x30ull, 0x40ull}) {
    EXPECT_EQ(r.node_of(v), m.node_of(v));
    EXPECT_EQ(r.peek(v * kPage + 5), m.peek(v * kPage + 5));
  }
  for (size_t n = 0; n < 3; ++n) EXPECT_EQ(r.free_pages(n), m.free_pages(n));
  // The freed frame is the next one handed out, as in the original.
  PageMap copy = map_with_pages();
  EXPECT_EQ(r.translate(0x50000, 0), copy.translate(0x50000, 0));
}

TEST(Checkpoint, AMapThatDoesNotFitIsRefused) {
  PageMap::NodeFrames f;
  for (uint64_t v = 0; v < 5; ++v) f.owners.push_back(v);
  EXPECT_NE(small_map().restore(0, f).find("more than its 4"), std::string::npos);
  PageMap::NodeFrames twice{{7, 7}, {}};
  EXPECT_NE(small_map().restore(0, twice).find("in two frames"), std::string::npos);
  PageMap::NodeFrames bad_free{{7, PageMap::kNoPage}, {0}};
  EXPECT_NE(small_map().restore(0, bad_free).find("not an empty frame"), std::string::npos);
}

}  // namespace
}  // namespace starnuma
