#include "stimulus/workload_registry.hpp"

#include <fstream>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"

namespace starnuma {
namespace {

TEST(Workload, UniformSharesOneArrayAndIsDeterministic) {
  auto w = make_workload("uniform:footprint=1MiB", 4, 1, 42);
  EXPECT_EQ(w->threads(), 4u);
  EXPECT_EQ(w->footprint(), 1u << 20);
  auto a = take(*w->stream(0), 10000), again = take(*w->stream(0), 10000), other = take(*w->stream(1), 10000);
  ASSERT_EQ(a.size(), 10000u);
  uint64_t lo = ~0ull, hi = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].address, again[i].address);
    EXPECT_EQ(a[i].address % 64, 0u);
    lo = std::min({lo, a[i].address, other[i].address});
    hi = std::max({hi, a[i].address, other[i].address});
  }
  EXPECT_LT(hi - lo, 1u << 20);  // both threads inside the one shared array
  EXPECT_NE(a[0].address, other[0].address);
}

TEST(Workload, StoreFractionAndInstructionGapsAreAsConfigured) {
  auto w = make_workload("uniform:store_fraction=0.3,instructions=7", 1, 1, 1);
  auto ops = take(*w->stream(0), 100000);
  size_t stores = 0;
  for (const auto& op : ops) {
    stores += op.kind == StreamOp::Kind::Store;
    EXPECT_EQ(op.instructions, 7u);
  }
  EXPECT_NEAR(static_cast<double>(stores) / ops.size(), 0.3, 0.01);
}

TEST(Workload, LocalGivesEachThreadItsOwnArray) {
  auto w = make_workload("local:footprint=64KiB", 3, 1, 5);
  EXPECT_EQ(w->footprint(), 3u * 64 * 1024);
  std::vector<std::set<uint64_t>> pages(3);
  for (unsigned t = 0; t < 3; ++t)
    for (const auto& op : take(*w->stream(t), 5000)) pages[t].insert(op.address / (64 * 1024));
  for (unsigned t = 0; t < 3; ++t) {
    EXPECT_EQ(pages[t].size(), 1u);  // one 64 KiB array
    for (unsigned u = t + 1; u < 3; ++u) EXPECT_NE(*pages[t].begin(), *pages[u].begin());
  }
}

TEST(Workload, OperationsEndTheStream) {
  auto w = make_workload("local:operations=1000", 1, 1, 1);
  EXPECT_EQ(take(*w->stream(0), 5000).size(), 1000u);
}

// `sharing` draws its operations a batch at a time (stimulus/sharing.cpp): the stream must not
// depend on how many operations a reader asks for, nor end anywhere but at `operations`.
TEST(Workload, SharingStreamsDoNotDependOnTheReadersBatches) {
  auto w = make_workload("sharing:operations=5003", 64, 16, 11);
  for (unsigned t : {0u, 37u}) {
    const std::vector<StreamOp> whole = take(*w->stream(t), 6000);
    ASSERT_EQ(whole.size(), 5003u);
    for (size_t batch : {1u, 7u, 16u, 17u, 1000u}) {
      const std::vector<StreamOp> cut = take(*w->stream(t), 6000, batch);
      ASSERT_EQ(cut.size(), whole.size()) << "batch " << batch;
      for (size_t i = 0; i < whole.size(); ++i)
        ASSERT_TRUE(cut[i].address == whole[i].address && cut[i].kind == whole[i].kind)
            << "batch " << batch << ", operation " << i;
    }
  }
}

// The streams are those the operation-by-operation draws gave before the batches (the fingerprint
// was taken from that code): a batch that drew in another order, or looked a page up in another
// slice, would change every run of `sharing`.
TEST(Workload, SharingStreamsAreThoseOfTheOneByOneDraws) {
  auto w = make_workload("sharing", 64, 16, 42);
  uint64_t fingerprint = 1469598103934665603ull;  // FNV-1a over (address, kind, instructions)
  for (unsigned t : {0u, 5u, 63u})
    for (const StreamOp& op : take(*w->stream(t), 20000))
      for (uint64_t v : {op.address, static_cast<uint64_t>(op.kind), uint64_t{op.instructions}})
        fingerprint = (fingerprint ^ v) * 1099511628211ull;
  EXPECT_EQ(fingerprint, 7470572799578334455ull);
}

TEST(Workload, BadParametersAreReportedLikeYamlKeys) {
  auto r = testing::capture_report([] { make_workload("uniform:footprnt=1MiB", 1, 1, 1); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_EQ(
      r.message,
      "--workload uniform:footprnt=1MiB: error: uniform.footprnt: unknown key 'footprnt' (did you mean 'footprint'?)");
  r = testing::capture_report([] { make_workload("uniform:footprint=1MB", 1, 1, 1); });
  EXPECT_NE(r.message.find("'MB' is ambiguous for a size"), std::string::npos) << r.message;
  r = testing::capture_report([] { make_workload("uniform:store_fraction=2", 1, 1, 1); });
  EXPECT_NE(r.message.find("value 2 is out of range [0, 1]"), std::string::npos) << r.message;
  r = testing::capture_report([] { make_workload("unifrom", 1, 1, 1); });
  EXPECT_NE(r.message.find("unknown workload 'unifrom' (did you mean 'uniform'?)"), std::string::npos) << r.message;
  r = testing::capture_report([] { make_workload("uniform:footprint", 1, 1, 1); });
  EXPECT_NE(r.message.find("expected key=value"), std::string::npos) << r.message;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Workload, AWorkloadFileNamesItsWorkloadAndParameters) {
  const std::string path =
      write_temp("w.yaml", "# a test workload\nworkload: uniform\nfootprint: 2MiB\nstore_fraction: 0\n");
  auto w = make_workload(path, 2, 1, 1);
  EXPECT_EQ(w->footprint(), 2u << 20);
  for (const StreamOp& op : take(*w->stream(0), 1000)) EXPECT_EQ(op.kind, StreamOp::Kind::Load);
  // key=value after the file overrides it
  EXPECT_EQ(make_workload(path + ":footprint=4MiB", 2, 1, 1)->footprint(), 4u << 20);
}

TEST(Workload, BadWorkloadFilesNameFileLineAndKey) {
  auto r = testing::capture_report(
      [] { make_workload(write_temp("bad1.yaml", "workload: uniform\nfootprnt: 2MiB\n"), 1, 1, 1); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(
      r.message.find("bad1.yaml:2:1: error: uniform.footprnt: unknown key 'footprnt' (did you mean 'footprint'?)"),
      std::string::npos)
      << r.message;
  r = testing::capture_report([] { make_workload(write_temp("bad2.yaml", "footprint: 2MiB\n"), 1, 1, 1); });
  EXPECT_NE(r.message.find("names its workload"), std::string::npos) << r.message;
  r = testing::capture_report([] { make_workload(write_temp("bad3.yaml", "workload: unifrom\n"), 1, 1, 1); });
  EXPECT_NE(r.message.find("bad3.yaml:1:11: error: unknown workload 'unifrom'"), std::string::npos) << r.message;
  r = testing::capture_report([] { make_workload("no-such-file.yaml", 1, 1, 1); });
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("no-such-file.yaml"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
