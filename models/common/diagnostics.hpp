// Error reporting. Every error travels as an sc_report whose message type names its domain;
// the domain decides whether it is the user's error (bad input: exit code 1) or ours (a bug or
// a broken invariant: exit code 2). Configuration errors are collected, so that one `check` run
// shows every problem of a platform file at once, each as "file:line:column: key: message".
#pragma once

#include <string>
#include <vector>

#include "config_node.hpp"

namespace starnuma {

// sc_report message types, one per domain.
namespace msg {
inline constexpr const char* kConfig = "starnuma/config";      // platform files, --set, parameters
inline constexpr const char* kTopology = "starnuma/topology";  // references, connectivity
inline constexpr const char* kUsage = "starnuma/usage";        // command-line use
inline constexpr const char* kInput = "starnuma/input";        // workloads, trace files
inline constexpr const char* kModel = "starnuma/model";        // a model invariant broke (a bug)
inline constexpr const char* kInternal = "starnuma/internal";  // anything else that is our fault
}  // namespace msg

// True for the domains that describe bad input rather than a defect of the simulator.
bool is_user_error(const char* msg_type);

// Makes every starnuma message type throw (the CLI prints it) instead of logging and aborting.
void install_report_handler();

struct ConfigIssue {
  Location location;
  std::string key;  // full dotted path of the offending key; empty when there is none
  std::string message;
  std::string str() const;  // "file:line:column: error: key: message"
};

// Raises one issue at once, as an sc_report of type starnuma/config.
[[noreturn]] void throw_config_error(const ConfigIssue& issue);

// Collects issues during elaboration; raise_if_any() reports them all in one sc_report.
class Diagnostics {
 public:
  void error(Location loc, std::string key, std::string message, const char* domain = msg::kConfig);
  bool empty() const { return issues_.empty(); }
  size_t count() const { return issues_.size(); }
  const std::vector<ConfigIssue>& issues() const { return issues_; }
  void raise_if_any() const;

 private:
  std::vector<ConfigIssue> issues_;
  const char* domain_ = msg::kConfig;
};

// Raises an error of `domain` (one of msg::k*) as an sc_report.
[[noreturn]] void report_error(const char* domain, const std::string& what);
[[noreturn]] void report_internal(const std::string& what);

}  // namespace starnuma
