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

CsrGraph kronecker_graph(unsigned scale, unsigned degree, uint64_t seed) {
  const int64_t n = int64_t{1} << scale;
  const int64_t m = n * degree;
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  constexpr double A = 0.57, B = 0.19, C = 0.19;

  // A random relabelling of vertices, so that ids carry no locality from the recursion.
  std::vector<int32_t> label(static_cast<size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) std::swap(label[static_cast<size_t>(i)], label[rng() % static_cast<uint64_t>(i + 1)]);

  std::vector<std::pair<int32_t, int32_t>> edges;
  edges.reserve(static_cast<size_t>(2 * m));
  for (int64_t e = 0; e < m; ++e) {
    int64_t u = 0, v = 0;
    for (unsigned bit = 0; bit < scale; ++bit) {
      const double r = unit();
      const int64_t down = r >= A + B ? 1 : 0;             // quadrants C and D
      const int64_t right = (r >= A && r < A + B) || r >= A + B + C ? 1 : 0;  // quadrants B and D
      u |= down << bit;
      v |= right << bit;
    }
    if (u == v) continue;  // no self-loops
    const int32_t a = label[static_cast<size_t>(u)], b = label[static_cast<size_t>(v)];
    edges.emplace_back(a, b);
    edges.emplace_back(b, a);  // undirected
  }
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

}  // namespace starnuma
