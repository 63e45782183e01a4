// Readable names for tests parameterised by file name ("02-duplicate-key.yaml" -> "02_duplicate_key").
#pragma once

#include <cctype>
#include <string>

#include <gtest/gtest.h>

namespace starnuma::testing {

inline std::string file_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.rfind('.'));
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace starnuma::testing
