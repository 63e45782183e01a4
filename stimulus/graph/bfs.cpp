#include "stimulus/graph/bfs.hpp"

#include <algorithm>
#include <numeric>
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
  const uint64_t n = static_cast<uint64_t>(g.vertices());
  const uint64_t bitmap_bytes = (n + 63) / 64 * 8;
  offsets = kBase;
  neighbors = round_up(offsets + sizeof(int64_t) * g.offsets.size(), kPage);
  parent = round_up(neighbors + sizeof(int32_t) * g.neighbors.size(), kPage);
  queue = round_up(parent + sizeof(int32_t) * n, kPage);
  bitmap_a = round_up(queue + sizeof(int32_t) * n, kPage);
  bitmap_b = round_up(bitmap_a + bitmap_bytes, kPage);
  end = round_up(bitmap_b + bitmap_bytes, kPage);
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
  uint64_t seed;
  std::vector<int32_t> roots;
  std::vector<BfsResult> trials;
  BfsShared(CsrGraph g, unsigned trials_count, bool direction_optimizing, uint64_t seed_)
      : graph(std::move(g)), layout(graph), seed(seed_) {
    std::mt19937_64 rng(seed_ ^ 0x5eed);
    while (roots.size() < trials_count) {
      const int32_t r = static_cast<int32_t>(rng() % static_cast<uint64_t>(graph.vertices()));
      if (graph.degree(r) > 0) roots.push_back(r);
    }
    for (int32_t r : roots) trials.push_back(breadth_first_search(graph, r, direction_optimizing));
  }
};

namespace {

// One thread's share [lo, hi) of n items under schedule(static).
std::pair<int64_t, int64_t> static_share(int64_t n, unsigned t, unsigned threads) {
  return {n * t / threads, n * (t + 1) / threads};
}

// The items of a parallel loop a thread runs. Static loops give it one contiguous share. Dynamic
// loops (schedule(dynamic, chunk)) hand chunks to whichever thread is free; that is modelled by
// rounds of one chunk per thread, the threads of each round in a random order drawn from `salt`,
// so the work stays balanced but a chunk's thread changes from loop to loop, as it does in a real
// run, without depending on simulated timing.
class Share {
 public:
  Share() = default;
  Share(int64_t begin, int64_t end, int64_t chunk, unsigned t, unsigned threads, uint64_t salt)
      : begin_(begin), end_(end), chunk_(chunk), t_(t), threads_(threads), salt_(salt) {
    start_round();
  }
  static Share contiguous(int64_t n, unsigned t, unsigned threads) {
    auto [lo, hi] = static_share(n, t, threads);
    Share s;
    s.begin_ = s.next_ = lo;
    s.end_ = s.chunk_end_ = hi;
    s.threads_ = 1;
    s.static_ = true;
    return s;
  }
  // The next item, or -1 when the thread's share is done.
  int64_t next() {
    while (next_ >= chunk_end_) {
      if (static_ || next_ >= end_) return -1;
      ++round_;
      start_round();
    }
    return next_++;
  }

 private:
  // This thread's chunk of the current round: its position in the round's random order.
  void start_round() {
    const int64_t round_begin = begin_ + round_ * chunk_ * threads_;
    if (round_begin >= end_) {
      next_ = chunk_end_ = end_;
      return;
    }
    order_.resize(threads_);
    std::iota(order_.begin(), order_.end(), 0u);
    std::mt19937_64 rng(salt_ ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(round_ + 1)));
    for (unsigned i = threads_ - 1; i > 0; --i) std::swap(order_[i], order_[rng() % (i + 1)]);
    const unsigned slot = static_cast<unsigned>(std::find(order_.begin(), order_.end(), t_) - order_.begin());
    next_ = std::min(end_, round_begin + slot * chunk_);
    chunk_end_ = std::min(end_, next_ + chunk_);
  }

