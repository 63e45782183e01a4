// The graph kernels' results against independent references, and the shape of their streams.
#include "stimulus/graph/graph_kernels.hpp"

#include <map>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/graph/parallel_program.hpp"
#include "stimulus/stream_capture.hpp"

namespace starnuma {
namespace {

int32_t first_connected_vertex(const CsrGraph& g) {
  int32_t v = 0;
  while (g.degree(v) == 0) ++v;
  return v;
}

TEST(Cc, LabelsMatchUnionFind) {
  const CsrGraph g = kronecker_graph(12, 8, 9);
  const ComponentsRun run = shiloach_vishkin(g);
  EXPECT_EQ(check_components(g, run.comp), "");
  EXPECT_GT(run.before_hooking.size(), 2u);  // hooking takes several rounds
  EXPECT_EQ(run.before_hooking.size(), run.after_hooking.size());
  // The check can fail: merge two components, or split one.
  std::vector<int32_t> merged = run.comp, split = run.comp;
  const int32_t isolated = [&] {
    for (int32_t v = 0; v < g.vertices(); ++v)
      if (g.degree(v) == 0) return v;
    return -1;
  }();
  ASSERT_GE(isolated, 0);  // Kronecker graphs have isolated vertices
  merged[static_cast<size_t>(isolated)] = run.comp[static_cast<size_t>(first_connected_vertex(g))];
  EXPECT_NE(check_components(g, merged), "");
  const int32_t hub = first_connected_vertex(g);
  split[static_cast<size_t>(hub)] = isolated;
  split[static_cast<size_t>(isolated)] = isolated;
  EXPECT_NE(check_components(g, split), "");
}

TEST(Cc, AfforestLabelsMatchUnionFind) {
  // A skewed graph with a giant component, and a sparse one of many small components.
  for (const auto& [scale, degree] : {std::pair{12u, 8u}, std::pair{11u, 1u}, std::pair{9u, 16u}})
    for (uint64_t seed : {1u, 9u}) {
      const CsrGraph g = kronecker_graph(scale, degree, seed);
      EXPECT_EQ(check_components(g, afforest(g, seed)), "") << scale << " " << degree << " " << seed;
    }
}

TEST(Cc, TrialsRepeatAfforestAndAreRefusedForSv) {
  auto once = make_workload("cc:scale=9,degree=8", 2, 1, 1),
       twice = make_workload("cc:scale=9,degree=8,trials=2", 2, 1, 1);
  const auto loops = [](const Workload& w) {
    std::vector<ParallelLoop> all;
    const ParallelProgram& p = dynamic_cast<const ProgramWorkload&>(w).program();
    for (size_t i = 0; p.loop(i); ++i) all.push_back(*p.loop(i));
    return all;
  };
  const std::vector<ParallelLoop> a = loops(*once), b = loops(*twice);
  ASSERT_EQ(b.size(), 2 * a.size());
  EXPECT_NE(b[1].salt, b[a.size() + 1].salt) << "each trial has its own dynamic schedule";
  auto r = testing::capture_report([] { make_workload("cc:scale=9,algorithm=sv,trials=2", 2, 1, 1); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("cc.trials: algorithm=sv runs once"), std::string::npos) << r.message;
}

TEST(Sssp, DeltaSteppingDistancesMatchDijkstra) {
  const CsrGraph g = kronecker_graph(12, 8, 4);
  const int32_t source = first_connected_vertex(g);
  const std::vector<int32_t> expected = dijkstra(g, source, 4);
  for (int32_t delta : {1, 16, 1000})
    for (unsigned threads : {1u, 7u, 64u}) EXPECT_EQ(delta_stepping(g, source, delta, threads, 4), expected);
  // Weights are symmetric and in 1..255.
  for (int32_t u = 0; u < 50; ++u)
    for (int32_t v = 50; v < 100; ++v) {
      EXPECT_EQ(edge_weight(u, v, 4), edge_weight(v, u, 4));
      EXPECT_GE(edge_weight(u, v, 4), 1);
      EXPECT_LE(edge_weight(u, v, 4), 255);
    }
}

TEST(Tc, OrderedCountMatchesReferences) {
  const CsrGraph tiny = kronecker_graph(6, 8, 2);
  uint64_t brute = 0;  // every triple once
  for (int64_t a = 0; a < tiny.vertices(); ++a)
    for (int64_t b = a + 1; b < tiny.vertices(); ++b)
      for (int64_t c = b + 1; c < tiny.vertices(); ++c)
        brute += tiny.has_edge(a, b) && tiny.has_edge(b, c) && tiny.has_edge(a, c);
  EXPECT_GT(brute, 0u);
  EXPECT_EQ(ordered_triangle_count(relabel_by_degree(tiny)), brute);
  EXPECT_EQ(reference_triangle_count(tiny), brute);

  const CsrGraph g = kronecker_graph(12, 16, 2);
  const CsrGraph relabelled = relabel_by_degree(g);
  EXPECT_EQ(relabelled.edges(), g.edges());
  for (int64_t v = 1; v < relabelled.vertices(); ++v) EXPECT_LE(relabelled.degree(v), relabelled.degree(v - 1));
  EXPECT_EQ(ordered_triangle_count(relabelled), reference_triangle_count(g));
}

TEST(Pr, ConvergesToAFixedPoint) {
  const CsrGraph g = kronecker_graph(12, 16, 6);
  const PageRankRun run = pagerank(g, 20, 1e-4);
  EXPECT_TRUE(run.converged);
  EXPECT_GT(run.errors.size(), 3u);
  for (size_t i = 1; i < run.errors.size(); ++i) EXPECT_LT(run.errors[i], run.errors[i - 1]);
  EXPECT_LT(pagerank_residual(g, run.scores), 1e-4);
  // Not converged after one iteration: the check can fail.
  EXPECT_GT(pagerank_residual(g, pagerank(g, 1, 1e-4).scores), 1e-3);
}

// Every graph workload: first touch, then one barrier that starts measurement; every thread passes
// the same barriers; addresses stay in the footprint; the same seed gives the same streams.
class GraphStream : public ::testing::TestWithParam<std::string> {};

TEST_P(GraphStream, IsWellFormedAndDeterministic) {
  constexpr unsigned kThreads = 6;
  const std::string text = GetParam() + (GetParam().find(':') == std::string::npos ? ":" : ",") + "scale=9,degree=8";
  auto w = make_workload(text, kThreads, 3, 5);
  auto again = make_workload(text, kThreads, 3, 5);
  EXPECT_TRUE(w->initialises());
  const uint64_t base = ArrayAllocator::kBase;
  std::vector<uint64_t> barrier_ids;
  uint64_t measured_ops = 0;
  for (unsigned t = 0; t < kThreads; ++t) {
    const auto ops = all_ops(*w, t, 256);
    const auto same = all_ops(*again, t, 256);
    ASSERT_EQ(ops.size(), same.size());
    std::vector<uint64_t> ids;
    bool measuring = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      const StreamOp& op = ops[i];
      EXPECT_EQ(op.address, same[i].address);
      EXPECT_EQ(op.kind, same[i].kind);
      if (op.kind == StreamOp::Kind::Barrier) {
        EXPECT_EQ(op.starts_measurement, ids.empty()) << "only the first barrier starts measurement";
        ids.push_back(op.address);
        measuring = true;
        continue;
      }
      if (!measuring) {
        EXPECT_EQ(op.kind, StreamOp::Kind::Store) << "initialisation is first touch";
      }
      measured_ops += measuring;
      ASSERT_GE(op.address, base);
      ASSERT_LT(op.address, base + w->footprint()) << GetParam() << " op " << i;
    }
    if (t == 0) barrier_ids = ids;
    EXPECT_EQ(ids, barrier_ids) << "thread " << t << " passes other barriers than thread 0";
  }
  EXPECT_GE(barrier_ids.size(), 2u);  // first touch, then at least one loop
  EXPECT_GT(measured_ops, 1000u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, GraphStream, ::testing::Values("bfs", "cc", "cc:algorithm=sv", "sssp", "tc", "pr"));

// Afforest links two neighbours per vertex, then skips the vertices of the component its sample
// finds most frequent: it reads far fewer neighbours than Shiloach-Vishkin, whose every hooking
// round reads them all.
TEST(GraphStream, AfforestSkipsTheLargestComponentsEdges) {
  const CsrGraph g = kronecker_graph(12, 16, 3);
  const uint64_t neighbors = ArrayAllocator::kBase + (8 * g.offsets.size() + 4095) / 4096 * 4096;
  const uint64_t neighbors_end = neighbors + 4 * static_cast<uint64_t>(g.edges());
  auto neighbour_reads = [&](const std::string& text) {
    auto w = make_workload(text, 3, 1, 3);
    uint64_t reads = 0;
    for (unsigned t = 0; t < 3; ++t) {
      bool measuring = false;
      for (const StreamOp& op : all_ops(*w, t, 256)) {
        measuring |= op.kind == StreamOp::Kind::Barrier;
        reads += measuring && op.kind == StreamOp::Kind::Load && op.address >= neighbors && op.address < neighbors_end;
      }
    }
    return reads;
  };
  const uint64_t afforest_reads = neighbour_reads("cc:scale=12,degree=16");
  const uint64_t sv_reads = neighbour_reads("cc:scale=12,degree=16,algorithm=sv");
  int64_t linked = 0;  // vertices with a first neighbour
  for (int64_t v = 0; v < g.vertices(); ++v) linked += g.degree(v) > 0;
  EXPECT_GE(afforest_reads, static_cast<uint64_t>(linked));
  EXPECT_LT(afforest_reads, static_cast<uint64_t>(g.edges()) / 4);
  EXPECT_GE(sv_reads, 2 * static_cast<uint64_t>(g.edges()));  // at least two hooking rounds
}

TEST(GraphStream, PageRankRunsTwoLoopsPerIteration) {
  auto w = make_workload("pr:scale=10,degree=8", 4, 2, 1);
  const PageRankRun run = pagerank(kronecker_graph(10, 8, 1), 20, 1e-4);
  uint64_t barriers = 0;
  for (const StreamOp& op : all_ops(*w, 1, 256)) barriers += op.kind == StreamOp::Kind::Barrier;
  EXPECT_EQ(barriers, 1 + 1 + 2 * run.errors.size());  // first touch, score init, contributions + pull
}

TEST(GraphStream, SsspStoresOnlyImprovedDistances) {
  // One thread: every store to dist after initialisation lowers a distance, so there are at
  // least as many as reached vertices (minus the source) and at most one per edge visit.
  auto w = make_workload("sssp:scale=10,degree=8,delta=8", 1, 1, 3);
  const CsrGraph g = kronecker_graph(10, 8, 3);
  const uint64_t dist_base = ArrayAllocator::kBase + (8 * g.offsets.size() + 4095) / 4096 * 4096 +
                             (8 * g.neighbors.size() + 4095) / 4096 * 4096;
  const uint64_t dist_end = dist_base + 4 * static_cast<uint64_t>(g.vertices());
  uint64_t stores = 0, loads = 0;
  bool measuring = false;
  for (const StreamOp& op : all_ops(*w, 0, 256)) {
    if (op.kind == StreamOp::Kind::Barrier) {
      measuring = true;
      continue;
    }
    if (!measuring || op.address < dist_base || op.address >= dist_end) continue;
    (op.kind == StreamOp::Kind::Store ? stores : loads) += op.instructions != 32;  // not the init lines
  }
  EXPECT_GT(loads, stores);
  EXPECT_GT(stores, 100u);
}

}  // namespace
}  // namespace starnuma
