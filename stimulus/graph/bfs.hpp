// Breadth-first search as GAP's top-down kernel runs it, traced per thread.
//
// The traversal itself is computed first (deterministically: a vertex's parent is the first
// frontier vertex, in queue order, that reaches it), giving every vertex's parent, depth and place
// in the queue. Each thread's stream is then produced on the fly from that result, in bounded
// memory: its static share of every level's frontier (OpenMP schedule(static)), the loads and
// stores of the real arrays at their addresses, and a barrier after each level.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus/graph/kronecker.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

// Where the kernel's arrays live in the virtual address space (one region each).
struct GraphLayout {
  static constexpr uint64_t kBase = uint64_t{1} << 36;
  uint64_t offsets, neighbors, parent, queue, end;
  explicit GraphLayout(const CsrGraph& g);
};

struct BfsResult {
  std::vector<int32_t> parent;           // -1: not reached; the root is its own parent
  std::vector<int32_t> depth;            // -1: not reached
  std::vector<int32_t> queue;            // vertices in the order they were discovered
  std::vector<int64_t> level_start;      // queue index where each level begins (+ the end)
};

BfsResult breadth_first_search(const CsrGraph& g, int32_t root);

// Checks that `r` is a valid BFS tree of `g` from `root`: every reached vertex's parent is a
// neighbour one level up, every neighbour of a reached vertex is reached, the root is at depth 0.
// Returns an empty string, or what is wrong.
std::string check_bfs(const CsrGraph& g, int32_t root, const BfsResult& r);

struct BfsShared;  // graph, layout and traversals, shared by the threads' streams

class BfsWorkload : public Workload {
 public:
  BfsWorkload(unsigned scale, unsigned degree, unsigned trials, unsigned threads, uint64_t seed);
  ~BfsWorkload() override;
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override;
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  const CsrGraph& graph() const;
  const std::vector<int32_t>& roots() const;
  const BfsResult& traversal(size_t trial) const;

 private:
  unsigned threads_;
  std::shared_ptr<BfsShared> shared_;
};

}  // namespace starnuma
