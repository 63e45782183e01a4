// Breadth-first search as GAP runs it, traced per thread: direction-optimizing (Beamer) by
// default, top-down only on request.
//
// Each traversal is computed, step by step and deterministically, when a stream first reaches its
// search (a run computes only the searches it reaches). In a top-down step a vertex's parent is
// the first frontier vertex, in queue order, that reaches it; in a bottom-up step it is the first
// neighbour, in adjacency order, that is in the frontier. The search is then
// a ParallelProgram: each thread's stream is produced on the fly from that result, the loads and
// stores of the real arrays at their addresses, a barrier after each parallel loop, GAP's
// schedules (dynamic, 64 queue entries top-down, 1024 vertices bottom-up).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus/graph/kronecker.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

// Where the kernel's arrays live in the virtual address space (one region each).
struct GraphLayout {
  uint64_t offsets, neighbors, parent, queue, bitmap_a, bitmap_b, end;
  explicit GraphLayout(const CsrGraph& g);
};

// One parallel step of the search.
struct BfsStep {
  enum class Kind : uint8_t { TopDown, BottomUp, QueueToBitmap, BitmapToQueue };
  Kind kind;
  int64_t queue_begin = 0, queue_end = 0;  // TopDown, QueueToBitmap: the frontier in `queue`;
                                           // BitmapToQueue: where it appends the new frontier
  bool front_is_a = true;                  // BottomUp: which bitmap holds the frontier (the other is next)
  int32_t level = 0;                       // TopDown, BottomUp: the depth of the vertices it discovers
};

struct BfsResult {
  std::vector<int32_t> parent;      // -1: not reached; the root is its own parent
  std::vector<int32_t> depth;       // -1: not reached
  std::vector<int32_t> queue;       // every frontier, in the order the queue held them
  std::vector<int64_t> queue_slot;  // per vertex: its index in `queue` when it was appended (-1: never)
  std::vector<BfsStep> steps;
  std::vector<int64_t> level_start;  // top-down only: queue index where each level begins (+ the end)
};

// `direction_optimizing`: GAP's switch between top-down and bottom-up (alpha 15, beta 18).
BfsResult breadth_first_search(const CsrGraph& g, int32_t root, bool direction_optimizing = false);

// Checks that `r` is a valid BFS tree of `g` from `root`: every reached vertex's parent is a
// neighbour one level up, every neighbour of a reached vertex is reached, the root is at depth 0.
// Returns an empty string, or what is wrong.
std::string check_bfs(const CsrGraph& g, int32_t root, const BfsResult& r);

class BfsProgram;  // the graph, its layout and the searches

class BfsWorkload : public ProgramWorkload {
 public:
  BfsWorkload(CsrGraph graph, unsigned trials, bool direction_optimizing, unsigned threads, uint64_t seed);
  ~BfsWorkload() override;
  const CsrGraph& graph() const;
  const std::vector<int32_t>& roots() const;
  BfsResult traversal(size_t trial) const;  // computed again (the streams compute each search when reached)

 private:
  BfsWorkload(std::shared_ptr<const BfsProgram> program, unsigned threads);
  std::shared_ptr<const BfsProgram> bfs_;
};

}  // namespace starnuma
