// A run of `workload` on a shipped platform (platforms/NAME), with overrides: the whole-run tests'
// common step.
#pragma once

#include <string>
#include <vector>

#include "run/simulation.hpp"

namespace starnuma::testing {

// The run `options` describe, on platforms/NAME with `sets`.
inline RunResult run_platform(const std::string& platform, const RunOptions& options,
                              const std::vector<std::string>& sets = {}) {
  auto p = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/" + platform, sets);
  return run_workload(*p, options);
}

inline RunResult run_platform(const std::string& platform, const std::string& workload, uint64_t instructions,
                              Placement placement, const std::vector<std::string>& sets = {}) {
  RunOptions o;
  o.workload = workload;
  o.instructions = instructions;
  o.placement = placement;
  return run_platform(platform, o, sets);
}

// A sampled window's options: `checkpoint`'s, whose pass ran `workload` with `seed`.
inline RunOptions window_options(const std::string& checkpoint, const std::string& workload, uint64_t seed,
                                 uint64_t instructions, uint64_t warmup) {
  RunOptions o;
  o.checkpoint = checkpoint;
  o.workload = workload;
  o.seed = seed;
  o.instructions = instructions;
  o.warmup = warmup;
  return o;
}

// The memories' accesses that arrived before the floor (request_floor_fs), over a run's
// statistics tree: a model error, so 0.
inline uint64_t arrivals_before_floor(const nlohmann::json& stats) {
  uint64_t n = 0;
  if (!stats.is_object()) return 0;
  for (const auto& [key, value] : stats.items())
    n += key == "arrivals_before_floor" && value.is_number() ? value.get<uint64_t>() : arrivals_before_floor(value);
  return n;
}

}  // namespace starnuma::testing
