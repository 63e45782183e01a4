#include "stimulus/graph/bfs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

TEST(Kronecker, IsUndirectedWithoutSelfLoopsOrDuplicates) {
  CsrGraph g = kronecker_graph(10, 8, 3);
  EXPECT_EQ(g.vertices(), 1024);
  for (int64_t v = 0; v < g.vertices(); ++v)
    for (int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const int32_t w = g.neighbors[e];
      EXPECT_NE(w, v);
      EXPECT_TRUE(g.has_edge(w, v));
      if (e > g.offsets[v]) {
        EXPECT_LT(g.neighbors[e - 1], w);  // sorted, no duplicates
      }
    }
  // Kronecker graphs are skewed: the busiest vertex has far more than the average degree.
  int64_t max_degree = 0;
  for (int64_t v = 0; v < g.vertices(); ++v) max_degree = std::max(max_degree, g.degree(v));
  EXPECT_GT(max_degree, 8 * g.edges() / g.vertices());
}

TEST(Kronecker, BothCsrBuildsGiveTheSameGraph) {
  for (unsigned degree : {1u, 16u}) {
    const CsrGraph list = kronecker_graph(12, degree, 11, CsrBuild::EdgeList);
    const CsrGraph passes = kronecker_graph(12, degree, 11, CsrBuild::TwoPasses);
    EXPECT_EQ(list.offsets, passes.offsets);
    EXPECT_EQ(list.neighbors, passes.neighbors);
    EXPECT_GT(list.edges(), 0);
  }
}

// FNV-1a over the CSR arrays: any change to the graphs a seed gives changes every graph workload's
// streams, so the generator's output is pinned (values from the generator of 2026-11-25).
uint64_t fingerprint(const CsrGraph& g) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto mix = [&h](uint64_t x) {
    for (int b = 0; b < 8; ++b) h = (h ^ ((x >> (8 * b)) & 0xff)) * 0x100000001b3ull;
  };
  for (int64_t o : g.offsets) mix(static_cast<uint64_t>(o));
  for (int32_t v : g.neighbors) mix(static_cast<uint32_t>(v));
  return h;
}

TEST(Kronecker, GraphsOfASeedStayTheSame) {
  for (CsrBuild build : {CsrBuild::EdgeList, CsrBuild::TwoPasses}) {
    EXPECT_EQ(fingerprint(kronecker_graph(12, 16, 11, build)), 0x79387b3c2f6d95e2ull);
    EXPECT_EQ(fingerprint(kronecker_graph(16, 8, 1, build)), 0xe7cd4fa97b724e8aull);
  }
}

TEST(Bfs, ParentsFormAValidBfsTree) {
  CsrGraph g = kronecker_graph(12, 16, 7);
  int32_t root = 0;
  while (g.degree(root) == 0) ++root;
  BfsResult r = breadth_first_search(g, root);
  EXPECT_EQ(check_bfs(g, root, r), "");
  EXPECT_GT(r.queue.size(), g.vertices() / 2);  // the giant component
  // The check can fail: break one parent.
  BfsResult broken = r;
  broken.parent[static_cast<size_t>(r.queue.back())] = root == 0 ? 1 : 0;
  EXPECT_NE(check_bfs(g, root, broken), "");
}

TEST(Bfs, DirectionOptimizingSearchIsAValidBfsTreeAndGoesBottomUp) {
  CsrGraph g = kronecker_graph(14, 16, 5);
  int32_t root = 0;
  while (g.degree(root) == 0) ++root;
  BfsResult r = breadth_first_search(g, root, true);
  EXPECT_EQ(check_bfs(g, root, r), "");
  size_t bottom_up = 0;
  for (const BfsStep& s : r.steps) bottom_up += s.kind == BfsStep::Kind::BottomUp;
  EXPECT_GT(bottom_up, 0u);  // Kronecker frontiers grow large enough to switch
  // Both directions reach the same vertices at the same depths (parents may differ).
  BfsResult td = breadth_first_search(g, root, false);
  EXPECT_EQ(r.depth, td.depth);
}

