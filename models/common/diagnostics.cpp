#include "diagnostics.hpp"

#include <algorithm>
#include <cstring>

#include <systemc>

namespace starnuma {

namespace {
const char* const kAllDomains[] = {msg::kConfig, msg::kTopology, msg::kUsage, msg::kInput, msg::kModel, msg::kInternal};
}

bool is_user_error(const char* msg_type) {
  for (const char* d : {msg::kConfig, msg::kTopology, msg::kUsage, msg::kInput})
    if (msg_type && std::strcmp(msg_type, d) == 0) return true;
  return false;
}

void install_report_handler() {
  using namespace sc_core;
  for (const char* d : kAllDomains) {
    sc_report_handler::set_actions(d, SC_ERROR, SC_THROW);
    sc_report_handler::set_actions(d, SC_FATAL, SC_THROW);
  }
}

std::string ConfigIssue::str() const {
  std::string s = location.str() + ": error: ";
  if (!key.empty()) s += key + ": ";
  return s + message;
}

void throw_config_error(const ConfigIssue& issue) {
  install_report_handler();
  SC_REPORT_ERROR(msg::kConfig, issue.str().c_str());
  throw std::logic_error("unreachable: SC_REPORT_ERROR returned");  // the handler throws
}

void Diagnostics::error(Location loc, std::string key, std::string message, const char* domain) {
  // A template applied to many components would repeat the same error once per component.
  for (const auto& i : issues_)
    if (i.message == message && i.location.str() == loc.str()) return;
  if (issues_.empty()) domain_ = domain;
  issues_.push_back(ConfigIssue{std::move(loc), std::move(key), std::move(message)});
}

void Diagnostics::raise_if_any() const {
  if (issues_.empty()) return;
  // In file order, so a user can fix them top to bottom.
  std::vector<ConfigIssue> sorted = issues_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const ConfigIssue& a, const ConfigIssue& b) {
    const std::string& fa = a.location.file ? *a.location.file : std::string();
    const std::string& fb = b.location.file ? *b.location.file : std::string();
    if (fa != fb) return fa < fb;
    if (a.location.line != b.location.line) return a.location.line < b.location.line;
    return a.location.column < b.location.column;
  });
  std::string text;
  for (const auto& i : sorted) {
    if (!text.empty()) text += '\n';
    text += i.str();
  }
  install_report_handler();
  SC_REPORT_ERROR(domain_, text.c_str());
  throw std::logic_error("unreachable: SC_REPORT_ERROR returned");
}

void report_error(const char* domain, const std::string& what) {
  install_report_handler();
  SC_REPORT_ERROR(domain, what.c_str());
  throw std::logic_error("unreachable: SC_REPORT_ERROR returned");
}

void report_internal(const std::string& what) {
  install_report_handler();
  SC_REPORT_FATAL(msg::kInternal, what.c_str());
  throw std::logic_error("unreachable: SC_REPORT_FATAL returned");
}

}  // namespace starnuma
