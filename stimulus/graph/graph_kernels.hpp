// The GAP-style graph kernels besides BFS: their real executions (what each thread's stream is
// produced from), the references their results are checked against, and the parameters every
// graph workload shares.
//
// Each execution is computed once, in a fixed order that stands for the parallel one: loop items
// run in index order, each by the thread the loop's schedule gives it (parallel_program.hpp).
// Where the parallel code reads values other threads may be writing, the choice made here is
// documented with the kernel (docs/workloads.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus/graph/kronecker.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

// --- cc: Shiloach-Vishkin connected components (GAP's cc_sv) --------------------------------
struct ComponentsRun {
  std::vector<int32_t> comp;  // the final label of every vertex
  // Per iteration: the labels as the hooking loop reads them (taken when it starts), and as
  // they are after it (what the compression loop walks).
  std::vector<std::vector<int32_t>> before_hooking, after_hooking;
};
ComponentsRun shiloach_vishkin(const CsrGraph& g);
// Whether `comp` partitions the vertices exactly as a union-find over the edges does; "" or what is wrong.
std::string check_components(const CsrGraph& g, const std::vector<int32_t>& comp);

// --- cc's default: Afforest (GAP's cc) -----------------------------------------------------------
std::vector<int32_t> afforest(const CsrGraph& g, uint64_t seed);  // the final labels
class ParallelProgram;
std::shared_ptr<const ParallelProgram> make_afforest_program(CsrGraph g, uint64_t seed, unsigned trials);

// --- sssp: delta-stepping (GAP's sssp), weights 1..255 ------------------------------------------
// The weight of the undirected edge {u, v}: the same in both directions, drawn from the seed.
int32_t edge_weight(int32_t u, int32_t v, uint64_t seed);
// The weight of neighbour entry `e` (the edge u->v): the file's, or drawn from the seed.
inline int32_t edge_weight(const CsrGraph& g, int64_t e, int32_t u, int32_t v, uint64_t seed) {
  return g.weights.empty() ? edge_weight(u, v, seed) : g.weights[static_cast<size_t>(e)];
}
constexpr int32_t kUnreachable = INT32_MAX;
std::vector<int32_t> dijkstra(const CsrGraph& g, int32_t source, uint64_t weight_seed);
// The distances the sssp workload's execution computes (`threads` own the local bins).
std::vector<int32_t> delta_stepping(const CsrGraph& g, int32_t source, int32_t delta, unsigned threads, uint64_t seed);

// --- tc: ordered triangle counting (GAP's tc) ---------------------------------------------------
// GAP relabels skewed graphs by decreasing degree before counting; so do we.
CsrGraph relabel_by_degree(const CsrGraph& g);
uint64_t ordered_triangle_count(const CsrGraph& g);
// An independent count: every vertex's pairs of neighbours, looked up in the adjacency.
uint64_t reference_triangle_count(const CsrGraph& g);

// --- pr: pull-direction PageRank (GAP's pr), single-precision scores ----------------------------
struct PageRankRun {
  std::vector<float> scores;
  std::vector<double> errors;  // the sum of |score changes| after each iteration
  bool converged = false;      // the last error fell below the tolerance
};
PageRankRun pagerank(const CsrGraph& g, unsigned max_iterations, double tolerance);
// The residual of one more iteration from `scores` (GAP's verifier); small when they are a fixed point.
double pagerank_residual(const CsrGraph& g, const std::vector<float>& scores);
constexpr float kPageRankDamping = 0.85f;

// The parameters of every graph workload: the Kronecker graph, or a graph file.
class GraphSpec : public WorkloadSpec {
 public:
  explicit GraphSpec(const ScopeContext& c);

 protected:
  CsrGraph graph(uint64_t seed) const;

 private:
  Param<unsigned> scale_{*this, "scale", 18u, "The graph has 2^scale vertices (Graph500 Kronecker)", between(4u, 26u)};
  Param<unsigned> degree_{*this, "degree", 16u, "Edges per vertex before symmetrisation (Graph500 edge factor)",
                          between(1u, 256u)};
  Param<std::string> file_{*this, "file", "",
                           "A graph file instead of the Kronecker graph: .el, .wel (weights for sssp) or .mtx, as "
                           "GAP reads them (docs/workloads.md)"};
};

}  // namespace starnuma
