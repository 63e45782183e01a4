// cc:algorithm=sv: GAP's Shiloach-Vishkin connected components (cc_sv), traced per thread; the
// default, Afforest, is in afforest.cpp.
//
//   comp[n] = n                                        (parallel, static)
//   repeat until no hook changes anything:
//     for u (static): for v in neigh(u):               hooking
//       if comp[u] != comp[v]: high, low = max, min; if comp[high] == high: comp[high] = low
//     for n (static): while comp[n] != comp[comp[n]]: comp[n] = comp[comp[n]]   compression
//
// The hooking loop's threads read labels while others write them; here every read sees the labels
// as they were when the loop started (a write lands at once but is read only by later loops). The
// labels still only point to lower ids of the same component, so the result is exact; the number
// of iterations can differ from a given real run's by one or two, as real runs differ among
// themselves.
#include <numeric>

#include "stimulus/graph/components.hpp"
#include "stimulus/graph/graph_kernels.hpp"
#include "stimulus/graph/parallel_program.hpp"

namespace starnuma {

ComponentsRun shiloach_vishkin(const CsrGraph& g) {
  const auto n = static_cast<size_t>(g.vertices());
  ComponentsRun run;
  run.comp = initial_labels(g);
  std::vector<int32_t>& comp = run.comp;
  for (bool change = true; change;) {
    change = false;
    run.before_hooking.push_back(comp);
    const std::vector<int32_t>& seen = run.before_hooking.back();
    for (size_t u = 0; u < n; ++u)
      for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const int32_t cu = seen[u], cv = seen[static_cast<size_t>(g.neighbors[static_cast<size_t>(e)])];
        if (cu == cv) continue;
        const int32_t high = std::max(cu, cv), low = std::min(cu, cv);
        if (seen[static_cast<size_t>(high)] == high) {
          change = true;
          comp[static_cast<size_t>(high)] = low;
        }
      }
    run.after_hooking.push_back(comp);
    for (size_t v = 0; v < n; ++v)
      while (comp[v] != comp[static_cast<size_t>(comp[v])]) comp[v] = comp[static_cast<size_t>(comp[v])];
  }
  return run;
}

std::string check_components(const CsrGraph& g, const std::vector<int32_t>& comp) {
  const auto n = static_cast<size_t>(g.vertices());
  if (comp.size() != n) return "wrong number of labels";
  std::vector<int32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int32_t x) {
    while (parent[static_cast<size_t>(x)] != x)
      x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  };
  for (size_t u = 0; u < n; ++u)
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const int32_t a = find(static_cast<int32_t>(u)), b = find(g.neighbors[static_cast<size_t>(e)]);
      if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
    }
  // Same partition: the union-find root and the label must map one to one.
  std::vector<int32_t> label_of_root(n, -1), root_of_label(n, -1);
  for (size_t v = 0; v < n; ++v) {
    const int32_t r = find(static_cast<int32_t>(v)), l = comp[v];
    if (l < 0 || static_cast<size_t>(l) >= n) return "vertex " + std::to_string(v) + " has no valid label";
    int32_t& lr = label_of_root[static_cast<size_t>(r)];
    int32_t& rl = root_of_label[static_cast<size_t>(l)];
    if (lr == -1) lr = l;
    if (rl == -1) rl = r;
    if (lr != l) return "vertex " + std::to_string(v) + " is labelled apart from its component";
    if (rl != r) return "vertex " + std::to_string(v) + " shares a label with another component";
  }
  return "";
}

namespace {

// Instruction cost model: loop control and the compare-and-branch around each access (GAP's loops).
constexpr uint32_t kPerVertex = 4, kPerEdge = 3, kPerHook = 3;

enum Body : uint8_t { kInit, kHook, kCompress };

class CcProgram : public ComponentsProgram {
 public:
  explicit CcProgram(CsrGraph g) : ComponentsProgram(std::move(g)), run_(shiloach_vishkin(graph_)) {
    using S = ParallelLoop::Schedule;
    const int64_t n = graph_.vertices();
    std::vector<ParallelLoop> loops{init_loop(kInit)};
    for (uint32_t i = 0; i < run_.before_hooking.size(); ++i) {
      loops.push_back({kHook, S::Static, 0, n, 1, 0, i, 0});
      loops.push_back({kCompress, S::Static, 0, n, 1, 0, i, 0});
    }
    set_loops(loops);
  }

  void run_item(const ParallelLoop& loop, int64_t item, unsigned, OpSink& out) const override {
    if (loop.body == kInit) {
      init_item(item, out);
      return;
    }
    const auto u = static_cast<size_t>(item);
    if (loop.body == kHook) {
      const std::vector<int32_t>& seen = run_.before_hooking[loop.round];
      out.load(offsets_ + 8 * u, kPerVertex);
      for (int64_t e = graph_.offsets[u]; e < graph_.offsets[u + 1]; ++e) {
        const int32_t v = graph_.neighbors[static_cast<size_t>(e)];
        out.load(neighbors_ + 4 * static_cast<uint64_t>(e), kPerEdge);
        out.load(comp(item), 1);
        out.load(comp(v), 1, true);
        const int32_t cu = seen[u], cv = seen[static_cast<size_t>(v)];
        if (cu == cv) continue;
        const int32_t high = std::max(cu, cv);
        out.load(comp(high), kPerHook, true);
        if (seen[static_cast<size_t>(high)] == high) out.store(comp(high), 1);
      }
      return;
    }
    // Compression walks the chain of labels as hooking left them, shortening the vertex's own.
    const std::vector<int32_t>& hooked = run_.after_hooking[loop.round];
    int32_t x = hooked[u];
    out.load(comp(item), kPerVertex);
    out.load(comp(x), 1, true);
    while (hooked[static_cast<size_t>(x)] != x) {
      out.store(comp(item), 1);
      x = hooked[static_cast<size_t>(x)];
      out.load(comp(x), 2, true);
    }
  }

  const ComponentsRun& run() const { return run_; }

 private:
  ComponentsRun run_;
};

class CcSpec : public GraphSpec {
 public:
  explicit CcSpec(const ScopeContext& c) : GraphSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    if (algorithm_.get() == "sv") {
      if (trials_ != 1) report_error(msg::kConfig, "cc.trials: algorithm=sv runs once (trials=1)");
      return std::make_unique<ProgramWorkload>(std::make_shared<CcProgram>(graph(seed)), threads);
    }
    return std::make_unique<ProgramWorkload>(make_afforest_program(graph(seed), seed, trials_), threads);
  }

 private:
  Param<std::string> algorithm_{*this, "algorithm", "afforest",
                                "afforest (GAP's cc, sampling and skipping the largest component) or sv (GAP's "
                                "cc_sv, Shiloach-Vishkin)",
                                std::vector<std::string>{"afforest", "sv"}};
  Param<unsigned> trials_{*this, "trials", 1u, "Runs of the kernel one after another, from fresh labels (afforest)",
                          between(1u, 1000u)};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(CcSpec, "cc",
                           "GAP's connected components (Afforest, or Shiloach-Vishkin) on a Kronecker graph");

}  // namespace starnuma
