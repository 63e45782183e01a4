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
  void add(std::string where, std::string what, Time t) { steps.push_back({std::move(where), std::move(what), t}); }
};

struct MemAccess {
  MemOp op = MemOp::Read;
  uint64_t address = 0;        // physical address
  PathTrace* trace = nullptr;  // null: no record (the hot path)
};

}  // namespace starnuma