  int64_t begin_ = 0, end_ = 0, chunk_ = 1, next_ = 0, chunk_end_ = 0, round_ = 0;
  unsigned t_ = 0, threads_ = 1;
  uint64_t salt_ = 0;
  bool static_ = false;
  std::vector<unsigned> order_;
};

class BfsStream : public ThreadStream {
 public:
  BfsStream(std::shared_ptr<const BfsShared> s, unsigned t, unsigned threads) : s_(std::move(s)), t_(t), threads_(threads) {
    begin_first_touch();
  }

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max && (!done_ || !pending_.empty())) {
      if (!pending_.empty()) {
        while (n < max && pending_head_ < pending_.size()) out[n++] = pending_[pending_head_++];
        if (pending_head_ == pending_.size()) {
          pending_.clear();
          pending_head_ = 0;
        }
        continue;
      }
      if (!done_) produce();
    }
    return n;
  }

 private:
  // Work of the current parallel loop: what one item of the loop does, in operations.
  enum class Loop { FirstTouch, ResetParents, ClearBitmap, TopDown, BottomUp, QueueToBitmap, BitmapToQueue };

  void emit(StreamOp::Kind k, bool dep, uint32_t instructions, uint64_t addr) {
    pending_.push_back(StreamOp{k, dep, false, instructions, addr});
  }
  void barrier(bool starts_measurement = false) {
    pending_.push_back(StreamOp{StreamOp::Kind::Barrier, false, starts_measurement, 0, barrier_id_++});
  }

  void begin_first_touch() {
    const CsrGraph& g = s_->graph;
    const GraphLayout& L = s_->layout;
    auto [lo, hi] = static_share(g.vertices(), t_, threads_);
    auto pages = [&](uint64_t a, uint64_t b) {
      for (uint64_t p = a / kPage * kPage; p < b; p += kPage) touch_.push_back(p);
    };
    pages(L.offsets + 8 * static_cast<uint64_t>(lo), L.offsets + 8 * static_cast<uint64_t>(hi + 1));
    pages(L.neighbors + 4 * static_cast<uint64_t>(g.offsets[static_cast<size_t>(lo)]),
          L.neighbors + 4 * static_cast<uint64_t>(g.offsets[static_cast<size_t>(hi)]));
    pages(L.parent + 4 * static_cast<uint64_t>(lo), L.parent + 4 * static_cast<uint64_t>(hi));
    pages(L.queue + 4 * static_cast<uint64_t>(lo), L.queue + 4 * static_cast<uint64_t>(hi));
    pages(L.bitmap_a + static_cast<uint64_t>(lo) / 8, L.bitmap_a + static_cast<uint64_t>(hi) / 8);
    pages(L.bitmap_b + static_cast<uint64_t>(lo) / 8, L.bitmap_b + static_cast<uint64_t>(hi) / 8);
    loop_ = Loop::FirstTouch;
    share_ = Share::contiguous(static_cast<int64_t>(touch_.size()), 0, 1);
  }

  // Starts step `step_` of trial `trial_` (or the parent reset before step 0).
  void begin_step() {
    const BfsResult& r = s_->trials[trial_];
    const int64_t n = s_->graph.vertices();
    const int64_t bitmap_lines = (n + 511) / 512;
    if (step_ < 0) {  // the parallel reset of parent before each search
      loop_ = Loop::ResetParents;
      share_ = Share::contiguous((n + 15) / 16, t_, threads_);  // lines of parent
      return;
    }
    if (static_cast<size_t>(step_) >= r.steps.size()) {  // the search is over
      if (++trial_ < s_->trials.size()) {
        step_ = -1;
        begin_step();
      } else {
        done_ = true;
      }
      return;
    }
    const BfsStep& st = r.steps[static_cast<size_t>(step_)];
    if (!serial_done_ && (st.kind == BfsStep::Kind::BottomUp || st.kind == BfsStep::Kind::QueueToBitmap)) {
      // GAP resets the bitmap about to be written in the serial part: thread 0 alone.
      loop_ = Loop::ClearBitmap;
      clear_base_ = st.kind == BfsStep::Kind::QueueToBitmap ? s_->layout.bitmap_a
                                                          : (st.front_is_a ? s_->layout.bitmap_b : s_->layout.bitmap_a);
      share_ = t_ == 0 ? Share::contiguous(bitmap_lines, 0, 1) : Share();
      return;
    }
    switch (st.kind) {
      case BfsStep::Kind::TopDown: loop_ = Loop::TopDown; share_ = Share(st.queue_begin, st.queue_end, 64, t_, threads_, salt()); break;
      case BfsStep::Kind::BottomUp: loop_ = Loop::BottomUp; share_ = Share(0, n, 1024, t_, threads_, salt()); break;
      case BfsStep::Kind::QueueToBitmap:
        loop_ = Loop::QueueToBitmap;
        share_ = Share::contiguous(st.queue_end - st.queue_begin, t_, threads_);
        break;
      case BfsStep::Kind::BitmapToQueue: loop_ = Loop::BitmapToQueue; share_ = Share(0, (n + 63) / 64, 16, t_, threads_, salt()); break;
    }
  }

  // The same for every thread in one loop, different from loop to loop.
  uint64_t salt() const { return s_->seed * 0x100000001b3ull ^ (trial_ << 32) ^ static_cast<uint64_t>(step_); }

  // Produces the operations of the next item of the current loop, or the loop's closing barrier.
  void produce() {
    const CsrGraph& g = s_->graph;
    const GraphLayout& L = s_->layout;
    const int64_t item = share_.next();
    if (item < 0) {
      // The loop is done: barrier, then what comes next.
      switch (loop_) {
        case Loop::FirstTouch:
          barrier(true);
          step_ = -1;
          begin_step();
          return;
        case Loop::ClearBitmap:
          barrier();
          serial_done_ = true;
          begin_step();
          return;
        default:
          barrier();
          serial_done_ = false;
          ++step_;
          begin_step();
          return;
      }
    }
    const BfsResult& r = s_->trials[trial_];
    const BfsStep* st = step_ >= 0 && static_cast<size_t>(step_) < r.steps.size() ? &r.steps[static_cast<size_t>(step_)] : nullptr;
    switch (loop_) {
      case Loop::FirstTouch: emit(StreamOp::Kind::Store, false, 0, touch_[static_cast<size_t>(item)]); return;
      case Loop::ResetParents: emit(StreamOp::Kind::Store, false, kPerFillLine, L.parent + static_cast<uint64_t>(item) * kLine); return;
      case Loop::ClearBitmap: emit(StreamOp::Kind::Store, false, 8, clear_base_ + static_cast<uint64_t>(item) * kLine); return;
      case Loop::TopDown: {
        const int32_t u = r.queue[static_cast<size_t>(item)];
        emit(StreamOp::Kind::Load, false, kPerVertex, L.queue + 4 * static_cast<uint64_t>(item));
        emit(StreamOp::Kind::Load, true, 1, L.offsets + 8 * static_cast<uint64_t>(u));
        for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
          const int32_t v = g.neighbors[static_cast<size_t>(e)];
          emit(StreamOp::Kind::Load, false, kPerEdge, L.neighbors + 4 * static_cast<uint64_t>(e));
          emit(StreamOp::Kind::Load, true, 1, L.parent + 4 * static_cast<uint64_t>(v));
          if (r.parent[static_cast<size_t>(v)] == u && r.depth[static_cast<size_t>(v)] == st->level && v != u) {
            emit(StreamOp::Kind::Store, false, kPerClaim, L.parent + 4 * static_cast<uint64_t>(v));
            emit(StreamOp::Kind::Store, false, 1, L.queue + 4 * static_cast<uint64_t>(r.queue_slot[static_cast<size_t>(v)]));
          }
        }
        return;
      }
      case Loop::BottomUp: {
        const auto u = static_cast<size_t>(item);
        emit(StreamOp::Kind::Load, false, kPerVertex, L.parent + 4 * u);
        const int32_t d = r.depth[u];
        if (d != -1 && d < st->level) return;  // visited before this step
        const uint64_t front = st->front_is_a ? L.bitmap_a : L.bitmap_b, next = st->front_is_a ? L.bitmap_b : L.bitmap_a;
        for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const int32_t v = g.neighbors[static_cast<size_t>(e)];
          emit(StreamOp::Kind::Load, false, kPerEdge, L.neighbors + 4 * static_cast<uint64_t>(e));
          emit(StreamOp::Kind::Load, true, 1, front + static_cast<uint64_t>(v) / 64 * 8);
          if (d == st->level && v == r.parent[u]) {  // the first neighbour in the frontier: found
            emit(StreamOp::Kind::Store, false, kPerClaim, L.parent + 4 * u);
            emit(StreamOp::Kind::Store, false, 2, next + u / 64 * 8);
            return;
          }
        }
        return;
      }
      case Loop::QueueToBitmap: {
        const int64_t i = st->queue_begin + item;
        const int32_t u = r.queue[static_cast<size_t>(i)];
        emit(StreamOp::Kind::Load, false, 2, L.queue + 4 * static_cast<uint64_t>(i));
        emit(StreamOp::Kind::Store, true, 2, L.bitmap_a + static_cast<uint64_t>(u) / 64 * 8);
        return;
      }
      case Loop::BitmapToQueue: {
        const uint64_t front = st->front_is_a ? L.bitmap_a : L.bitmap_b;
        emit(StreamOp::Kind::Load, false, 4, front + static_cast<uint64_t>(item) * 8);
        // The vertices of this word that the step appended: their queue slots lie in its window.
        for (int64_t u = item * 64; u < std::min(item * 64 + 64, g.vertices()); ++u) {
          const int64_t slot = r.queue_slot[static_cast<size_t>(u)];
          if (slot >= st->queue_begin && slot < st->queue_end)
            emit(StreamOp::Kind::Store, false, 3, L.queue + 4 * static_cast<uint64_t>(slot));
        }
        return;
      }
    }
  }

  std::shared_ptr<const BfsShared> s_;
  unsigned t_, threads_;
  bool done_ = false, serial_done_ = false;
  size_t trial_ = 0;
  int64_t step_ = -2;  // -2: first touch, -1: parent reset, then the steps
  Loop loop_ = Loop::FirstTouch;
  Share share_;
  uint64_t barrier_id_ = 1, clear_base_ = 0;
  std::vector<uint64_t> touch_;
  std::vector<StreamOp> pending_;
  size_t pending_head_ = 0;
};

}  // namespace

BfsWorkload::BfsWorkload(unsigned scale, unsigned degree, unsigned trials, bool direction_optimizing, unsigned threads,
                         uint64_t seed)
    : threads_(threads),
      shared_(std::make_shared<BfsShared>(kronecker_graph(scale, degree, seed), trials, direction_optimizing, seed)) {}
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
    return std::make_unique<BfsWorkload>(scale_, degree_, trials_, direction_.get() == "optimizing", threads, seed);
  }

 private:
  Param<unsigned> scale_{*this, "scale", 18u, "The graph has 2^scale vertices (Graph500 Kronecker)", between(4u, 26u)};
  Param<unsigned> degree_{*this, "degree", 16u, "Edges per vertex before symmetrisation (Graph500 edge factor)",
                          between(1u, 256u)};
  Param<unsigned> trials_{*this, "trials", 4u, "Searches from different random roots, one after another",
                          between(1u, 1000u)};
  Param<std::string> direction_{*this, "direction", "optimizing",
                                "optimizing: GAP's direction-optimizing search; top-down: top-down steps only",
                                std::vector<std::string>{"optimizing", "top-down"}};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(BfsSpec, "bfs",
                           "GAP's breadth-first search (direction-optimizing) on a Kronecker graph");

}  // namespace starnuma
