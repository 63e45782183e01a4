// Graph500 Kronecker graphs in CSR form, as the GAP benchmark suite builds them: 2^scale vertices,
// degree x 2^scale edges drawn with the initiator probabilities A=0.57, B=0.19, C=0.19, vertex ids
// permuted, made undirected, self-loops and duplicate edges removed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

struct CsrGraph {
  std::vector<int64_t> offsets;    // vertices + 1 entries; the neighbours of v are [offsets[v], offsets[v+1])
  std::vector<int32_t> neighbors;  // sorted within each vertex
  std::vector<int32_t> weights;    // per neighbour entry, from a weighted file; empty: sssp draws them
  int64_t vertices() const { return static_cast<int64_t>(offsets.size()) - 1; }
  int64_t edges() const { return static_cast<int64_t>(neighbors.size()); }  // directed: each undirected edge twice
  int64_t degree(int64_t v) const { return offsets[static_cast<size_t>(v) + 1] - offsets[static_cast<size_t>(v)]; }
  bool has_edge(int64_t u, int64_t v) const;
};

// How the edges become CSR: holding and sorting the edge list (fast), or drawing the edges twice
// (a third of the memory); Auto takes the list up to 2 GiB of it. The graph is the same.
enum class CsrBuild { Auto, EdgeList, TwoPasses };
// The generator's output version: a change to the graphs a seed gives (which
// Kronecker.GraphsOfASeedStayTheSame catches) must raise it, so that no cached graph of the old
// generator is read (graph_cache.hpp).
constexpr uint32_t kKroneckerVersion = 1;
CsrGraph kronecker_graph(unsigned scale, unsigned degree, uint64_t seed, CsrBuild build = CsrBuild::Auto);

}  // namespace starnuma
