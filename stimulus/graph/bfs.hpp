// Breadth-first search as GAP runs it, traced per thread: direction-optimizing (Beamer) by
// default, top-down only on request.
//
// The traversal is computed first, step by step and deterministically. In a top-down step a
// vertex's parent is the first frontier vertex, in queue order, that reaches it; in a bottom-up
// step it is the first neighbour, in adjacency order, that is in the frontier. Each thread's
// stream is then produced on the fly from that result, in bounded memory: the loads and stores
// of the real arrays at their addresses, with a barrier after each parallel loop. GAP's dynamic
// scheduling is approximated by handing out chunks round-robin (64 queue entries top-down, 1024
// vertices bottom-up), so a thread's work does not depend on timing.
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
  uint64_t offsets, neighbors, parent, queue, bitmap_a, bitmap_b, end;
  explicit GraphLayout(const CsrGraph& g);
};

// One parallel step of the search.
struct BfsStep {
  enum class Kind : uint8_t { TopDown, BottomUp, QueueToBitmap, BitmapToQueue };
  Kind kind;
  int64_t queue_begin = 0, queue_end = 0;  // TopDown, QueueToBitmap: the frontier in `queue`;
                                            // BitmapToQueue: where it appends the new frontier
  bool front_is_a = true;                   // BottomUp: which bitmap holds the frontier (the other is next)
  int32_t level = 0;                        // TopDown, BottomUp: the depth of the vertices it discovers
};

struct BfsResult {
  std::vector<int32_t> parent;           // -1: not reached; the root is its own parent
  std::vector<int32_t> depth;            // -1: not reached
  std::vector<int32_t> queue;            // every frontier, in the order the queue held them
  std::vector<int64_t> queue_slot;       // per vertex: its index in `queue` when it was appended (-1: never)
  std::vector<BfsStep> steps;
  std::vector<int64_t> level_start;      // top-down only: queue index where each level begins (+ the end)
};

// `direction_optimizing`: GAP's switch between top-down and bottom-up (alpha 15, beta 18).
BfsResult breadth_first_search(const CsrGraph& g, int32_t root, bool direction_optimizing = false);

// Checks that `r` is a valid BFS tree of `g` from `root`: every reached vertex's parent is a
// neighbour one level up, every neighbour of a reached vertex is reached, the root is at depth 0.
// Returns an empty string, or what is wrong.
std::string check_bfs(const CsrGraph& g, int32_t root, const BfsResult& r);

struct BfsShared;  // graph, layout and traversals, shared by the threads' streams

class BfsWorkload : public Workload {
 public:
  BfsWorkload(unsigned scale, unsigned degree, unsigned trials, bool direction_optimizing, unsigned threads,
              uint64_t seed);
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
