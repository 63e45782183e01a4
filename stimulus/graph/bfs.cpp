#include "stimulus/graph/bfs.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "stimulus/graph/graph_kernels.hpp"

namespace starnuma {

namespace {

// Instruction cost model (non-memory instructions before each operation), from the shape of GAP's
// loops: a few for loop control and the compare-and-branch around each access.
constexpr uint32_t kPerVertex = 6, kPerEdge = 3, kPerClaim = 4, kPerFillLine = 32;

}  // namespace

GraphLayout::GraphLayout(const CsrGraph& g) {
  const uint64_t n = static_cast<uint64_t>(g.vertices());
  const uint64_t bitmap_bytes = (n + 63) / 64 * 8;
  ArrayAllocator a;
  offsets = a.allocate(sizeof(int64_t) * g.offsets.size());
  neighbors = a.allocate(sizeof(int32_t) * g.neighbors.size());
  parent = a.allocate(sizeof(int32_t) * n);
  queue = a.allocate(sizeof(int32_t) * n);
  bitmap_a = a.allocate(bitmap_bytes);
  bitmap_b = a.allocate(bitmap_bytes);
  end = a.end();
}

BfsResult breadth_first_search(const CsrGraph& g, int32_t root, bool direction_optimizing) {
  const size_t n = static_cast<size_t>(g.vertices());
  BfsResult r;
  r.parent.assign(n, -1);
  r.depth.assign(n, -1);
  r.queue_slot.assign(n, -1);
  r.queue.reserve(n);
  auto append = [&](int32_t v) {
    r.queue_slot[static_cast<size_t>(v)] = static_cast<int64_t>(r.queue.size());
    r.queue.push_back(v);
  };
  r.parent[static_cast<size_t>(root)] = root;
  r.depth[static_cast<size_t>(root)] = 0;
  append(root);
  r.level_start.push_back(0);
  int64_t q_begin = 0, q_end = 1, edges_to_check = g.edges(), scout = g.degree(root);
  int32_t level = 1;
  constexpr int64_t kAlpha = 15, kBeta = 18;
  while (q_begin < q_end) {
    if (direction_optimizing && scout > edges_to_check / kAlpha) {
      r.steps.push_back({BfsStep::Kind::QueueToBitmap, q_begin, q_end, true, 0});
      std::vector<char> front(n, 0), next(n, 0);
      for (int64_t i = q_begin; i < q_end; ++i) front[static_cast<size_t>(r.queue[static_cast<size_t>(i)])] = 1;
      bool front_is_a = true;
      int64_t awake = q_end - q_begin, old_awake;
      do {
        old_awake = awake;
        r.steps.push_back({BfsStep::Kind::BottomUp, 0, 0, front_is_a, level});
        std::fill(next.begin(), next.end(), 0);
        awake = 0;
        for (size_t u = 0; u < n; ++u) {
          if (r.parent[u] != -1) continue;
          for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
            const int32_t v = g.neighbors[static_cast<size_t>(e)];
            if (!front[static_cast<size_t>(v)]) continue;
            r.parent[u] = v;
            r.depth[u] = level;
            next[u] = 1;
            ++awake;
            break;
          }
        }
        front.swap(next);
        front_is_a = !front_is_a;
        ++level;
      } while (awake >= old_awake || awake > static_cast<int64_t>(n) / kBeta);
      q_begin = static_cast<int64_t>(r.queue.size());
      for (size_t u = 0; u < n; ++u)
        if (front[u]) append(static_cast<int32_t>(u));
      q_end = static_cast<int64_t>(r.queue.size());
      r.steps.push_back({BfsStep::Kind::BitmapToQueue, q_begin, q_end, front_is_a, 0});
      scout = 1;
    } else {
      edges_to_check -= scout;
      scout = 0;
      r.steps.push_back({BfsStep::Kind::TopDown, q_begin, q_end, true, level});
      for (int64_t i = q_begin; i < q_end; ++i) {
        const int32_t u = r.queue[static_cast<size_t>(i)];
        for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
          const int32_t v = g.neighbors[static_cast<size_t>(e)];
          if (r.parent[static_cast<size_t>(v)] != -1) continue;
          r.parent[static_cast<size_t>(v)] = u;
          r.depth[static_cast<size_t>(v)] = level;
          append(v);
          scout += g.degree(v);
        }
      }
      q_begin = q_end;
      q_end = static_cast<int64_t>(r.queue.size());
      r.level_start.push_back(q_begin);
      ++level;
    }
  }
  return r;
}

