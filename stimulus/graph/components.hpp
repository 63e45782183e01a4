// What cc's two algorithms (Shiloach-Vishkin in cc.cpp, Afforest in afforest.cpp) share: the
// labels every vertex starts with, and their programs' arrays (the CSR graph, then the labels),
// laid out, first touched and initialised alike.
#pragma once

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

// comp[n] = n: every vertex its own component.
inline std::vector<int32_t> initial_labels(const CsrGraph& g) {
  std::vector<int32_t> comp(static_cast<size_t>(g.vertices()));
  std::iota(comp.begin(), comp.end(), 0);
  return comp;
}

// A connected-components program over `graph_`: its offsets (8 bytes each), neighbours (4 bytes)
// and labels comp (4 bytes a vertex); each thread first touches its static share of them. The
// labels are set by a static loop over their lines (init_loop), one store a line (init_item).
class ComponentsProgram : public ParallelProgram {
 public:
  uint64_t footprint() const override { return footprint_; }
  void first_touch(unsigned t, unsigned threads, std::vector<uint64_t>& pages) const override {
    append_csr_share(pages, graph_, offsets_, neighbors_, 4, t, threads);
    append_vertex_share(pages, comp_, 4, graph_.vertices(), t, threads);
  }

 protected:
  explicit ComponentsProgram(CsrGraph g) : graph_(std::move(g)) {
    ArrayAllocator a;
    offsets_ = a.allocate(8 * graph_.offsets.size());
    neighbors_ = a.allocate(4 * graph_.neighbors.size());
    comp_ = a.allocate(4 * static_cast<uint64_t>(graph_.vertices()));
    footprint_ = a.end() - a.begin();
  }

  // The loop comp[n] = n, its items the lines of comp, run by the kernel's loop body `body`.
  ParallelLoop init_loop(uint8_t body) const {
    return {body, ParallelLoop::Schedule::Static, 0, (graph_.vertices() + 15) / 16, 1, 0, 0, 0};
  }
  // Item `line` of that loop.
  void init_item(int64_t line, OpSink& out) const {
    out.store(comp_ + static_cast<uint64_t>(line) * kGraphLine, kPerFillLine);
  }
  // The address of vertex v's label.
  uint64_t comp(int64_t v) const { return comp_ + 4 * static_cast<uint64_t>(v); }

  static constexpr uint32_t kPerFillLine = 32;  // instructions of the loop filling a line of labels
  CsrGraph graph_;
  uint64_t offsets_ = 0, neighbors_ = 0, comp_ = 0, footprint_ = 0;
};

}  // namespace starnuma
