#include "stimulus/graph/kronecker.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace starnuma {

bool CsrGraph::has_edge(int64_t u, int64_t v) const {
  auto begin = neighbors.begin() + offsets[static_cast<size_t>(u)];
  auto end = neighbors.begin() + offsets[static_cast<size_t>(u) + 1];
  return std::binary_search(begin, end, static_cast<int32_t>(v));
}

namespace {

// Up to this size the edge list is held and sorted, the fastest way; beyond it the edges are drawn
// twice from the same generator state, first to count each vertex's entries, then to place them,
// so the list is never held and the CSR arrays are the peak memory (a third of the list's). Both
// give the same graph.
constexpr uint64_t kEdgeListLimit = uint64_t{2} << 30;

template <class ForEachEdge>
CsrGraph csr_from_edge_list(int64_t n, int64_t m, ForEachEdge&& for_each_edge) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  edges.reserve(static_cast<size_t>(2 * m));
  for_each_edge([&](int32_t a, int32_t b) {
    edges.emplace_back(a, b);
    edges.emplace_back(b, a);  // undirected
  });
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  CsrGraph g;
  g.offsets.assign(static_cast<size_t>(n) + 1, 0);
  for (const auto& [a, b] : edges) ++g.offsets[static_cast<size_t>(a) + 1];
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.neighbors.reserve(edges.size());
  for (const auto& [a, b] : edges) g.neighbors.push_back(b);  // already sorted by (a, b)
  return g;
}

template <class ForEachEdge>
CsrGraph csr_in_two_passes(int64_t n, ForEachEdge&& for_each_edge) {
  CsrGraph g;
  g.offsets.assign(static_cast<size_t>(n) + 1, 0);
  for_each_edge([&](int32_t a, int32_t b) {  // undirected: an entry at each end
    ++g.offsets[static_cast<size_t>(a) + 1];
    ++g.offsets[static_cast<size_t>(b) + 1];
  });
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.neighbors.resize(static_cast<size_t>(g.offsets.back()));
  std::vector<int64_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for_each_edge([&](int32_t a, int32_t b) {
    g.neighbors[static_cast<size_t>(fill[static_cast<size_t>(a)]++)] = b;
    g.neighbors[static_cast<size_t>(fill[static_cast<size_t>(b)]++)] = a;
  });
  fill = {};
  // Each vertex's list sorted without duplicates, compacted towards the front.
  int64_t out = 0;
  for (int64_t v = 0; v < n; ++v) {
    const auto begin = g.neighbors.begin() + g.offsets[static_cast<size_t>(v)];
    const auto end = g.neighbors.begin() + g.offsets[static_cast<size_t>(v) + 1];
    std::sort(begin, end);
    const auto last = std::unique(begin, end);
    g.offsets[static_cast<size_t>(v)] = out;
    const auto to = g.neighbors.begin() + out;
    out = (to == begin ? last : std::move(begin, last, to)) - g.neighbors.begin();
  }
  g.offsets[static_cast<size_t>(n)] = out;
  g.neighbors.resize(static_cast<size_t>(out));
  return g;
}

}  // namespace

CsrGraph kronecker_graph(unsigned scale, unsigned degree, uint64_t seed, CsrBuild build) {
  const int64_t n = int64_t{1} << scale;
  const int64_t m = n * degree;
  std::mt19937_64 rng(seed);

  // A random relabelling of vertices, so that ids carry no locality from the recursion.
  std::vector<int32_t> label(static_cast<size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(label[static_cast<size_t>(i)], label[rng() % static_cast<uint64_t>(i + 1)]);

  const std::mt19937_64 edges_start = rng;
  auto for_each_edge = [&](auto&& visit) {
    std::mt19937_64 r = edges_start;
    auto unit = [&] { return static_cast<double>(r() >> 11) * 0x1.0p-53; };
    constexpr double A = 0.57, B = 0.19, C = 0.19;
    for (int64_t e = 0; e < m; ++e) {
      int64_t u = 0, v = 0;
      for (unsigned bit = 0; bit < scale; ++bit) {
        const double x = unit();
        const int64_t down = x >= A + B ? 1 : 0;                                // quadrants C and D
        const int64_t right = (x >= A && x < A + B) || x >= A + B + C ? 1 : 0;  // quadrants B and D
        u |= down << bit;
        v |= right << bit;
      }
      if (u == v) continue;  // no self-loops
      visit(label[static_cast<size_t>(u)], label[static_cast<size_t>(v)]);
    }
  };
  if (build == CsrBuild::Auto)
    build = 2 * static_cast<uint64_t>(m) * sizeof(std::pair<int32_t, int32_t>) <= kEdgeListLimit ? CsrBuild::EdgeList
                                                                                                 : CsrBuild::TwoPasses;
  return build == CsrBuild::EdgeList ? csr_from_edge_list(n, m, for_each_edge) : csr_in_two_passes(n, for_each_edge);
}

}  // namespace starnuma