std::string check_bfs(const CsrGraph& g, int32_t root, const BfsResult& r) {
  if (r.parent[static_cast<size_t>(root)] != root || r.depth[static_cast<size_t>(root)] != 0)
    return "the root is wrong";
  for (int64_t v = 0; v < g.vertices(); ++v) {
    const int32_t p = r.parent[static_cast<size_t>(v)];
    if (p == -1) continue;
    if (v != root) {
      if (r.depth[static_cast<size_t>(v)] != r.depth[static_cast<size_t>(p)] + 1)
        return "vertex " + std::to_string(v) + " is not one level below its parent";
      if (!g.has_edge(p, v)) return "vertex " + std::to_string(v) + "'s parent is not a neighbour";
    }
    for (int64_t e = g.offsets[static_cast<size_t>(v)]; e < g.offsets[static_cast<size_t>(v) + 1]; ++e) {
      const int32_t w = g.neighbors[static_cast<size_t>(e)];
      if (r.parent[static_cast<size_t>(w)] == -1) return "a neighbour of a reached vertex was not reached";
      if (std::abs(r.depth[static_cast<size_t>(w)] - r.depth[static_cast<size_t>(v)]) > 1)
        return "an edge spans more than one level";
    }
  }
  return "";
}

namespace {

enum Body : uint8_t { kResetParents, kClearBitmap, kTopDown, kBottomUp, kQueueToBitmap, kBitmapToQueue };

}  // namespace

// The searches, and the loops of each: the parallel reset of `parent`, then one loop per step,
// a step that writes a bitmap preceded by its serial clearing (GAP does it in a serial section).
class BfsProgram : public ParallelProgram {
 public:
  BfsProgram(CsrGraph g, unsigned trials, bool direction_optimizing, uint64_t seed)
      : graph_(std::move(g)), layout_(graph_), direction_optimizing_(direction_optimizing), seed_(seed) {
    std::mt19937_64 rng(seed ^ 0x5eed);
    while (roots_.size() < trials) {
      const int32_t r = static_cast<int32_t>(rng() % static_cast<uint64_t>(graph_.vertices()));
      if (graph_.degree(r) > 0) roots_.push_back(r);
    }
    trials_.resize(roots_.size());  // each search computed when a stream first reaches it (add_round)
  }

  uint64_t footprint() const override { return layout_.end - layout_.offsets; }
  const CsrGraph& graph() const { return graph_; }
  const std::vector<int32_t>& roots() const { return roots_; }
  BfsResult traversal(size_t trial) const {
    return breadth_first_search(graph_, roots_.at(trial), direction_optimizing_);
  }

  void first_touch(unsigned t, unsigned threads, std::vector<uint64_t>& pages) const override {
    const GraphLayout& L = layout_;
    const int64_t n = graph_.vertices();
    append_csr_share(pages, graph_, L.offsets, L.neighbors, 4, t, threads);
    append_vertex_share(pages, L.parent, 4, n, t, threads);
    append_vertex_share(pages, L.queue, 4, n, t, threads);
    const Share share = static_share(static_cast<uint64_t>(n), t, threads);  // bitmaps: a bit per vertex
    append_pages(pages, L.bitmap_a + share.begin / 8, L.bitmap_a + share.end / 8);
    append_pages(pages, L.bitmap_b + share.begin / 8, L.bitmap_b + share.end / 8);
  }

