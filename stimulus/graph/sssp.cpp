// sssp: GAP's delta-stepping single-source shortest paths, traced per thread.
//
//   dist[n] = infinity (parallel, static); dist[source] = 0; frontier = {source}
//   repeat while some thread's bins hold vertices:
//     for i (dynamic, 64): u = frontier[i]; if dist[u] >= delta * bin:
//       for (v, w) in neigh(u): if dist[u] + w < dist[v]: dist[v] = dist[u] + w;
//                               push v to this thread's local bin (dist[v] / delta)
//     bin = the lowest non-empty local bin of any thread
//     every thread copies its local bin `bin` into the shared frontier (one after another)
//
// Items run in frontier order, each by the thread the schedule gives it, with the distances as
// the earlier items left them; the pushes go to that thread's bins, so the next frontier holds
// what each thread found, thread by thread. Delta-stepping is label-correcting: whatever the
// order, the distances are exact (checked against Dijkstra). GAP's later refinement that lets a
// thread keep working on a small local bin without a barrier is not modelled: every bin costs
// two barriers, as in the algorithm as published.
#include <algorithm>
#include <queue>
#include <random>

#include "stimulus/graph/graph_kernels.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

int32_t edge_weight(int32_t u, int32_t v, uint64_t seed) {
  uint64_t x = seed ^ (static_cast<uint64_t>(std::min(u, v)) << 32 | static_cast<uint32_t>(std::max(u, v)));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;  // splitmix64's finaliser
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return static_cast<int32_t>(1 + x % 255);
}

std::vector<int32_t> dijkstra(const CsrGraph& g, int32_t source, uint64_t weight_seed) {
  std::vector<int32_t> dist(static_cast<size_t>(g.vertices()), kUnreachable);
  using Entry = std::pair<int32_t, int32_t>;  // distance, vertex
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[static_cast<size_t>(source)] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    auto [d, u] = queue.top();
    queue.pop();
    if (d > dist[static_cast<size_t>(u)]) continue;
    for (int64_t e = g.offsets[static_cast<size_t>(u)]; e < g.offsets[static_cast<size_t>(u) + 1]; ++e) {
      const int32_t v = g.neighbors[static_cast<size_t>(e)], nd = d + edge_weight(g, e, u, v, weight_seed);
      if (nd < dist[static_cast<size_t>(v)]) {
        dist[static_cast<size_t>(v)] = nd;
        queue.push({nd, v});
      }
    }
  }
  return dist;
}

