#include "stimulus/graph/bfs.hpp"

#include <random>

#include "stimulus/workload_registry.hpp"

namespace starnuma {

namespace {

constexpr uint64_t kPage = 4096, kLine = 64;
uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// Instruction cost model (non-memory instructions before each operation), from the shape of GAP's
// loops: a few for loop control and the compare-and-branch around each access.
constexpr uint32_t kPerVertex = 6, kPerEdge = 3, kPerClaim = 4, kPerFillLine = 32;

}  // namespace

GraphLayout::GraphLayout(const CsrGraph& g) {
  offsets = kBase;
  neighbors = round_up(offsets + sizeof(int64_t) * g.offsets.size(), kPage);
  parent = round_up(neighbors + sizeof(int32_t) * g.neighbors.size(), kPage);
  queue = round_up(parent + sizeof(int32_t) * static_cast<uint64_t>(g.vertices()), kPage);
  end = round_up(queue + sizeof(int32_t) * static_cast<uint64_t>(g.vertices()), kPage);
}

BfsResult breadth_first_search(const CsrGraph& g, int32_t root) {
  const size_t n = static_cast<size_t>(g.vertices());
  BfsResult r;
  r.parent.assign(n, -1);
  r.depth.assign(n, -1);
  r.queue.reserve(n);
  r.parent[static_cast<size_t>(root)] = root;
  r.depth[static_cast<size_t>(root)] = 0;
  r.queue.push_back(root);
  r.level_start.push_back(0);
  for (size_t head = 0, level_end = 1; head < r.queue.size();) {
    for (; head < level_end; ++head) {
      const int32_t u = r.queue[head];
      for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
        const int32_t v = g.neighbors[static_cast<size_t>(e)];
        if (r.parent[static_cast<size_t>(v)] != -1) continue;
        r.parent[static_cast<size_t>(v)] = u;
        r.depth[static_cast<size_t>(v)] = r.depth[static_cast<size_t>(u)] + 1;
        r.queue.push_back(v);
      }
    }
    r.level_start.push_back(static_cast<int64_t>(level_end));
    level_end = r.queue.size();
  }
  return r;
}

