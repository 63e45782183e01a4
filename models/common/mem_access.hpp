// What the fabric carries: one cache-line memory access, and an optional record of where its
// latency came from (filled only when asked for, e.g. by `starnuma latency --paths`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "common/units.hpp"

namespace starnuma {

enum class MemOp : uint8_t { Read, Write };

struct PathStep {
  std::string where;  // component path
  std::string what;   // e.g. "link latency", "queueing", "DRAM"
  Time time;
};

struct PathTrace {
  std::vector<PathStep> steps;
  // Cold and out of line: the compiler then moves the code that records a step (and builds its
  // strings) out of the hot paths that may record one, which keeps those paths small in the host's
  // instruction cache.
  [[gnu::cold]] void add(std::string where, std::string what, Time t);
};

struct MemAccess {
  MemOp op = MemOp::Read;
  uint64_t address = 0;        // physical address
  PathTrace* trace = nullptr;  // null: no record (the hot path)
};

}  // namespace starnuma