namespace {

// Instruction cost model: loop control, the bin test, the relaxation compare, the push.
constexpr uint32_t kPerItem = 4, kPerVertex = 3, kPerEdge = 4, kPerRelax = 6, kPerCopy = 3, kPerFillLine = 32;
constexpr int64_t kBinSlots = 4;  // local bins in use at once that get their own memory

enum Body : uint8_t { kInitDist, kStart, kRelax, kGather };

// A relaxation that lowered a distance: which edge of the item's vertex, and where in the thread's
// local bin the vertex was pushed.
struct Push {
  uint32_t edge;
  uint32_t slot;
};

struct BinStep {
  int64_t bin = 0;
  std::vector<int32_t> frontier;     // as the relaxation loop reads it
  std::vector<int32_t> dist_seen;    // per item: dist[u] when it ran
  std::vector<uint64_t> first_push;  // per item (+1): its pushes in `pushes`
  std::vector<Push> pushes;
  std::vector<int64_t> copy_start;  // per thread (+1): where its local bin goes in the next frontier
  int64_t next_bin = -1;
};

struct Search {
  int32_t source = 0;
  std::vector<int32_t> dist;
  std::vector<BinStep> steps;
};

uint64_t relax_salt(uint64_t seed, uint32_t trial, size_t step) {
  return seed * 0x100000001b3ull ^ (uint64_t{trial} << 32) ^ step;
}

// The search's reads of its neighbours' distances are cache misses on large graphs: each is asked
// for ahead of its use (prefetching the frontier's own vertices measured no gain). Only the host's
// time changes.
constexpr int64_t kDistAhead = 8;

// Runs one search, recording what each step's items did.
Search run_search(const CsrGraph& graph, int32_t source, int32_t delta, unsigned threads, uint64_t seed,
                  uint32_t trial) {
  Search r;
  r.source = source;
  std::vector<int32_t>& dist = r.dist;
  dist.assign(static_cast<size_t>(graph.vertices()), kUnreachable);
  dist[static_cast<size_t>(source)] = 0;
  std::vector<std::vector<std::vector<int32_t>>> bins(threads);  // [thread][bin]
  std::vector<int32_t> frontier{source};
  std::vector<unsigned> owner;
  for (int64_t bin = 0; bin >= 0;) {
    BinStep s;
    s.bin = bin;
    // Which thread runs each item: the schedule of the loop the stream will replay.
    owner.assign(frontier.size(), 0);
    const ParallelLoop loop{
        kRelax, ParallelLoop::Schedule::Dynamic,         0,     static_cast<int64_t>(frontier.size()),
        64,     relax_salt(seed, trial, r.steps.size()), trial, 0};
    for (unsigned t = 0; t < threads; ++t) {
      LoopShare share(loop, t, threads, {0, 0});
      for (int64_t i; (i = share.next()) >= 0;) owner[static_cast<size_t>(i)] = t;
    }
    for (size_t i = 0; i < frontier.size(); ++i) {
      const int32_t u = frontier[i], du = dist[static_cast<size_t>(u)];
      s.dist_seen.push_back(du);
      s.first_push.push_back(s.pushes.size());
      if (du < delta * bin) continue;
      const int64_t first = graph.offsets[static_cast<size_t>(u)], end = graph.offsets[static_cast<size_t>(u) + 1];
      for (int64_t e = first; e < end; ++e) {
        if (e + kDistAhead < end) __builtin_prefetch(&dist[static_cast<size_t>(graph.neighbors[e + kDistAhead])]);
        const int32_t v = graph.neighbors[static_cast<size_t>(e)], nd = du + edge_weight(graph, e, u, v, seed);
        if (nd >= dist[static_cast<size_t>(v)]) continue;
        dist[static_cast<size_t>(v)] = nd;
        auto& thread_bins = bins[owner[i]];
        const auto b = static_cast<size_t>(nd / delta);
        if (b >= thread_bins.size()) thread_bins.resize(b + 1);
        s.pushes.push_back({static_cast<uint32_t>(e - first), static_cast<uint32_t>(thread_bins[b].size())});
        thread_bins[b].push_back(v);
      }
    }
    s.first_push.push_back(s.pushes.size());
    for (const auto& thread_bins : bins)
      for (size_t b = static_cast<size_t>(bin); b < thread_bins.size(); ++b)
        if (!thread_bins[b].empty()) {
          s.next_bin = s.next_bin < 0 ? static_cast<int64_t>(b) : std::min(s.next_bin, static_cast<int64_t>(b));
          break;
        }
    s.frontier = std::move(frontier);
    frontier.clear();
    s.copy_start.push_back(0);
    for (auto& thread_bins : bins) {
      if (s.next_bin >= 0 && static_cast<size_t>(s.next_bin) < thread_bins.size()) {
        auto& local = thread_bins[static_cast<size_t>(s.next_bin)];
        frontier.insert(frontier.end(), local.begin(), local.end());
        local.clear();
      }
      s.copy_start.push_back(static_cast<int64_t>(frontier.size()));
    }
    bin = s.next_bin;
    r.steps.push_back(std::move(s));
  }
  return r;
}

class SsspProgram : public ParallelProgram {
 public:
  SsspProgram(CsrGraph g, int32_t delta, unsigned trials, unsigned threads, uint64_t seed)
      : graph_(std::move(g)), delta_(delta), seed_(seed), threads_(threads) {
    std::mt19937_64 rng(seed ^ 0x555b);
    for (uint32_t t = 0; t < trials; ++t) {
      int32_t source;
      do source = static_cast<int32_t>(rng() % static_cast<uint64_t>(graph_.vertices()));
      while (graph_.degree(source) == 0);
      searches_.push_back(run_search(graph_, source, delta_, threads, seed, t));
      for (const BinStep& step : searches_.back().steps) {
        max_frontier_ = std::max<int64_t>(max_frontier_, static_cast<int64_t>(step.frontier.size()));
        for (const Push& p : step.pushes) max_bin_ = std::max<int64_t>(max_bin_, p.slot + int64_t{1});
      }
    }
    ArrayAllocator a;
    const auto n = static_cast<uint64_t>(graph_.vertices());
    offsets_ = a.allocate(8 * graph_.offsets.size());
    neighbors_ = a.allocate(8 * graph_.neighbors.size());  // (vertex, weight) pairs
    dist_ = a.allocate(4 * n);
    frontier_ = a.allocate(4 * static_cast<uint64_t>(max_frontier_));
    slot_bytes_ = (4 * static_cast<uint64_t>(max_bin_) + kGraphPage - 1) / kGraphPage * kGraphPage;
    bins_ = a.allocate(slot_bytes_ * kBinSlots * threads);
    footprint_ = a.end() - a.begin();
    build_loops();
  }

  uint64_t footprint() const override { return footprint_; }
  void first_touch(unsigned t, unsigned threads, std::vector<uint64_t>& pages) const override {
    append_csr_share(pages, graph_, offsets_, neighbors_, 8, t, threads);
    append_vertex_share(pages, dist_, 4, graph_.vertices(), t, threads);
  }
  std::pair<int64_t, int64_t> thread_items(const ParallelLoop& loop, unsigned t) const override {
    const BinStep& s = searches_[loop.round].steps[loop.step];
    return {s.copy_start[t], s.copy_start[t + 1]};
  }

