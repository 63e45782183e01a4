// cc's default: GAP's Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018), the algorithm of GAP's `cc`
// (Shiloach-Vishkin is GAP's `cc_sv`, our `algorithm=sv`), traced per thread.
//
//   comp[n] = n                                                   (parallel, static)
//   for r in 0, 1: for u (dynamic): link(u, r-th neighbour of u); compress
//   c = the most frequent label among 1024 sampled vertices      (serial)
//   for u (dynamic) with comp[u] != c: for v in neighbours of u from the third: link(u, v); compress
//
//   link(u, v): p1 = comp[u], p2 = comp[v]; while p1 != p2:
//     high, low = max, min; p_high = comp[high]
//     if p_high == low, or p_high == high and CAS(comp[high], high, low) succeeds: stop
//     p1 = comp[comp[high]]; p2 = comp[low]
//   compress: for n (dynamic): while comp[n] != comp[comp[n]]: comp[n] = comp[comp[n]]
//
// The loops' items are executed in index order, standing for the parallel order (as every kernel
// here), so each CAS sees the labels the earlier items left; each item's label reads and writes are
// recorded while executing and replayed by its thread's stream. The result is checked against a
// union-find.
#include <algorithm>
#include <random>

#include "stimulus/graph/components.hpp"
#include "stimulus/graph/graph_kernels.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

namespace {

constexpr unsigned kNeighbourRounds = 2, kSamples = 1024;
constexpr uint32_t kStoreBit = 1u << 31, kNextEdge = kStoreBit - 1;  // vertex ids stay below 2^26

// The accesses of every item of one loop: item i's are entries [first[i], first[i + 1]): a label
// read or written, or the read of the item's next neighbour.
struct LoopAccesses {
  std::vector<uint64_t> first{0};
  std::vector<uint32_t> entry;  // vertex index (kStoreBit set for a write), or kNextEdge
  void load(int32_t v) { entry.push_back(static_cast<uint32_t>(v)); }
  void store(int32_t v) { entry.push_back(static_cast<uint32_t>(v) | kStoreBit); }
  void next_edge() { entry.push_back(kNextEdge); }
  void end_item() { first.push_back(entry.size()); }
};

struct AfforestRun {
  std::vector<int32_t> comp;
  std::vector<LoopAccesses> link, compress;  // per round, the last for the final pass
  std::vector<int32_t> samples;              // the sampled vertices
  int32_t frequent = 0;                      // the label skipped by the final pass
};

void link(std::vector<int32_t>& comp, int32_t u, int32_t v, LoopAccesses& a) {
  a.load(u);
  a.load(v);
  int32_t p1 = comp[static_cast<size_t>(u)], p2 = comp[static_cast<size_t>(v)];
  while (p1 != p2) {
    const int32_t high = std::max(p1, p2), low = std::min(p1, p2);
    a.load(high);
    const int32_t p_high = comp[static_cast<size_t>(high)];
    if (p_high == low) break;
    if (p_high == high) {  // the CAS succeeds: nothing changed comp[high] since it was read
      a.store(high);
      comp[static_cast<size_t>(high)] = low;
      break;
    }
    a.load(p_high);
    a.load(low);
    p1 = comp[static_cast<size_t>(p_high)];
    p2 = comp[static_cast<size_t>(low)];
  }
}

LoopAccesses compress(std::vector<int32_t>& comp) {
  LoopAccesses a;
  for (size_t n = 0; n < comp.size(); ++n) {
    a.load(static_cast<int32_t>(n));
    a.load(comp[n]);
    while (comp[n] != comp[static_cast<size_t>(comp[n])]) {
      comp[n] = comp[static_cast<size_t>(comp[n])];
      a.store(static_cast<int32_t>(n));
      a.load(comp[n]);
    }
    a.end_item();
  }
  return a;
}

AfforestRun run_afforest(const CsrGraph& g, uint64_t seed) {
  const auto n = static_cast<size_t>(g.vertices());
  AfforestRun run;
  run.comp = initial_labels(g);
  std::vector<int32_t>& comp = run.comp;
  for (unsigned r = 0; r < kNeighbourRounds; ++r) {
    LoopAccesses& a = run.link.emplace_back();
    for (size_t u = 0; u < n; ++u) {
      if (g.degree(static_cast<int64_t>(u)) > r) {
        a.next_edge();
        link(comp, static_cast<int32_t>(u), g.neighbors[static_cast<size_t>(g.offsets[u]) + r], a);
      }
      a.end_item();
    }
    run.compress.push_back(compress(comp));
  }
  // GAP's SampleFrequentElement: the most frequent label of kSamples random vertices.
  std::mt19937_64 rng(seed ^ 0xaff0);
  std::vector<std::pair<int32_t, unsigned>> counts;
  for (unsigned i = 0; i < kSamples && n > 0; ++i) {
    const auto v = static_cast<int32_t>(rng() % n);
    run.samples.push_back(v);
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == comp[static_cast<size_t>(v)]; });
    if (it == counts.end()) counts.emplace_back(comp[static_cast<size_t>(v)], 1);
    else ++it->second;
  }
  run.frequent = counts.empty() ? 0 : std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                                        return a.second < b.second;
                                      })->first;
  LoopAccesses& a = run.link.emplace_back();
  for (size_t u = 0; u < n; ++u) {
    a.load(static_cast<int32_t>(u));
    if (comp[u] != run.frequent)
      for (int64_t e = g.offsets[u] + kNeighbourRounds; e < g.offsets[u + 1]; ++e) {
        a.next_edge();
        link(comp, static_cast<int32_t>(u), g.neighbors[static_cast<size_t>(e)], a);
      }
    a.end_item();
  }
  run.compress.push_back(compress(comp));
  return run;
}