  void run_item(const ParallelLoop& loop, int64_t item, unsigned, OpSink& out) const override {
    const CsrGraph& g = graph_;
    const GraphLayout& L = layout_;
    const BfsResult& r = *trials_[loop.round];
    const BfsStep& st = r.steps[std::min<size_t>(loop.step, r.steps.size() - 1)];
    const auto at = [](uint64_t base, uint64_t element, int64_t i) {
      return base + element * static_cast<uint64_t>(i);
    };
    switch (loop.body) {
      case kResetParents: out.store(L.parent + static_cast<uint64_t>(item) * kGraphLine, kPerFillLine); return;
      case kClearBitmap: {
        const uint64_t base =
            st.kind == BfsStep::Kind::QueueToBitmap ? L.bitmap_a : (st.front_is_a ? L.bitmap_b : L.bitmap_a);
        out.store(base + static_cast<uint64_t>(item) * kGraphLine, 8);
        return;
      }
      case kTopDown: {
        const int32_t u = r.queue[static_cast<size_t>(item)];
        out.load(at(L.queue, 4, item), kPerVertex);
        out.load(at(L.offsets, 8, u), 1, true);
        for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
          const int32_t v = g.neighbors[static_cast<size_t>(e)];
          out.load(at(L.neighbors, 4, e), kPerEdge);
          out.load(at(L.parent, 4, v), 1, true);
          if (r.parent[static_cast<size_t>(v)] == u && r.depth[static_cast<size_t>(v)] == st.level && v != u) {
            out.store(at(L.parent, 4, v), kPerClaim);
            out.store(at(L.queue, 4, r.queue_slot[static_cast<size_t>(v)]), 1);
          }
        }
        return;
      }
      case kBottomUp: {
        const auto u = static_cast<size_t>(item);
        out.load(at(L.parent, 4, item), kPerVertex);
        const int32_t d = r.depth[u];
        if (d != -1 && d < st.level) return;  // visited before this step
        const uint64_t front = st.front_is_a ? L.bitmap_a : L.bitmap_b, next = st.front_is_a ? L.bitmap_b : L.bitmap_a;
        for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const int32_t v = g.neighbors[static_cast<size_t>(e)];
          out.load(at(L.neighbors, 4, e), kPerEdge);
          out.load(front + static_cast<uint64_t>(v) / 64 * 8, 1, true);
          if (d == st.level && v == r.parent[u]) {  // the first neighbour in the frontier: found
            out.store(at(L.parent, 4, item), kPerClaim);
            out.store(next + u / 64 * 8, 2);
            return;
          }
        }
        return;
      }
      case kQueueToBitmap: {
        const int32_t u = r.queue[static_cast<size_t>(item)];
        out.load(at(L.queue, 4, item), 2);
        out.store(L.bitmap_a + static_cast<uint64_t>(u) / 64 * 8, 2, true);
        return;
      }
      case kBitmapToQueue: {
        const uint64_t front = st.front_is_a ? L.bitmap_a : L.bitmap_b;
        out.load(front + static_cast<uint64_t>(item) * 8, 4);
        // The vertices of this word that the step appended: their queue slots lie in its window.
        for (int64_t u = item * 64; u < std::min(item * 64 + 64, g.vertices()); ++u) {
          const int64_t slot = r.queue_slot[static_cast<size_t>(u)];
          if (slot >= st.queue_begin && slot < st.queue_end) out.store(at(L.queue, 4, slot), 3);
        }
        return;
      }
    }
  }

 private:
  // A search is computed when a stream first reaches it: a run that measures the first searches of
  // many (trials=100 keeps every thread busy however long the run) pays for those alone.
  bool add_round(uint32_t trial, std::vector<ParallelLoop>& loops) const override {
    if (trial >= roots_.size()) return false;
    trials_[trial] = std::make_unique<BfsResult>(breadth_first_search(graph_, roots_[trial], direction_optimizing_));
    using S = ParallelLoop::Schedule;
    const int64_t n = graph_.vertices();
    loops.push_back({kResetParents, S::Static, 0, (n + 15) / 16, 1, 0, trial, 0});  // lines of parent
    const auto& steps = trials_[trial]->steps;
    for (uint32_t i = 0; i < steps.size(); ++i) {
      const BfsStep& st = steps[i];
      const uint64_t salt = seed_ * 0x100000001b3ull ^ (uint64_t{trial} << 32) ^ i;
      if (st.kind == BfsStep::Kind::BottomUp || st.kind == BfsStep::Kind::QueueToBitmap)
        loops.push_back({kClearBitmap, S::Serial, 0, (n + 511) / 512, 1, 0, trial, i});
      switch (st.kind) {
        case BfsStep::Kind::TopDown:
          loops.push_back({kTopDown, S::Dynamic, st.queue_begin, st.queue_end, 64, salt, trial, i});
          break;
        case BfsStep::Kind::BottomUp: loops.push_back({kBottomUp, S::Dynamic, 0, n, 1024, salt, trial, i}); break;
        case BfsStep::Kind::QueueToBitmap:
          loops.push_back({kQueueToBitmap, S::Static, st.queue_begin, st.queue_end, 1, 0, trial, i});
          break;
        case BfsStep::Kind::BitmapToQueue:
          loops.push_back({kBitmapToQueue, S::Dynamic, 0, (n + 63) / 64, 16, salt, trial, i});
          break;
      }
    }
    return true;
  }

  CsrGraph graph_;
  GraphLayout layout_;
  bool direction_optimizing_;
  uint64_t seed_;
  std::vector<int32_t> roots_;
  // Sized once, so the entries' addresses never move; each set under ParallelProgram's lock.
  mutable std::vector<std::unique_ptr<const BfsResult>> trials_;
};

BfsWorkload::BfsWorkload(CsrGraph graph, unsigned trials, bool direction_optimizing, unsigned threads, uint64_t seed)
    : BfsWorkload(std::make_shared<BfsProgram>(std::move(graph), trials, direction_optimizing, seed), threads) {}
BfsWorkload::BfsWorkload(std::shared_ptr<const BfsProgram> program, unsigned threads)
    : ProgramWorkload(program, threads), bfs_(std::move(program)) {}
BfsWorkload::~BfsWorkload() = default;
const CsrGraph& BfsWorkload::graph() const { return bfs_->graph(); }
const std::vector<int32_t>& BfsWorkload::roots() const { return bfs_->roots(); }
BfsResult BfsWorkload::traversal(size_t trial) const { return bfs_->traversal(trial); }

namespace {

class BfsSpec : public GraphSpec {
 public:
  explicit BfsSpec(const ScopeContext& c) : GraphSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<BfsWorkload>(graph(seed), trials_, direction_.get() == "optimizing", threads, seed);
  }

 private:
  Param<unsigned> trials_{*this, "trials", 4u, "Searches from different random roots, one after another",
                          between(1u, 1000u)};
  Param<std::string> direction_{*this, "direction", "optimizing",
                                "optimizing: GAP's direction-optimizing search; top-down: top-down steps only",
                                std::vector<std::string>{"optimizing", "top-down"}};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(BfsSpec, "bfs", "GAP's breadth-first search (direction-optimizing) on a Kronecker graph");

}  // namespace starnuma
