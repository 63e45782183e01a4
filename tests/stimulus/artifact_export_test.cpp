// `trace artifact`: a starnuma trace written as the StarNUMA artifact's trace set reads back, through
// starnuma's own reader of such sets, as the streams it was written from; its page-owner file
// places each page on its busiest socket; bad options and folders are refused.
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/scratch_files.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/artifact_export.hpp"
#include "stimulus/trace/trace_reader.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using namespace trace;
namespace fs = std::filesystem;

// `description` for `threads` threads recorded into dir/t.snt.
std::string record(const fs::path& dir, const std::string& description, unsigned threads, uint64_t instructions) {
  auto w = make_workload(description, threads, threads / 4, 5);
  TraceHeader h;
  h.threads = w->threads();
  h.seed = 5;
  h.footprint = w->footprint();
  h.instructions = instructions;
  h.initialises = w->initialises();
  h.workload = description;
  const std::string file = (dir / "t.snt").string();
  record_trace(*w, file, h);
  return file;
}

std::vector<StreamOp> recorded(const std::string& file, unsigned thread) {
  std::vector<StreamOp> ops;
  for_each_recorded_access(TraceFile::open(file), thread, false, [&](const StreamOp& op) { ops.push_back(op); });
  return ops;
}

TEST(ArtifactExport, TheSetReadsBackAsTheStreamsItWasWrittenFrom) {
  const fs::path d = testing::scratch_dir("starnuma_artifact_export_");
  // A graph walk: its dependent loads survives in the ChampSim traces, not in the memory-access ones.
  const std::string snt = record(d, "bfs:scale=10", 8, 3000);
  ArtifactExport o;
  o.trace = snt;
  o.out = (d / "set").string();
  o.phase = 3;
  o.detailed_threads = 2;
  const ArtifactExportResult r = export_artifact_set(o);
  EXPECT_EQ(r.threads, 8u);
  const std::vector<bool> detailed{true, true, false, false, false, false, false, false};
  const ArtifactSet set = find_artifact_set(o.out, 8, 3, detailed);
  EXPECT_EQ(set.champsim, detailed);
  ArtifactWorkload back(set);
  uint64_t total = 0, dependent = 0;
  for (unsigned t = 0; t < 8; ++t) {
    const std::vector<StreamOp> ops = recorded(snt, t);
    ASSERT_GT(ops.size(), 100u);
    const std::vector<StreamOp> got = take(*back.stream(t), ops.size());
    ASSERT_EQ(got.size(), ops.size()) << t;
    for (size_t k = 0; k < ops.size(); ++k) {
      ASSERT_EQ(got[k].kind, ops[k].kind) << t << ":" << k;
      ASSERT_EQ(got[k].instructions, ops[k].instructions) << t << ":" << k;
      ASSERT_EQ(got[k].address, set.champsim[t] ? ops[k].address : ops[k].address & ~uint64_t{0xf}) << t << ":" << k;
      ASSERT_EQ(got[k].dependent, set.champsim[t] && ops[k].dependent) << t << ":" << k;
      dependent += ops[k].dependent;
    }
    total += ops.size();
  }
  EXPECT_EQ(r.accesses, total);
  EXPECT_GT(dependent, 0u);  // the case the ChampSim traces keep
}

TEST(ArtifactExport, EachPageGoesToTheSocketThatUsesItMost) {
  const fs::path d = testing::scratch_dir("starnuma_artifact_export_");
  const std::string snt = record(d, "uniform:footprint=256KiB", 8, 4000);
  ArtifactExport o;
  o.trace = snt;
  o.out = (d / "set").string();
  const ArtifactExportResult r = export_artifact_set(o);
  std::map<uint64_t, std::array<uint64_t, 2>> uses;  // page -> accesses by socket 0, socket 1
  for (unsigned t = 0; t < 8; ++t)
    for (const StreamOp& op : recorded(snt, t)) ++uses[op.address / 4096][t / 4];
  std::map<uint64_t, uint64_t> owners;
  read_page_owners(r.owner_file, [&](uint64_t, uint64_t page, uint64_t owner) { owners[page] = owner; });
  ASSERT_EQ(owners.size(), uses.size());
  EXPECT_EQ(r.pages, uses.size());
  unsigned on_one = 0;
  for (const auto& [page, n] : uses) {
    ASSERT_TRUE(owners.count(page)) << page;
    EXPECT_EQ(owners[page], n[1] > n[0] ? 1u : 0u) << page;
    on_one += owners[page] == 1;
  }
  EXPECT_GT(on_one, 0u);
  EXPECT_LT(on_one, uses.size());
  // No migration: the phase ends where it starts.
  std::ifstream pre(r.owner_file), post(fs::path(r.owner_file).replace_filename("page_owner_post.txt"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(pre), {}),
            std::string(std::istreambuf_iterator<char>(post), {}));
}

TEST(ArtifactExport, OptionsThatDoNotFitAreRefusedAndNothingIsLeft) {
  const fs::path d = testing::scratch_dir("starnuma_artifact_export_");
  ArtifactExport o;
  o.trace = record(d, "uniform:footprint=64KiB", 6, 200);
  o.out = (d / "set").string();
  auto error = [&](const ArtifactExport& x) { return testing::capture_report([&] { export_artifact_set(x); }); };
  auto e = error(o);
  EXPECT_EQ(e.type, "starnuma/usage");
  EXPECT_NE(e.message.find("has 6 threads, not whole sockets of 4 cores (--cores-per-socket)"), std::string::npos)
      << e.message;
  o.cores_per_socket = 3;
  o.detailed_threads = 7;
  e = error(o);
  EXPECT_NE(e.message.find("--detailed-threads 7: " + o.trace + " has 6 threads"), std::string::npos) << e.message;
  EXPECT_FALSE(fs::exists(o.out));
  // A folder it did not write is not replaced.
  fs::create_directories(o.out);
  std::ofstream(fs::path(o.out) / "mine.txt") << "keep";
  o.detailed_threads = 3;
  e = error(o);
  EXPECT_NE(e.message.find("exists and is not a folder this command wrote"), std::string::npos) << e.message;
  EXPECT_TRUE(fs::exists(fs::path(o.out) / "mine.txt"));
  fs::remove_all(o.out);
  EXPECT_EQ(export_artifact_set(o).threads, 6u);
  EXPECT_EQ(export_artifact_set(o).threads, 6u);  // its own folder is replaced
}

}  // namespace
}  // namespace starnuma
