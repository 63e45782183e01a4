// A fresh folder per test (removed when the test's process exits) and files written into it: the
// trace tests' common steps.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace starnuma::testing {

inline std::filesystem::path scratch_dir(const std::string& prefix) {
  namespace fs = std::filesystem;
  struct Root {
    fs::path path;
    ~Root() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Root root{fs::temp_directory_path() / (prefix + std::to_string(getpid()))};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = root.path / (std::string(info->test_suite_name()) + "." + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace starnuma::testing
