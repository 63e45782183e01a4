#include "stimulus/graph/kronecker.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace starnuma {

bool CsrGraph::has_edge(int64_t u, int64_t v) const {
  auto begin = neighbors.begin() + offsets[static_cast<size_t>(u)];
  auto end = neighbors.begin() + offsets[static_cast<size_t>(u) + 1];
  return std::binary_search(begin, end, static_cast<int32_t>(v));
}

namespace {

// Up to this size the edge list is drawn once and held, then read twice; beyond it the edges are
// drawn twice from the same generator state, so the list is never held and the CSR arrays are the
// peak memory. Both give the same graph.
constexpr uint64_t kEdgeListLimit = uint64_t{2} << 30;

// One pass over the edges counts each vertex's entries, a second places them, then each vertex's
// list is sorted and its duplicates dropped: no sort of the whole list.
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

// The initiator's quadrant boundaries as integers. The generator's draw is x = k * 2^-53 with k an
// integer below 2^53, exactly, so x >= t exactly when k >= ceil(t * 2^53): the quadrants of
// comparing doubles, without the conversion.
uint64_t draw_threshold(double t) { return static_cast<uint64_t>(std::ceil(std::ldexp(t, 53))); }

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

  constexpr double A = 0.57, B = 0.19, C = 0.19;
  const uint64_t to_b = draw_threshold(A), to_c = draw_threshold(A + B), to_d = draw_threshold(A + B + C);
  const std::mt19937_64 edges_start = rng;
  // Drawn a block of edges at a time and relabelled afterwards, so that the label lookups (cache
  // misses at large scales) overlap instead of each waiting behind its edge's draws.
  auto for_each_edge = [&](auto&& visit) {
    std::mt19937_64 r = edges_start;
    constexpr int64_t kBlock = 1024;
    std::vector<std::pair<int32_t, int32_t>> block;
    block.reserve(kBlock);
    for (int64_t first = 0; first < m; first += kBlock) {
      block.clear();
      for (int64_t e = first; e < std::min(m, first + kBlock); ++e) {
        int64_t u = 0, v = 0;
        for (unsigned bit = 0; bit < scale; ++bit) {
          const uint64_t k = r() >> 11;
          // Quadrant 0 (A), 1 (B: right), 2 (C: down) or 3 (D: down and right).
          const int64_t quadrant = int64_t{k >= to_b} + int64_t{k >= to_c} + int64_t{k >= to_d};
          u |= (quadrant >> 1) << bit;
          v |= (quadrant & 1) << bit;
        }
        if (u != v) block.emplace_back(static_cast<int32_t>(u), static_cast<int32_t>(v));  // no self-loops
      }
      for (auto& [u, v] : block) {
        u = label[static_cast<size_t>(u)];
        v = label[static_cast<size_t>(v)];
      }
      for (const auto& [u, v] : block) visit(u, v);
    }
  };
  if (build == CsrBuild::Auto)
    build = static_cast<uint64_t>(m) * sizeof(std::pair<int32_t, int32_t>) <= kEdgeListLimit ? CsrBuild::EdgeList
                                                                                             : CsrBuild::TwoPasses;
  if (build == CsrBuild::TwoPasses) return csr_in_two_passes(n, for_each_edge);
  std::vector<std::pair<int32_t, int32_t>> edges;
  edges.reserve(static_cast<size_t>(m));
  for_each_edge([&edges](int32_t a, int32_t b) { edges.emplace_back(a, b); });
  return csr_in_two_passes(n, [&edges](auto&& visit) {
    for (const auto& [a, b] : edges) visit(a, b);
  });
}

}  // namespace starnuma
