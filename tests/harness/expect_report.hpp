// Helpers to assert that code raises a starnuma sc_report.
#pragma once

#include <functional>
#include <string>

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

}  // namespace starnuma::testing