TEST(Bfs, StreamsTouchTheRealArraysWithOneBarrierPerLevel) {
  auto w = make_workload("bfs:scale=10,degree=8,trials=1,direction=top-down", 4, 4, 11);
  const auto& bfs = dynamic_cast<const BfsWorkload&>(*w);
  const BfsResult& r = bfs.traversal(0);
  const GraphLayout layout(bfs.graph());
  uint64_t barriers = 0, parent_stores = 0, edge_loads = 0;
  bool measurement_started = false;
  for (unsigned t = 0; t < 4; ++t) {
    auto s = w->stream(t);
    StreamOp ops[100];
    uint64_t thread_barriers = 0;
    bool initialised = false;  // after the first-touch phase
    for (size_t k; (k = s->fill(ops, 100)) > 0;) {
      for (size_t i = 0; i < k; ++i) {
        const StreamOp& op = ops[i];
        if (op.kind == StreamOp::Kind::Barrier) {
          ++thread_barriers;
          measurement_started |= op.starts_measurement;
          initialised = true;
          continue;
        }
        EXPECT_GE(op.address, layout.offsets);
        EXPECT_LT(op.address, layout.end);
        if (op.kind == StreamOp::Kind::Load && op.address >= layout.neighbors && op.address < layout.parent)
          ++edge_loads;
        if (initialised && op.kind == StreamOp::Kind::Store && op.address >= layout.parent &&
            op.address < layout.queue && op.instructions != 32)
          ++parent_stores;  // claims (not the first touch, nor the parallel reset of the array)
      }
    }
    if (t == 0) barriers = thread_barriers;
    EXPECT_EQ(thread_barriers, barriers) << "every thread passes every barrier";
  }
  EXPECT_TRUE(measurement_started);
  const uint64_t levels = r.level_start.size() - 1;
  EXPECT_EQ(barriers, 1 + 1 + levels);           // first touch, parent reset, one per level
  EXPECT_EQ(parent_stores, r.queue.size() - 1);  // every vertex but the root is claimed once
  uint64_t edges_seen = 0;
  for (int32_t u : r.queue) edges_seen += static_cast<uint64_t>(bfs.graph().degree(u));
  EXPECT_EQ(edge_loads, edges_seen);  // top-down: every edge of every reached vertex is read
}

// Every thread's operations, reading the streams `interleaved` (a block of each in turn) or one
// thread's whole stream after another.
std::vector<std::vector<StreamOp>> read_all(const Workload& w, bool interleaved) {
  std::vector<std::unique_ptr<ThreadStream>> streams;
  for (unsigned t = 0; t < w.threads(); ++t) streams.push_back(w.stream(t));
  std::vector<std::vector<StreamOp>> ops(w.threads());
  StreamOp block[64];
  for (bool more = true; more;) {
    more = false;
    for (unsigned t = 0; t < w.threads(); ++t)
      for (size_t k; (k = streams[t]->fill(block, 64)) > 0;) {
        ops[t].insert(ops[t].end(), block, block + k);
        more = true;
        if (interleaved) break;
      }
  }
  return ops;
}

bool same_ops(const std::vector<StreamOp>& a, const std::vector<StreamOp>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const StreamOp& x, const StreamOp& y) {
    return x.kind == y.kind && x.address == y.address && x.instructions == y.instructions &&
           x.dependent == y.dependent && x.starts_measurement == y.starts_measurement;
  });
}

TEST(Bfs, SearchesAreComputedWhenTheStreamsReachThemAndGiveTheSameStreamsInAnyReadingOrder) {
  auto many = make_workload("bfs:scale=11,degree=8,trials=500", 4, 2, 3);
  const ParallelProgram& program = dynamic_cast<const ProgramWorkload&>(*many).program();
  auto s = many->stream(1);
  StreamOp ops[256];
  for (int i = 0; i < 40; ++i) ASSERT_EQ(s->fill(ops, 256), 256u);
  EXPECT_GE(program.rounds_made(), 1u);
  EXPECT_LE(program.rounds_made(), 10u) << "only the searches reached, of 500";

  auto a = make_workload("bfs:scale=11,degree=8,trials=3", 4, 2, 3),
       b = make_workload("bfs:scale=11,degree=8,trials=3", 4, 2, 3);
  const auto by_turns = read_all(*a, true), one_by_one = read_all(*b, false);
  EXPECT_EQ(dynamic_cast<const ProgramWorkload&>(*a).program().rounds_made(), 3u);
  for (unsigned t = 0; t < 4; ++t) {
    EXPECT_GT(by_turns[t].size(), 1000u);
    EXPECT_TRUE(same_ops(by_turns[t], one_by_one[t])) << "thread " << t;
  }
  EXPECT_FALSE(same_ops(by_turns[0], by_turns[1]));  // the comparison can fail
}

}  // namespace
}  // namespace starnuma
