// GenomicsBench's `poa`: SPOA-style partial-order alignment, really executed and traced per thread.
// A batch (a "window" of long-read polishing) is a seeded random template and noisy copies of it;
// the graph starts as the first read, every further read is aligned to the graph (global, affine
// gaps, over the nodes in topological order) and added to it, and the consensus is the graph's
// heaviest bundle. The pieces are exposed for the tests: the graph, the aligner, the batches.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "stimulus/layout.hpp"
#include "stimulus/stream.hpp"

namespace starnuma::genomics {

// Scores of GenomicsBench's poa (benchmarks/poa/msa_spoa_omp.cpp: SPOA's Needleman-Wunsch engine,
// match 2, mismatch -4, gap pieces (open 4, extend 2) and (24, 1)): a gap of k bases costs
// gap_open + (k - 1) * gap_extend, SPOA's kAffine with g = -(4 + 2), e = -2. The second, convex
// piece only wins for gaps over 20 bases, which 10 % noise almost never makes; it is left out.
struct PoaScores {
  int32_t match = 2, mismatch = -4, gap_open = -6, gap_extend = -2;
};
inline constexpr int32_t kPoaMinusInfinity = INT32_MIN / 2;  // far below any score, never overflows

// SPOA's alignment: pairs (graph node or -1, read position or -1), from the start.
using PoaAlignment = std::vector<std::pair<int32_t, int32_t>>;

// A partial-order graph as SPOA keeps it: nodes hold a base, in- and out-edges (weighted by the
// reads through them) and the nodes aligned to them (other bases in the same column). Node and
// edge storage is reused from batch to batch (clear() keeps the capacity).
class PoaGraph {
 public:
  struct Edge {
    uint32_t tail, head;
    int64_t weight;
  };
  struct Node {
    char base;
    std::vector<uint32_t> in, out;  // edge indices
    std::vector<uint32_t> aligned;  // node ids
  };
  void clear();
  uint32_t nodes() const { return nodes_; }
  uint32_t edges() const { return static_cast<uint32_t>(edges_.size()); }
  const Node& node(uint32_t id) const { return node_[id]; }
  const Edge& edge(uint32_t e) const { return edges_[e]; }
  // The edge tail -> head, or -1.
  int64_t find_edge(uint32_t tail, uint32_t head) const;
  // Adds `read` along `alignment` (empty: the graph is empty, the read becomes a chain) as SPOA
  // does: an aligned base that matches reuses the node (or a node aligned to it with that base),
  // any other base is a new node aligned to the column; consecutive bases gain an edge of weight
  // 2 (SPOA's default base weights 1 + 1). Returns the path: the node of every read position.
  const std::vector<uint32_t>& add(const PoaAlignment& alignment, const std::string& read);
  // Topological order (Kahn's, smallest id first among the ready ones); false if there is a cycle.
  bool sort();
  const std::vector<uint32_t>& rank_to_node() const { return order_; }
  const std::vector<uint32_t>& node_to_rank() const { return rank_; }
  // SPOA's heaviest bundle: each node's best in-edge (heaviest, ties to the better-scored tail),
  // from the best-scored node completed to a sink. Needs sort(). Returns the consensus' nodes.
  const std::vector<uint32_t>& consensus_path();
  std::string consensus();

 private:
  uint32_t add_node(char base);
  void add_edge(uint32_t tail, uint32_t head, int64_t weight);
  uint32_t complete_branch(uint32_t rank);

