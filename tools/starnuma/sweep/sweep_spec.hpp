// A sweep file (docs/sweeps.md): options every run shares, axes whose cross product (or zipped
// groups) makes the runs, and a name for each. Read with the platform files' YAML layer, so an error
// names file, line, column and key, and every error is reported before anything runs.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/config_node.hpp"

namespace starnuma::cli {

enum class RunKind { Run, Sampled, Profile };
const char* kind_name(RunKind k);

struct SweepRun {
  std::string name;
  RunKind kind = RunKind::Run;
  std::string platform;                                     // resolved path (empty for profile)
  std::string platform_written;                             // as the sweep file gives it
  std::string platform_name;                                // its file stem
  std::map<std::string, std::string> options;               // option -> value text (see sweep_spec.cpp)
  std::vector<std::pair<std::string, std::string>> sets;    // --set overrides, by key
  std::vector<std::pair<std::string, std::string>> params;  // axis -> value as written
  Location where;                                           // the spec line that made this run

  std::string option(const std::string& key, const std::string& fallback = "") const {
    auto it = options.find(key);
    return it == options.end() ? fallback : it->second;
  }
  // The `starnuma` commands that perform the run, writing into `dir` (its folder under runs/).
  std::vector<std::vector<std::string>> commands(const std::string& dir) const;
  // Where the full statistics end up, relative to `dir`.
  std::string stats_file() const;
};

struct SweepSpec {
  std::string path;
  std::string name, description;
  std::string baseline;           // platform stem runs are normalised to
  std::vector<std::string> axes;  // the varying options, in the spec's order
  std::vector<SweepRun> runs;
};

// Reads and checks `path`; raises a starnuma/config error listing every problem.
SweepSpec load_sweep_spec(const std::string& path);

}  // namespace starnuma::cli