std::string check_bfs(const CsrGraph& g, int32_t root, const BfsResult& r) {
  if (r.parent[static_cast<size_t>(root)] != root || r.depth[static_cast<size_t>(root)] != 0) return "the root is wrong";
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

struct BfsShared {
  CsrGraph graph;
  GraphLayout layout;
  std::vector<int32_t> roots;
  std::vector<BfsResult> trials;
  BfsShared(CsrGraph g, unsigned trials_count, uint64_t seed) : graph(std::move(g)), layout(graph) {
    std::mt19937_64 rng(seed ^ 0x5eed);
    while (roots.size() < trials_count) {
      const int32_t r = static_cast<int32_t>(rng() % static_cast<uint64_t>(graph.vertices()));
      if (graph.degree(r) > 0) roots.push_back(r);
    }
    for (int32_t r : roots) trials.push_back(breadth_first_search(graph, r));
  }
};

namespace {

// One thread's share [lo, hi) of n items under schedule(static).
std::pair<int64_t, int64_t> static_share(int64_t n, unsigned t, unsigned threads) {
  return {n * t / threads, n * (t + 1) / threads};
}

class BfsStream : public ThreadStream {
 public:
  BfsStream(std::shared_ptr<const BfsShared> s, unsigned t, unsigned threads) : s_(std::move(s)), t_(t), threads_(threads) {
    start_phase();
  }

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max && !done_) {
      const size_t k = step(out + n, max - n);
      if (k == 0) break;  // not enough room for the next group of operations: the next batch
      n += k;
    }
    return n;
  }

 private:
  enum class Phase { FirstTouch, ResetParents, Level, Done };

  void start_phase() {
    const CsrGraph& g = s_->graph;
    const GraphLayout& L = s_->layout;
    cursor_ = 0;
    switch (phase_) {
      case Phase::FirstTouch: {
        // This thread builds (first touches) its share of every array, page by page.
        touch_.clear();
        auto [lo, hi] = static_share(g.vertices(), t_, threads_);
        auto pages = [&](uint64_t a, uint64_t b) {
          for (uint64_t p = a / kPage * kPage; p < b; p += kPage) touch_.push_back(p);
        };
        pages(L.offsets + 8 * static_cast<uint64_t>(lo), L.offsets + 8 * static_cast<uint64_t>(hi + 1));
        pages(L.neighbors + 4 * static_cast<uint64_t>(g.offsets[static_cast<size_t>(lo)]),
              L.neighbors + 4 * static_cast<uint64_t>(g.offsets[static_cast<size_t>(hi)]));
        pages(L.parent + 4 * static_cast<uint64_t>(lo), L.parent + 4 * static_cast<uint64_t>(hi));
        pages(L.queue + 4 * static_cast<uint64_t>(lo), L.queue + 4 * static_cast<uint64_t>(hi));
        break;
      }
      case Phase::ResetParents: {
        auto [lo, hi] = static_share(g.vertices(), t_, threads_);
        line_ = (L.parent + 4 * static_cast<uint64_t>(lo)) / kLine * kLine;
        line_end_ = L.parent + 4 * static_cast<uint64_t>(hi);
        break;
      }
      case Phase::Level: {
        const BfsResult& r = s_->trials[trial_];
        const int64_t a = r.level_start[level_], b = r.level_start[level_ + 1];
        auto [lo, hi] = static_share(b - a, t_, threads_);
        item_ = a + lo;
        item_end_ = a + hi;
        edge_ = edge_end_ = 0;
        break;
      }
      case Phase::Done: done_ = true; break;
    }
  }

  // Emits what comes next: operations of the current phase, or its closing barrier.
  size_t step(StreamOp* out, size_t max) {
    const GraphLayout& L = s_->layout;
    size_t n = 0;
    auto emit = [&](StreamOp::Kind k, bool dep, uint32_t instr, uint64_t addr) { out[n++] = StreamOp{k, dep, false, instr, addr}; };
    switch (phase_) {
      case Phase::FirstTouch:
        while (n < max && cursor_ < touch_.size()) emit(StreamOp::Kind::Store, false, 0, touch_[cursor_++]);
        if (n < max && cursor_ == touch_.size()) {
          out[n++] = StreamOp{StreamOp::Kind::Barrier, false, true, 0, barrier_++};  // measurement starts
          phase_ = Phase::ResetParents;
          start_phase();
        }
        return n;
      case Phase::ResetParents:
        while (n < max && line_ < line_end_) {
          emit(StreamOp::Kind::Store, false, kPerFillLine, line_);
          line_ += kLine;
        }
        if (n < max && line_ >= line_end_) {
          out[n++] = StreamOp{StreamOp::Kind::Barrier, false, false, 0, barrier_++};
          phase_ = Phase::Level;
          level_ = 0;
          start_phase();
        }
        return n;
      case Phase::Level: {
        const CsrGraph& g = s_->graph;
        const BfsResult& r = s_->trials[trial_];
        while (n + 4 <= max) {
          if (edge_ < edge_end_) {
            const int32_t v = g.neighbors[static_cast<size_t>(edge_)];
            emit(StreamOp::Kind::Load, false, kPerEdge, L.neighbors + 4 * static_cast<uint64_t>(edge_));
            emit(StreamOp::Kind::Load, true, 1, L.parent + 4 * static_cast<uint64_t>(v));
            if (r.parent[static_cast<size_t>(v)] == u_ && r.depth[static_cast<size_t>(v)] == r.depth[static_cast<size_t>(u_)] + 1 && v != u_) {
              emit(StreamOp::Kind::Store, false, kPerClaim, L.parent + 4 * static_cast<uint64_t>(v));
              emit(StreamOp::Kind::Store, false, 1, L.queue + 4 * static_cast<uint64_t>(position(v)));
            }
            ++edge_;
            continue;
          }
          if (item_ >= item_end_) break;
          u_ = r.queue[static_cast<size_t>(item_)];
          emit(StreamOp::Kind::Load, false, kPerVertex, L.queue + 4 * static_cast<uint64_t>(item_));
          emit(StreamOp::Kind::Load, true, 1, L.offsets + 8 * static_cast<uint64_t>(u_));
          edge_ = g.offsets[static_cast<size_t>(u_)];
          edge_end_ = g.offsets[static_cast<size_t>(u_) + 1];
          ++item_;
        }
        if (n < max && item_ >= item_end_ && edge_ >= edge_end_) {
          out[n++] = StreamOp{StreamOp::Kind::Barrier, false, false, 0, barrier_++};
          if (++level_ + 1 < r.level_start.size()) {
            start_phase();
          } else if (++trial_ < s_->trials.size()) {
            phase_ = Phase::ResetParents;
            start_phase();
          } else {
            phase_ = Phase::Done;
            start_phase();
          }
        }
        return n;
      }
      case Phase::Done: return n;
    }
    return n;
  }

  // Where v sits in the queue of the current trial (found by its level's range).
  int64_t position(int32_t v) {
    const BfsResult& r = s_->trials[trial_];
    if (positions_trial_ != trial_) {
      positions_.assign(r.queue.size() ? s_->graph.vertices() : 0, -1);
      for (size_t i = 0; i < r.queue.size(); ++i) positions_[static_cast<size_t>(r.queue[i])] = static_cast<int64_t>(i);
      positions_trial_ = trial_;
    }
    return positions_[static_cast<size_t>(v)];
  }

  std::shared_ptr<const BfsShared> s_;
  unsigned t_, threads_;
  Phase phase_ = Phase::FirstTouch;
  bool done_ = false;
  size_t trial_ = 0, level_ = 0, cursor_ = 0;
  uint64_t barrier_ = 1;
  std::vector<uint64_t> touch_;
  uint64_t line_ = 0, line_end_ = 0;
  int64_t item_ = 0, item_end_ = 0, edge_ = 0, edge_end_ = 0;
  int32_t u_ = 0;
  std::vector<int64_t> positions_;
  size_t positions_trial_ = static_cast<size_t>(-1);
};

}  // namespace

