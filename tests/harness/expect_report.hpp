// Helpers to assert that code raises a starnuma sc_report.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

namespace starnuma::testing {

struct Raised {
  bool raised = false;
  std::string type;
  std::string message;
};

inline Raised capture_report(const std::function<void()>& f) {
  try {
    f();
  } catch (const sc_core::sc_report& r) {
    return Raised{true, r.get_msg_type(), r.get_msg()};
  }
  return Raised{};
}

// A configuration that must be refused, and a part of the message it must be refused with.
struct ConfigError {
  std::string text, message;
};

// Every case's text, given to `build`, raises a starnuma/config report whose message contains the
// case's message.
inline void expect_config_errors(const std::vector<ConfigError>& cases,
                                 const std::function<void(const std::string&)>& build) {
  for (const ConfigError& c : cases) {
    const Raised r = capture_report([&] { build(c.text); });
    ASSERT_TRUE(r.raised) << c.text;
    EXPECT_EQ(r.type, "starnuma/config") << c.text;
    EXPECT_NE(r.message.find(c.message), std::string::npos) << c.text << ": " << r.message;
  }
}

}  // namespace starnuma::testing
