// Reading a workload's streams in tests: the first operations of a stream, each thread's operations,
// and the operations cut at the barriers every thread passes.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "stimulus/stream.hpp"

namespace starnuma {

// The first n operations of `s` (fewer if it ends first), asked for at most `batch` at a time.
inline std::vector<StreamOp> take(ThreadStream& s, size_t n, size_t batch = std::numeric_limits<size_t>::max()) {
  std::vector<StreamOp> ops(n);
  size_t got = 0;
  while (got < n) {
    const size_t k = s.fill(ops.data() + got, std::min(n - got, batch));
    if (k == 0) break;
    got += k;
  }
  ops.resize(got);
  return ops;
}

// A thread's whole stream, read in batches of `batch` (small odd batches exercise the spill).
inline std::vector<StreamOp> all_ops(const Workload& w, unsigned t, size_t batch = 1000, size_t limit = 50'000'000) {
  auto s = w.stream(t);
  std::vector<StreamOp> ops, buffer(batch);
  for (size_t k; ops.size() < limit && (k = s->fill(buffer.data(), batch)) > 0;)
    ops.insert(ops.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(k));
  return ops;
}

// The streams cut at their barriers: phases[p][t] = thread t's operations before barrier p.
// Checks that every thread passes the same barriers and that only the first starts measurement.
using Phases = std::vector<std::vector<std::vector<StreamOp>>>;
inline Phases phases(const Workload& w) {
  Phases p;
  std::vector<uint64_t> ids;
  for (unsigned t = 0; t < w.threads(); ++t) {
    size_t phase = 0;
    std::vector<uint64_t> mine;
    if (p.empty()) p.emplace_back(w.threads());
    for (const StreamOp& op : all_ops(w, t, 7)) {
      if (op.kind == StreamOp::Kind::Barrier) {
        EXPECT_EQ(op.starts_measurement, mine.empty()) << "only the first barrier starts measurement";
        mine.push_back(op.address);
        if (p.size() <= ++phase) p.emplace_back(w.threads());
      } else {
        p[phase][t].push_back(op);
      }
    }
    if (t == 0) ids = mine;
    EXPECT_EQ(mine, ids) << "thread " << t << " passes other barriers";
  }
  return p;
}

}  // namespace starnuma
