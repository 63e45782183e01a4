// tc: GAP's ordered triangle counting, traced per thread.
//
//   relabel the graph by decreasing degree (GAP does when the degrees are skewed, as Kronecker's are)
//   for u (dynamic, 64): for v in neigh(u) while v < u:
//     it = neigh(u).begin()
//     for w in neigh(v) while w < v: advance it while *it < w; count when *it == w
//
// Nothing is written until the final sum, so the traced execution is the real one. The relabelled
// graph is built before measurement starts, by the threads in parallel.
#include <algorithm>
#include <numeric>

#include "stimulus/graph/graph_kernels.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

CsrGraph relabel_by_degree(const CsrGraph& g) {
  const auto n = static_cast<size_t>(g.vertices());
  std::vector<int32_t> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](int32_t a, int32_t b) { return g.degree(a) > g.degree(b); });
  std::vector<int32_t> new_id(n);
  for (size_t i = 0; i < n; ++i) new_id[static_cast<size_t>(by_degree[i])] = static_cast<int32_t>(i);
  CsrGraph r;
  r.offsets.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) r.offsets[i + 1] = r.offsets[i] + g.degree(by_degree[i]);
  r.neighbors.resize(g.neighbors.size());
  for (size_t i = 0; i < n; ++i) {
    const auto old = static_cast<size_t>(by_degree[i]);
    auto out = r.neighbors.begin() + r.offsets[i];
    for (int64_t e = g.offsets[old]; e < g.offsets[old + 1]; ++e)
      *out++ = new_id[static_cast<size_t>(g.neighbors[static_cast<size_t>(e)])];
    std::sort(r.neighbors.begin() + r.offsets[i], out);
  }
  return r;
}

namespace {

// u's part of the ordered count, telling `visit` each array element it reads: the traced loop and
// the counting loop are one, so they cannot drift apart.
template <typename Visit>
uint64_t count_from(const CsrGraph& g, int64_t u, Visit&& visit) {
  uint64_t triangles = 0;
  const auto& nb = g.neighbors;
  for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
    const int32_t v = nb[static_cast<size_t>(e)];
    visit.neighbour(e, v);
    if (v > u) break;
    int64_t it = g.offsets[static_cast<size_t>(u)];
    visit.start_merge(v, it);
    for (int64_t f = g.offsets[static_cast<size_t>(v)]; f < g.offsets[static_cast<size_t>(v) + 1]; ++f) {
      const int32_t w = nb[static_cast<size_t>(f)];
      visit.candidate(f);
      if (w > v) break;
      while (nb[static_cast<size_t>(it)] < w) visit.advance(++it);
      triangles += w == nb[static_cast<size_t>(it)];
    }
  }
  return triangles;
}

struct NoVisit {
  void neighbour(int64_t, int32_t) {}
  void start_merge(int32_t, int64_t) {}
  void candidate(int64_t) {}
  void advance(int64_t) {}
};

}  // namespace

uint64_t ordered_triangle_count(const CsrGraph& g) {
  uint64_t total = 0;
  for (int64_t u = 0; u < g.vertices(); ++u) total += count_from(g, u, NoVisit{});
  return total;
}

uint64_t reference_triangle_count(const CsrGraph& g) {
  // Each triangle u < v < w once: mark u's neighbours, then look for v's larger ones among them.
  const auto n = static_cast<size_t>(g.vertices());
  std::vector<char> marked(n, 0);
  uint64_t total = 0;
  for (size_t u = 0; u < n; ++u) {
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      marked[static_cast<size_t>(g.neighbors[static_cast<size_t>(e)])] = 1;
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const auto v = static_cast<size_t>(g.neighbors[static_cast<size_t>(e)]);
      if (v <= u) continue;
      for (int64_t f = g.offsets[v]; f < g.offsets[v + 1]; ++f) {
        const auto w = static_cast<size_t>(g.neighbors[static_cast<size_t>(f)]);
        total += w > v && marked[w];
      }
    }
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      marked[static_cast<size_t>(g.neighbors[static_cast<size_t>(e)])] = 0;
  }
  return total;
}

namespace {

// Instruction cost model: loop control and compares of the merge (GAP's loops).
constexpr uint32_t kPerVertex = 4, kPerNeighbour = 3, kPerMerge = 4, kPerCandidate = 3, kPerAdvance = 2;

class TcProgram : public ParallelProgram {
 public:
  TcProgram(CsrGraph g, uint64_t seed) : graph_(relabel_by_degree(g)) {
    ArrayAllocator a;
    offsets_ = a.allocate(8 * graph_.offsets.size());
    neighbors_ = a.allocate(4 * graph_.neighbors.size());
    footprint_ = a.end() - a.begin();
    set_loops({{0, ParallelLoop::Schedule::Dynamic, 0, graph_.vertices(), 64, seed * 0x100000001b3ull, 0, 0}});
  }

  uint64_t footprint() const override { return footprint_; }
  void first_touch(unsigned t, unsigned threads, std::vector<uint64_t>& pages) const override {
    append_csr_share(pages, graph_, offsets_, neighbors_, 4, t, threads);
  }

  void run_item(const ParallelLoop&, int64_t u, unsigned, OpSink& out) const override {
    struct Trace {
      const TcProgram& p;
      OpSink& out;
      uint64_t edge(int64_t e) const { return p.neighbors_ + 4 * static_cast<uint64_t>(e); }
      void neighbour(int64_t e, int32_t) { out.load(edge(e), kPerNeighbour); }
      void start_merge(int32_t v, int64_t it) {
        out.load(p.offsets_ + 8 * static_cast<uint64_t>(v), kPerMerge, true);
        out.load(edge(it), 1);
      }
      void candidate(int64_t f) { out.load(edge(f), kPerCandidate); }
      void advance(int64_t it) { out.load(edge(it), kPerAdvance); }
    };
    out.load(offsets_ + 8 * static_cast<uint64_t>(u), kPerVertex);
    count_from(graph_, u, Trace{*this, out});
  }

  const CsrGraph& graph() const { return graph_; }

 private:
  CsrGraph graph_;
  uint64_t offsets_ = 0, neighbors_ = 0, footprint_ = 0;
};

class TcSpec : public GraphSpec {
 public:
  explicit TcSpec(const ScopeContext& c) : GraphSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<ProgramWorkload>(std::make_shared<TcProgram>(graph(seed), seed), threads);
  }
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(TcSpec, "tc", "GAP's ordered triangle counting on a Kronecker graph (relabelled by degree)");

}  // namespace starnuma
