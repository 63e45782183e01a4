// The corpus of bad platform files in tests/bad_platforms/. Each file says in its header what it
// gets wrong and the exact errors it must produce:
//
//   # expect: @:3:3: error: platform.quantm: unknown key 'quantm' (did you mean 'quantum'?)
//   # args: --set platform.quantum=5
//
// "@:" stands for the file's own path, "@NAME" for the file NAME in the corpus. The errors raised must be exactly the
// expected ones (the same count, each line present) and must be user errors (exit code 1 from the CLI). Files with no
// "expect:" line are helpers that others extend.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/param_names.hpp"

#include "common/diagnostics.hpp"
#include "harness/expect_report.hpp"
#include "platform/platform.hpp"

namespace starnuma {
namespace {

const std::string kCorpus = std::string(STARNUMA_SOURCE_DIR) + "/tests/bad_platforms/";

struct Case {
  std::string file;
  std::vector<std::string> expect;
  std::vector<std::string> sets;
};

Case read_case(const std::string& file) {
  Case c{file, {}, {}};
  std::ifstream in(kCorpus + file);
  std::string line;
  const std::string path = kCorpus + file;
  while (std::getline(in, line)) {
    if (line.rfind("# expect: ", 0) == 0) {
      std::string e = line.substr(10);
      if (e.rfind("@:", 0) == 0) e = path + e.substr(1);
      else if (!e.empty() && e[0] == '@') e = kCorpus + e.substr(1);
      c.expect.push_back(e);
    } else if (line.rfind("# args: ", 0) == 0) {
      std::istringstream args(line.substr(8));
      std::string flag, value;
      while (args >> flag >> value) c.sets.push_back(value);  // only "--set K=V" pairs
    }
  }
  return c;
}

std::vector<std::string> corpus() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kCorpus))
    if (e.path().extension() == ".yaml" && !read_case(e.path().filename().string()).expect.empty())
      files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

class BadPlatform : public ::testing::TestWithParam<std::string> {};

TEST_P(BadPlatform, IsRejectedWithExactlyTheExpectedErrors) {
  Case c = read_case(GetParam());
  auto r = testing::capture_report([&] { Platform::build(kCorpus + c.file, c.sets); });
  ASSERT_TRUE(r.raised) << c.file << " was accepted";
  EXPECT_TRUE(is_user_error(r.type.c_str())) << r.type << ": " << r.message;
  std::vector<std::string> got;
  std::istringstream lines(r.message);
  for (std::string l; std::getline(lines, l);) got.push_back(l);
  for (const auto& e : c.expect)
    EXPECT_NE(std::find(got.begin(), got.end(), e), got.end()) << "missing: " << e << "\ngot:\n" << r.message;
  EXPECT_EQ(got.size(), c.expect.size()) << r.message;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadPlatform, ::testing::ValuesIn(corpus()), testing::file_test_name);

}  // namespace
}  // namespace starnuma