BfsWorkload::BfsWorkload(unsigned scale, unsigned degree, unsigned trials, unsigned threads, uint64_t seed)
    : threads_(threads), shared_(std::make_shared<BfsShared>(kronecker_graph(scale, degree, seed), trials, seed)) {}
BfsWorkload::~BfsWorkload() = default;
uint64_t BfsWorkload::footprint() const { return shared_->layout.end - shared_->layout.offsets; }
std::unique_ptr<ThreadStream> BfsWorkload::stream(unsigned t) const {
  return std::make_unique<BfsStream>(shared_, t, threads_);
}
const CsrGraph& BfsWorkload::graph() const { return shared_->graph; }
const std::vector<int32_t>& BfsWorkload::roots() const { return shared_->roots; }
const BfsResult& BfsWorkload::traversal(size_t trial) const { return shared_->trials.at(trial); }

namespace {

class BfsSpec : public WorkloadSpec {
 public:
  explicit BfsSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<BfsWorkload>(scale_, degree_, trials_, threads, seed);
  }

 private:
  Param<unsigned> scale_{*this, "scale", 18u, "The graph has 2^scale vertices (Graph500 Kronecker)", between(4u, 26u)};
  Param<unsigned> degree_{*this, "degree", 16u, "Edges per vertex before symmetrisation (Graph500 edge factor)",
                          between(1u, 256u)};
  Param<unsigned> trials_{*this, "trials", 4u, "Searches from different random roots, one after another",
                          between(1u, 1000u)};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(BfsSpec, "bfs",
                           "GAP-style top-down breadth-first search on a Kronecker graph, one barrier per level");

}  // namespace starnuma
