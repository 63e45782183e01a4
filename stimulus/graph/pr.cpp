// pr: GAP's pull-direction PageRank, traced per thread.
//
//   scores[n] = 1/N                                          (parallel, static)
//   for iteration < max_iterations:
//     for n (static): contrib[n] = scores[n] / degree(n)
//     for u (dynamic, 64): scores[u] = (1-d)/N + d * sum of contrib[v] over neighbours v
//     stop when the sum of |score changes| < tolerance
//
// Every loop reads only values the previous loop wrote, so the traced execution is the real one;
// only the iteration count comes from the computation.
#include <cmath>

#include "stimulus/graph/graph_kernels.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

namespace {

// One iteration: contributions from `scores`, then new scores; returns the sum of |changes|.
double pagerank_iteration(const CsrGraph& g, std::vector<float>& scores, std::vector<float>& contrib) {
  const auto n = static_cast<size_t>(g.vertices());
  const float base = (1.0f - kPageRankDamping) / static_cast<float>(n);
  for (size_t v = 0; v < n; ++v)
    contrib[v] = g.degree(static_cast<int64_t>(v)) > 0
                     ? scores[v] / static_cast<float>(g.degree(static_cast<int64_t>(v)))
                     : 0.0f;
  double error = 0;
  for (size_t u = 0; u < n; ++u) {
    float incoming = 0;
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      incoming += contrib[static_cast<size_t>(g.neighbors[static_cast<size_t>(e)])];
    const float old = scores[u];
    scores[u] = base + kPageRankDamping * incoming;
    error += std::fabs(scores[u] - old);
  }
  return error;
}

}  // namespace

PageRankRun pagerank(const CsrGraph& g, unsigned max_iterations, double tolerance) {
  const auto n = static_cast<size_t>(g.vertices());
  PageRankRun run;
  run.scores.assign(n, 1.0f / static_cast<float>(n));
  std::vector<float> contrib(n);
  for (unsigned i = 0; i < max_iterations && !run.converged; ++i) {
    run.errors.push_back(pagerank_iteration(g, run.scores, contrib));
    run.converged = run.errors.back() < tolerance;
  }
  return run;
}

double pagerank_residual(const CsrGraph& g, const std::vector<float>& scores) {
  std::vector<float> next = scores, contrib(scores.size());
  return pagerank_iteration(g, next, contrib);
}

namespace {

// Instruction cost model: loop control, the division, the accumulation (GAP's loops).
constexpr uint32_t kPerContrib = 6, kPerVertex = 4, kPerEdge = 3, kPerScore = 6, kPerFillLine = 32;

enum Body : uint8_t { kInit, kContrib, kPull };

class PrProgram : public ParallelProgram {
 public:
  PrProgram(CsrGraph g, unsigned max_iterations, double tolerance, uint64_t seed)
      : graph_(std::move(g)), run_(pagerank(graph_, max_iterations, tolerance)) {
    ArrayAllocator a;
    const auto n = static_cast<uint64_t>(graph_.vertices());
    offsets_ = a.allocate(8 * graph_.offsets.size());
    neighbors_ = a.allocate(4 * graph_.neighbors.size());
    scores_ = a.allocate(4 * n);
    contrib_ = a.allocate(4 * n);
    footprint_ = a.end() - a.begin();
    using S = ParallelLoop::Schedule;
    // The lines of scores, then each iteration's two loops.
    std::vector<ParallelLoop> loops{{kInit, S::Static, 0, static_cast<int64_t>((n + 15) / 16), 1, 0, 0, 0}};
    for (uint32_t i = 0; i < run_.errors.size(); ++i) {
      loops.push_back({kContrib, S::Static, 0, static_cast<int64_t>(n), 1, 0, i, 0});
      loops.push_back({kPull, S::Dynamic, 0, static_cast<int64_t>(n), 64, seed * 0x100000001b3ull ^ i, i, 0});
    }
    set_loops(loops);
  }

  uint64_t footprint() const override { return footprint_; }
  void first_touch(unsigned t, unsigned threads, std::vector<uint64_t>& pages) const override {
    append_csr_share(pages, graph_, offsets_, neighbors_, 4, t, threads);
    append_vertex_share(pages, scores_, 4, graph_.vertices(), t, threads);
    append_vertex_share(pages, contrib_, 4, graph_.vertices(), t, threads);
  }

  void run_item(const ParallelLoop& loop, int64_t item, unsigned, OpSink& out) const override {
    const auto i = static_cast<uint64_t>(item);
    switch (loop.body) {
      case kInit: out.store(scores_ + i * kGraphLine, kPerFillLine); return;
      case kContrib:
        out.load(scores_ + 4 * i, kPerContrib);
        out.load(offsets_ + 8 * i, 1);
        out.store(contrib_ + 4 * i, 1);
        return;
      case kPull:
        out.load(offsets_ + 8 * i, kPerVertex);
        for (int64_t e = graph_.offsets[i]; e < graph_.offsets[i + 1]; ++e) {
          out.load(neighbors_ + 4 * static_cast<uint64_t>(e), kPerEdge);
          out.load(contrib_ + 4 * static_cast<uint64_t>(graph_.neighbors[static_cast<size_t>(e)]), 1, true);
        }
        out.load(scores_ + 4 * i, kPerScore);
        out.store(scores_ + 4 * i, 1);
        return;
    }
  }

 private:
  CsrGraph graph_;
  PageRankRun run_;
  uint64_t offsets_ = 0, neighbors_ = 0, scores_ = 0, contrib_ = 0, footprint_ = 0;
};

class PrSpec : public GraphSpec {
 public:
  explicit PrSpec(const ScopeContext& c) : GraphSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<ProgramWorkload>(
        std::make_shared<PrProgram>(graph(seed), max_iterations_, tolerance_, seed), threads);
  }

 private:
  Param<unsigned> max_iterations_{*this, "max_iterations", 20u, "Iterations at most (GAP's default)",
                                  between(1u, 1000u)};
  Param<double> tolerance_{*this, "tolerance", 1e-4,
                           "Stop when the sum of |score changes| of an iteration falls below this (GAP's default)",
                           between(1e-12, 1.0)};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(PrSpec, "pr", "GAP's pull-direction PageRank on a Kronecker graph");

}  // namespace starnuma
