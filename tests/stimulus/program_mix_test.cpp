#include "stimulus/program_mix.hpp"

#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using testing::capture_report;

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ProgramMix, TextFormSplitsProgramsAtTheirPlacementsNotAtParameterCommas) {
  EXPECT_TRUE(is_program_mix("gups@socket0"));
  EXPECT_FALSE(is_program_mix("gups:log2_size=20"));
  const auto p =
      parse_program_mix("gups:log2_size=20,updates_per_word=2@socket0-1,stream@socket2.core1-2,gups@socket3");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].workload, "gups:log2_size=20,updates_per_word=2");
  EXPECT_EQ(p[0].sockets, (std::vector<unsigned>{0, 1}));
  EXPECT_FALSE(p[0].cores);
  EXPECT_EQ(p[1].workload, "stream");
  EXPECT_EQ(p[1].sockets, (std::vector<unsigned>{2}));
  ASSERT_TRUE(p[1].cores);
  EXPECT_EQ(*p[1].cores, std::make_pair(1u, 2u));
  // Names: the workload's, numbered when repeated.
  EXPECT_EQ(p[0].name, "gups");
  EXPECT_EQ(p[1].name, "stream");
  EXPECT_EQ(p[2].name, "gups#2");
  const auto t = parse_program_mix("trace:a.xz+b.xz@socket1");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].trace, (std::vector<std::string>{"a.xz", "b.xz"}));
  EXPECT_EQ(t[0].name, "a.xz");
}

TEST(ProgramMix, TextFormErrorsNameWhatIsWrong) {
  auto r = capture_report([] { parse_program_mix("gups@socket0,stream"); });
  EXPECT_TRUE(r.raised);
  EXPECT_NE(r.message.find("'stream' has no placement"), std::string::npos) << r.message;
  r = capture_report([] { parse_program_mix("gups@node0"); });
  EXPECT_NE(r.message.find("socketA, socketA-B"), std::string::npos) << r.message;
  r = capture_report([] { parse_program_mix("gups@socket3-1"); });
  EXPECT_NE(r.message.find("runs backwards"), std::string::npos) << r.message;
  r = capture_report([] { parse_program_mix("gups:log2_sise=20@socket0"); });
  EXPECT_NE(r.message.find("log2_sise"), std::string::npos) << r.message;  // the workload's own check
  r = capture_report([] { parse_program_mix("@socket0"); });
  EXPECT_NE(r.message.find("needs a workload"), std::string::npos) << r.message;
}

TEST(ProgramMix, FileFormNamesFileLineAndKey) {
  const std::string good = write_temp("mix-good.yaml",
                                      "programs:\n"
                                      "  - {name: big, workload: 'gups:log2_size=20', sockets: 0, instructions: 5000}\n"
                                      "  - {workload: stream, sockets: [1, 2-3], cores: 0-1, threads: 3}\n");
  EXPECT_TRUE(is_program_mix(good));
  const auto p = parse_program_mix(good);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].name, "big");
  EXPECT_EQ(p[0].instructions, 5000u);
  EXPECT_EQ(p[1].sockets, (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(p[1].threads, 3u);
  EXPECT_EQ(p[1].place, "socket1+2-3.core0-1");

  const std::string typo = write_temp("mix-typo.yaml", "programs:\n  - workload: stream\n    socket: 1\n");
  auto r = capture_report([&] { parse_program_mix(typo); });
  EXPECT_NE(r.message.find("mix-typo.yaml:3:5"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("did you mean 'sockets'"), std::string::npos) << r.message;
  const std::string twice = write_temp("mix-twice.yaml",
                                       "programs:\n  - {name: a, workload: stream, sockets: 0}\n"
                                       "  - {name: a, workload: gups, sockets: 1}\n");
  r = capture_report([&] { parse_program_mix(twice); });
  EXPECT_NE(r.message.find("two programs are named 'a'"), std::string::npos) << r.message;
  const std::string both = write_temp("mix-both.yaml", "programs:\n  - {workload: stream, trace: x, sockets: 0}\n");
  r = capture_report([&] { parse_program_mix(both); });
  EXPECT_NE(r.message.find("either a workload or a trace"), std::string::npos) << r.message;
  const std::string nowhere = write_temp("mix-nowhere.yaml", "programs:\n  - {workload: stream}\n");
  r = capture_report([&] { parse_program_mix(nowhere); });
  EXPECT_NE(r.message.find("which sockets"), std::string::npos) << r.message;
}

// Each program keeps its offsets within a terabyte; programs land on different terabytes; the
// same workload twice gives two disjoint address sets.
TEST(ProgramMix, ProgramsGetDisjointTerabytesOfOneAddressSpace) {
  std::vector<ProgramMix::Program> programs;
  programs.push_back({make_workload("uniform:footprint=1MiB", 2, 1, 1), "a"});
  programs.push_back({make_workload("uniform:footprint=1MiB", 1, 1, 1), "b"});
  const auto alone = make_workload("uniform:footprint=1MiB", 2, 1, 1);
  ProgramMix mix(std::move(programs), uint64_t{1} << 47);
  EXPECT_EQ(mix.threads(), 3u);
  EXPECT_EQ(mix.footprint(), 2u << 20);
  EXPECT_EQ(mix.program_of(1), 0u);
  EXPECT_EQ(mix.program_of(2), 1u);
  const auto a = take(*mix.stream(0), 1000), a_alone = take(*alone->stream(0), 1000), b = take(*mix.stream(2), 1000);
  std::set<uint64_t> pages_a, pages_b;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].address, a_alone[i].address);  // program 0's terabytes stay where they are
    pages_a.insert(a[i].address >> 12);
    pages_b.insert(b[i].address >> 12);
    EXPECT_EQ(b[i].address % kTerabyte, a_alone[i].address % kTerabyte);       // same seed, same offsets
    EXPECT_EQ(b[i].address / kTerabyte, a_alone[i].address / kTerabyte + 64);  // half of 128 terabytes on
  }
  for (uint64_t p : pages_b) EXPECT_EQ(pages_a.count(p), 0u);
}

TEST(ProgramMix, TerabytesThatWouldCollideAreAnErrorNamingBothPrograms) {
  // Two terabytes of address space: program 1's terabyte 1 would land on program 0's terabyte 0.
  std::vector<ProgramMix::Program> programs;
  programs.push_back({make_workload("uniform:footprint=1MiB", 1, 1, 1), "first"});
  programs.push_back({make_workload("stream:elements=4096", 1, 1, 1), "second"});  // stream lives at 1 TiB
  ProgramMix mix(std::move(programs), uint64_t{2} << 40);
  take(*mix.stream(0), 100);
  auto r = capture_report([&] { take(*mix.stream(1), 100); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("program second"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("program first's terabyte 0"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