// Instruction cost model (GAP's loops): per link call its set-up and compare, per access the
// compare-and-branch around it; per edge the neighbour loop's control; per compression step its
// pointer jump; per sample the count update.
constexpr uint32_t kPerLink = 6, kPerAccess = 2, kPerEdge = 3, kPerVertex = 4, kPerSample = 12;
constexpr int64_t kChunk = 1024;  // GAP uses dynamic chunks of 16384, sized for graphs of 2^27 and more vertices

enum Body : uint8_t { kInit, kLink, kCompress, kSample, kFinal };

class AfforestProgram : public ComponentsProgram {
 public:
  AfforestProgram(CsrGraph g, uint64_t seed, unsigned trials)
      : ComponentsProgram(std::move(g)), run_(run_afforest(graph_, seed)) {
    using S = ParallelLoop::Schedule;
    const int64_t n = graph_.vertices();
    std::vector<ParallelLoop> loops;
    // GAP runs the kernel once per trial, from fresh labels; every trial does the same work here
    // (one execution is recorded), each with its own dynamic schedule.
    for (uint64_t trial = 0; trial < trials; ++trial) {
      const uint64_t salt = (seed * 31 + trial) * 8;
      loops.push_back(init_loop(kInit));
      for (uint32_t r = 0; r <= kNeighbourRounds; ++r) {
        if (r == kNeighbourRounds)
          loops.push_back({kSample, S::Serial, 0, static_cast<int64_t>(run_.samples.size()), 1, 0, r, 0});
        loops.push_back({r == kNeighbourRounds ? kFinal : kLink, S::Dynamic, 0, n, kChunk, salt + 2 * r, r, 0});
        loops.push_back({kCompress, S::Dynamic, 0, n, kChunk, salt + 2 * r + 1, r, 0});
      }
    }
    set_loops(loops);
  }

  void run_item(const ParallelLoop& loop, int64_t item, unsigned, OpSink& out) const override {
    const auto u = static_cast<size_t>(item);
    switch (loop.body) {
      case kInit: init_item(item, out); return;
      case kSample: out.load(comp(run_.samples[u]), kPerSample); return;
      case kCompress: replay(run_.compress[loop.round], u, kPerVertex, out); return;
      default:  // kLink (the r-th neighbour) and kFinal (the label test, then the neighbours from the third)
        out.load(offsets_ + 8 * u, kPerVertex);
        replay(run_.link[loop.round], u, kPerLink, out, graph_.offsets[u] + std::min(loop.round, kNeighbourRounds));
    }
  }

 private:
  // Item u's recorded accesses: neighbours from `edge` on, labels at the addresses the values read
  // before gave (dependent), but for the item's own label read first after a neighbour.
  void replay(const LoopAccesses& a, size_t u, uint32_t first_cost, OpSink& out, int64_t edge = 0) const {
    bool after_edge = true;
    for (uint64_t i = a.first[u]; i < a.first[u + 1]; ++i) {
      const uint32_t e = a.entry[i];
      if (e == kNextEdge) {
        out.load(neighbors_ + 4 * static_cast<uint64_t>(edge++), kPerEdge);
        after_edge = true;
        continue;
      }
      const auto v = static_cast<int32_t>(e & ~kStoreBit);
      const uint32_t cost = after_edge ? first_cost : kPerAccess;
      if (e & kStoreBit) out.store(comp(v), cost);
      else out.load(comp(v), cost, !after_edge);
      after_edge = false;
    }
  }

  AfforestRun run_;
};

}  // namespace

std::vector<int32_t> afforest(const CsrGraph& g, uint64_t seed) { return run_afforest(g, seed).comp; }

std::shared_ptr<const ParallelProgram> make_afforest_program(CsrGraph g, uint64_t seed, unsigned trials) {
  return std::make_shared<AfforestProgram>(std::move(g), seed, trials);
}

}  // namespace starnuma