  void run_item(const ParallelLoop& loop, int64_t item, unsigned thread, OpSink& out) const override {
    const auto dist = [&](int64_t v) { return dist_ + 4 * static_cast<uint64_t>(v); };
    const auto frontier = [&](int64_t i) { return frontier_ + 4 * static_cast<uint64_t>(i); };
    const Search& search = searches_[loop.round];
    switch (loop.body) {
      case kInitDist: out.store(dist_ + static_cast<uint64_t>(item) * kGraphLine, kPerFillLine); return;
      case kStart:
        out.store(dist(search.source), 2);
        out.store(frontier(0), 1);
        return;
      case kRelax: {
        const BinStep& s = search.steps[loop.step];
        const auto i = static_cast<size_t>(item);
        const int32_t u = s.frontier[i], du = s.dist_seen[i];
        out.load(frontier(item), kPerItem);
        out.load(dist(u), 1, true);
        if (du < delta_ * s.bin) return;  // already settled in an earlier bin
        out.load(offsets_ + 8 * static_cast<uint64_t>(u), kPerVertex, true);
        uint64_t k = s.first_push[i];
        const int64_t first = graph_.offsets[static_cast<size_t>(u)];
        for (int64_t e = first; e < graph_.offsets[static_cast<size_t>(u) + 1]; ++e) {
          const int32_t v = graph_.neighbors[static_cast<size_t>(e)];
          out.load(neighbors_ + 8 * static_cast<uint64_t>(e), kPerEdge);
          out.load(dist(v), 1, true);
          if (k < s.first_push[i + 1] && s.pushes[k].edge == static_cast<uint32_t>(e - first)) {
            out.store(dist(v), kPerRelax);
            out.store(bin_slot(thread, (du + edge_weight(graph_, e, u, v, seed_)) / delta_, s.pushes[k].slot), 2);
            ++k;
          }
        }
        return;
      }
      case kGather: {
        const BinStep& s = search.steps[loop.step];
        out.load(bin_slot(thread, s.next_bin, item - s.copy_start[thread]), kPerCopy);
        out.store(frontier(item), 1);
        return;
      }
    }
  }

 private:
  uint64_t bin_slot(unsigned thread, int64_t bin, int64_t position) const {
    return bins_ + (static_cast<uint64_t>(thread) * kBinSlots + static_cast<uint64_t>(bin % kBinSlots)) * slot_bytes_ +
           4 * static_cast<uint64_t>(position);
  }

  void build_loops() {
    using S = ParallelLoop::Schedule;
    const int64_t n = graph_.vertices();
    std::vector<ParallelLoop> loops;
    for (uint32_t trial = 0; trial < searches_.size(); ++trial) {
      loops.push_back({kInitDist, S::Static, 0, (n + 15) / 16, 1, 0, trial, 0});  // lines of dist
      loops.push_back({kStart, S::Serial, 0, 1, 1, 0, trial, 0});
      const auto& steps = searches_[trial].steps;
      for (uint32_t i = 0; i < steps.size(); ++i) {
        loops.push_back({kRelax, S::Dynamic, 0, static_cast<int64_t>(steps[i].frontier.size()), 64,
                         relax_salt(seed_, trial, i), trial, i});
        loops.push_back({kGather, S::PerThread, 0, 0, 1, 0, trial, i});
      }
    }
    set_loops(loops);
  }

  CsrGraph graph_;
  int32_t delta_;
  uint64_t seed_;
  unsigned threads_;
  std::vector<Search> searches_;
  int64_t max_frontier_ = 1, max_bin_ = 1;
  uint64_t offsets_ = 0, neighbors_ = 0, dist_ = 0, frontier_ = 0, bins_ = 0, slot_bytes_ = 0, footprint_ = 0;
};

class SsspSpec : public GraphSpec {
 public:
  explicit SsspSpec(const ScopeContext& c) : GraphSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<ProgramWorkload>(
        std::make_shared<SsspProgram>(graph(seed), static_cast<int32_t>(delta_.get()), trials_, threads, seed),
        threads);
  }

 private:
  Param<unsigned> delta_{*this, "delta", 16u, "Bucket width of delta-stepping (edge weights are 1 to 255)",
                         between(1u, 1u << 20)};
  Param<unsigned> trials_{*this, "trials", 1u, "Searches from different random sources, one after another",
                          between(1u, 1000u)};
};

}  // namespace

std::vector<int32_t> delta_stepping(const CsrGraph& g, int32_t source, int32_t delta, unsigned threads, uint64_t seed) {
  return run_search(g, source, delta, threads, seed, 0).dist;
}

STARNUMA_REGISTER_WORKLOAD(SsspSpec, "sssp", "GAP's delta-stepping shortest paths on a weighted Kronecker graph");

}  // namespace starnuma