  std::vector<Node> node_;  // the first nodes_ are in use
  uint32_t nodes_ = 0;
  std::vector<Edge> edges_;
  std::vector<uint32_t> order_, rank_, path_, ready_, pending_;
  std::vector<int64_t> score_;
  std::vector<int32_t> best_;
};

// SPOA's scalar (SISD) affine engine: H, F (gap in the read: a node skipped) and E (gap in the
// graph: a read base inserted) rows of int32, one row per node rank + 1 of read length + 1 cells,
// row 0 the virtual start. Rows are computed one at a time so a stream can trace each.
class PoaAligner {
 public:
  explicit PoaAligner(PoaScores scores = {}) : s_(scores) {}
  // Sets up the profile, row 0 and column 0 for aligning `read` to `graph` (sorted, not empty).
  void start(const std::string& read, const PoaGraph& graph);
  // Computes the row of the node of rank `rank` (all lower ranks done).
  void row(uint32_t rank);
  // After every row: the best score over the sinks' last cells, and the traceback into `out`.
  // `visited` (optional) receives the cells the traceback reads: (row, column, matrix 0 H 1 F 2 E).
  int32_t finish(PoaAlignment* out, std::vector<uint64_t>* visited = nullptr);
  // The three in one.
  int32_t align(const std::string& read, const PoaGraph& graph, PoaAlignment* out);
  // The rows (rank + 1) the row of `rank` reads: its predecessors' (row 0 if it has none).
  const std::vector<uint32_t>& predecessor_rows(uint32_t rank);
  uint32_t width() const { return width_; }
  int32_t h(uint32_t row, uint32_t col) const { return h_[size_t{row} * width_ + col]; }

 private:
  PoaScores s_;
  const PoaGraph* graph_ = nullptr;
  const std::string* read_ = nullptr;
  uint32_t width_ = 0, height_ = 0;
  std::vector<int32_t> h_, f_, e_, profile_;
  std::vector<uint32_t> preds_;
};

// A batch: a template of `window` bases and `reads` copies of it with errors (each base, with
// probability error_rate, is substituted, preceded by an inserted base or deleted, a third each),
// all drawn from `seed`.
struct PoaBatch {
  std::string templ;
  std::vector<std::string> reads;
};
void make_poa_batch(uint64_t seed, uint32_t window, uint32_t reads, double error_rate, PoaBatch& out);
// The longest read a batch of `window` can have (an insertion before every base).
inline uint32_t poa_max_read(uint32_t window) { return 2 * window; }

// The whole POA of a batch on the host: the graph, and its consensus.
std::string poa_consensus(const PoaBatch& batch, PoaGraph& graph, PoaAligner& aligner);

// One thread's private arena (base 2^45 + thread * stride), regions page-aligned, sized for the
// worst case (every base of every read a node): the batch's reads, the profile, node records,
// edge records, rank order, consensus scores, then SPOA's H, F and E blocks.
struct PoaArena {
  static constexpr uint64_t kBase = uint64_t{1} << 45;
  static constexpr uint64_t kNodeBytes = 64, kEdgeBytes = 32;
  PoaArena(uint32_t window, uint32_t reads, unsigned thread);
  // Bytes between two threads' arenas.
  static uint64_t stride(uint32_t window, uint32_t reads);
  uint64_t begin = 0, end = 0;
  uint64_t reads = 0, profile = 0, nodes = 0, edges = 0, ranks = 0, scores = 0, h = 0, f = 0, e = 0;
  uint64_t matrix_bytes = 0;  // of each of H, F, E
};

class PoaWorkload : public Workload {
 public:
  // `lanes`: int32 DP cells per vector operation (1: SPOA's scalar engine; 4, 8, 16: its SIMD engine
  // on SSE4.1, AVX2, AVX-512 registers).
  PoaWorkload(uint32_t window, uint32_t reads, double error_rate, uint64_t batches, unsigned lanes, unsigned threads,
              uint64_t seed);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override;
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  uint32_t window() const { return window_; }
  uint32_t reads() const { return reads_; }
  double error_rate() const { return error_rate_; }
  uint64_t batches() const { return batches_; }
  unsigned lanes() const { return lanes_; }
  // Batch b's data seed (a batch's data does not depend on the thread count).
  uint64_t batch_seed(uint64_t b) const;
  // The batches thread t aligns (a static share).
  Share share(unsigned t) const { return static_share(batches_, t, threads_); }
  // Bytes of the arena the initialisation first-touches: the reads, the graph and the DP rows of
  // a graph of window * (1 + (reads - 1) * error_rate) nodes.
  uint64_t expected_bytes() const;

 private:
  uint32_t window_, reads_;
  double error_rate_;
  uint64_t batches_;
  unsigned lanes_, threads_;
  uint64_t seed_;
};

}  // namespace starnuma::genomics
