// poa (stimulus/genomics/): the graph aligner against an independent Gotoh implementation (on one
// sequence and on every path of a multi-path graph), the traceback, the graph's invariants, the
// consensus against the template, and the streams: arenas, DP traffic, determinism, errors.
#include "stimulus/genomics/poa.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using genomics::PoaAligner;
using genomics::PoaAlignment;
using genomics::PoaBatch;
using genomics::PoaGraph;
using genomics::PoaScores;

// Gotoh's global alignment with affine gaps (a gap of k costs open + (k - 1) * extend), written
// independently of the graph aligner: three full matrices over the two strings.
int32_t gotoh(const std::string& a, const std::string& b, PoaScores s = {}) {
  const int32_t inf = -1'000'000'000;
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int32_t>> M(n + 1, std::vector<int32_t>(m + 1, inf)), X = M, Y = M;
  M[0][0] = 0;
  for (size_t i = 1; i <= n; ++i) X[i][0] = s.gap_open + static_cast<int32_t>(i - 1) * s.gap_extend;
  for (size_t j = 1; j <= m; ++j) Y[0][j] = s.gap_open + static_cast<int32_t>(j - 1) * s.gap_extend;
  auto best = [&](size_t i, size_t j) { return std::max({M[i][j], X[i][j], Y[i][j]}); };
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      M[i][j] = best(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? s.match : s.mismatch);
      X[i][j] = std::max(best(i - 1, j) + s.gap_open, X[i - 1][j] + s.gap_extend);
      Y[i][j] = std::max(best(i, j - 1) + s.gap_open, Y[i][j - 1] + s.gap_extend);
    }
  return best(n, m);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string random_bases(std::mt19937_64& rng, size_t n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() & 3];
  return s;
}

// The score of an alignment, scored pair by pair (gaps in runs): the traceback must reproduce it.
int32_t score_of(const PoaAlignment& al, const PoaGraph& g, const std::string& read, PoaScores s = {}) {
  int32_t total = 0;
  int run = 0;  // 1: a gap in the read (node, -1); 2: a gap in the graph (-1, pos)
  for (const auto& [node, pos] : al) {
    const int kind = node < 0 ? 2 : pos < 0 ? 1 : 0;
    if (kind == 0)
      total += g.node(static_cast<uint32_t>(node)).base == read[static_cast<size_t>(pos)] ? s.match : s.mismatch;
    else total += kind == run ? s.gap_extend : s.gap_open;
    run = kind;
  }
  return total;
}

// The graph of one sequence.
void chain(PoaGraph& g, const std::string& seq) {
  g.clear();
  g.add({}, seq);
  ASSERT_TRUE(g.sort());
}

TEST(PoaAligner, OnOneSequenceItIsGotoh) {
  std::mt19937_64 rng(7);
  PoaGraph g;
  PoaAligner aligner;
  PoaAlignment al;
  for (int trial = 0; trial < 60; ++trial) {
    const std::string a = random_bases(rng, 1 + rng() % 40);
    std::string b = random_bases(rng, 1 + rng() % 40);
    if (trial % 3 == 0) {  // similar sequences too: long matches, few gaps
      b = a;
      b.erase(rng() % b.size(), 1 + rng() % 4);
      b.insert(rng() % (b.size() + 1), random_bases(rng, 1 + rng() % 5));
    }
    chain(g, a);
    const int32_t score = aligner.align(b, g, &al);
    ASSERT_EQ(score, gotoh(a, b)) << a << " / " << b;
    EXPECT_EQ(score_of(al, g, b), score) << a << " / " << b;
  }
  // Other scores: a long gap, and linear gaps.
  chain(g, "ACGTACGTAAAAAAAAAAAAACGTACGT");
  EXPECT_EQ(aligner.align("ACGTACGTACGTACGT", g, &al), gotoh("ACGTACGTAAAAAAAAAAAAACGTACGT", "ACGTACGTACGTACGT"));
  PoaScores linear{1, -1, -1, -1};
  PoaAligner lin(linear);
  EXPECT_EQ(lin.align("GATTACA", g, &al), gotoh("ACGTACGTAAAAAAAAAAAAACGTACGT", "GATTACA", linear));
}

// Every source-to-sink path's sequence.
std::vector<std::string> paths(const PoaGraph& g) {
  std::vector<std::string> out;
  std::string cur;
  std::function<void(uint32_t)> walk = [&](uint32_t n) {
    cur.push_back(g.node(n).base);
    if (g.node(n).out.empty()) out.push_back(cur);
    for (uint32_t e : g.node(n).out) walk(g.edge(e).head);
    cur.pop_back();
  };
  for (uint32_t n = 0; n < g.nodes(); ++n)
    if (g.node(n).in.empty()) walk(n);
  return out;
}

TEST(PoaAligner, OnAGraphItIsTheBestPathsGotoh) {
  std::mt19937_64 rng(11);
  PoaAligner aligner;
  PoaAlignment al;
  for (int trial = 0; trial < 25; ++trial) {
    // A few noisy copies of a short template make a graph of many paths.
    PoaBatch batch;
    genomics::make_poa_batch(rng(), 12 + rng() % 10, 4, 0.25, batch);
    PoaGraph g;
    for (size_t r = 0; r < batch.reads.size(); ++r) {
      al.clear();
      if (r) aligner.align(batch.reads[r], g, &al);
      g.add(al, batch.reads[r]);
      ASSERT_TRUE(g.sort());
    }
    const std::vector<std::string> all = paths(g);
    ASSERT_GT(all.size(), 1u) << "trial " << trial;
    for (int q = 0; q < 4; ++q) {
      const std::string read = q ? random_bases(rng, 5 + rng() % 20) : batch.templ;
      int32_t best = INT32_MIN;
      for (const std::string& p : all) best = std::max(best, gotoh(p, read));
      ASSERT_EQ(aligner.align(read, g, &al), best) << "trial " << trial << " read " << read;
      EXPECT_EQ(score_of(al, g, read), best);
    }
  }
}

TEST(PoaGraph, StaysAcyclicSortedAndEveryReadIsAPath) {
  PoaBatch batch;
  genomics::make_poa_batch(3, 300, 12, 0.15, batch);
  PoaGraph g;
  PoaAligner aligner;
  PoaAlignment al;
  for (size_t r = 0; r < batch.reads.size(); ++r) {
    al.clear();
    if (r) aligner.align(batch.reads[r], g, &al);
    const std::vector<uint32_t> path = g.add(al, batch.reads[r]);
    ASSERT_TRUE(g.sort()) << "a cycle after read " << r;
    ASSERT_EQ(path.size(), batch.reads[r].size());
    for (size_t k = 0; k < path.size(); ++k) {
      ASSERT_EQ(g.node(path[k]).base, batch.reads[r][k]);
      if (k) {
        ASSERT_GE(g.find_edge(path[k - 1], path[k]), 0) << "read " << r << " position " << k;
      }
    }
    for (uint32_t e = 0; e < g.edges(); ++e)
      ASSERT_LT(g.node_to_rank()[g.edge(e).tail], g.node_to_rank()[g.edge(e).head]);
    // Aligned sets are symmetric and hold other bases only.
    for (uint32_t n = 0; n < g.nodes(); ++n)
      for (uint32_t a : g.node(n).aligned) {
        const auto& back = g.node(a).aligned;
        ASSERT_NE(std::find(back.begin(), back.end(), n), back.end());
        ASSERT_NE(g.node(a).base, g.node(n).base);
      }
  }
  // Every read's path is a source-to-sink path only if its ends are; the graph grew by the errors.
  EXPECT_GT(g.nodes(), 300u);
  EXPECT_LT(g.nodes(), 300u * 3);
}

TEST(PoaGraph, TheConsensusRecoversTheTemplate) {
  PoaGraph g;
  PoaAligner aligner;
  PoaBatch batch;
  size_t total = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    genomics::make_poa_batch(seed, 200, 20, 0.02, batch);
    const std::string consensus = genomics::poa_consensus(batch, g, aligner);
    EXPECT_LE(edit_distance(consensus, batch.templ), 1u) << "seed " << seed;
    // The reads themselves are further away.
    total += edit_distance(batch.reads[0], batch.templ);
  }
  EXPECT_GT(total, 5u);
  // At the default 10 % noise, 20 reads still give the template within a few edits.
  genomics::make_poa_batch(9, 500, 20, 0.10, batch);
  const std::string consensus = genomics::poa_consensus(batch, g, aligner);
  EXPECT_LE(edit_distance(consensus, batch.templ), 5u);
  EXPECT_GT(edit_distance(batch.reads[1], batch.templ), 25u);
}

TEST(PoaBatch, ReadsFollowTheErrorRate) {
  PoaBatch batch;
  genomics::make_poa_batch(5, 1000, 10, 0.0, batch);
  for (const std::string& r : batch.reads) EXPECT_EQ(r, batch.templ);
  genomics::make_poa_batch(5, 1000, 10, 0.1, batch);
  size_t edits = 0;
  for (const std::string& r : batch.reads) {
    edits += edit_distance(r, batch.templ);
    EXPECT_LE(r.size(), genomics::poa_max_read(1000));
  }
  EXPECT_NEAR(static_cast<double>(edits) / 10000, 0.1, 0.02);
  PoaBatch again;
  genomics::make_poa_batch(5, 1000, 10, 0.1, again);
  EXPECT_EQ(again.reads, batch.reads);
  genomics::make_poa_batch(6, 1000, 10, 0.1, again);
  EXPECT_NE(again.templ, batch.templ);
}

// ---- streams ---------------------------------------------------------------------------------

void check_arenas_and_dp(unsigned lanes) {
  const unsigned threads = 3;
  auto w = make_workload("poa:window=60,reads=5,batches=5,lanes=" + std::to_string(lanes), threads, 1, 1);
  const auto& p = dynamic_cast<const genomics::PoaWorkload&>(*w);
  for (unsigned t = 0; t < threads; ++t) {
    const genomics::PoaArena arena(60, 5, t);
    const std::vector<StreamOp> ops = all_ops(*w, t, 7);
    // Initialisation (stores only), then one barrier starting measurement, then no barrier.
    size_t at = 0;
    while (ops[at].kind == StreamOp::Kind::Store) ++at;
    ASSERT_EQ(ops[at].kind, StreamOp::Kind::Barrier);
    EXPECT_TRUE(ops[at].starts_measurement);
    EXPECT_GT(at, 0u);
    uint64_t h_loads = 0, e_stores = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      if (k == at) continue;
      ASSERT_NE(ops[k].kind, StreamOp::Kind::Barrier);
      ASSERT_GE(ops[k].address, arena.begin);
      ASSERT_LT(ops[k].address, arena.end);
      if (k > at) {
        h_loads += ops[k].kind == StreamOp::Kind::Load && ops[k].address >= arena.h && ops[k].address < arena.f;
        e_stores += ops[k].kind == StreamOp::Kind::Store && ops[k].address >= arena.e;
      }
    }
    // The DP's traffic, from an independent replay of the thread's batches: per read aligned,
    // per node, a load of H per predecessor and a store of E per read base (plus the traceback's
    // loads and row 0's stores).
    uint64_t expect_h = 0, expect_e = 0, slack = 0;
    const Share share = p.share(t);
    for (uint64_t b = share.begin; b < share.end; ++b) {
      PoaBatch batch;
      genomics::make_poa_batch(p.batch_seed(b), 60, 5, p.error_rate(), batch);
      PoaGraph g;
      PoaAligner aligner;
      PoaAlignment al;
      for (size_t r = 0; r < batch.reads.size(); ++r) {
        al.clear();
        if (r) {
          const uint64_t len = batch.reads[r].size();
          const uint64_t vectors = (len + lanes - 1) / lanes;
          for (uint32_t n = 0; n < g.nodes(); ++n) {
            expect_h += std::max<size_t>(1, g.node(n).in.size()) * vectors;
            expect_e += vectors;
          }
          slack += g.nodes() + len + 1;  // the traceback's H loads; column 0's and row 0's E stores
          aligner.align(batch.reads[r], g, &al);
        }
        g.add(al, batch.reads[r]);
        ASSERT_TRUE(g.sort());
      }
    }
    EXPECT_GE(h_loads, expect_h) << "thread " << t;
    EXPECT_LE(h_loads, expect_h + slack) << "thread " << t;
    EXPECT_GE(e_stores, expect_e);
    EXPECT_LE(e_stores, expect_e + slack);
  }
  // The arenas are disjoint and page-aligned.
  const genomics::PoaArena a0(60, 5, 0), a1(60, 5, 1);
  EXPECT_LE(a0.end, a1.begin);
  EXPECT_EQ(a1.begin % 4096, 0u);
  EXPECT_EQ(a0.begin, uint64_t{1} << 45);
  EXPECT_GE(w->footprint(), 3 * 5 * 4096u);
}

TEST(PoaStream, EachThreadStaysInItsOwnArenaAndTracesItsDp) { check_arenas_and_dp(1); }
TEST(PoaStream, VectorLanesShareOneOperation) { check_arenas_and_dp(8); }

TEST(PoaStream, SameSeedSameStreamsWhateverTheBatchSize) {
  auto a = make_workload("poa:window=80,reads=6,batches=4", 2, 1, 5);
  auto b = make_workload("poa:window=80,reads=6,batches=4", 2, 1, 5);
  auto c = make_workload("poa:window=80,reads=6,batches=4", 2, 1, 6);
  for (unsigned t = 0; t < 2; ++t) {
    const auto x = all_ops(*a, t, 1000), y = all_ops(*b, t, 3);
    ASSERT_EQ(x.size(), y.size());
    for (size_t k = 0; k < x.size(); ++k) {
      ASSERT_EQ(x[k].address, y[k].address) << k;
      ASSERT_EQ(x[k].kind, y[k].kind) << k;
      ASSERT_EQ(x[k].instructions, y[k].instructions) << k;
    }
    const auto z = all_ops(*c, t);
    EXPECT_NE(x.size(), z.size()) << "another seed, other batches";
  }
  // A batch's data does not depend on the thread count.
  auto one = make_workload("poa:window=80,reads=6,batches=4", 1, 1, 5);
  auto four = make_workload("poa:window=80,reads=6,batches=4", 4, 1, 5);
  const auto& p1 = dynamic_cast<const genomics::PoaWorkload&>(*one);
  const auto& p4 = dynamic_cast<const genomics::PoaWorkload&>(*four);
  EXPECT_EQ(p1.batch_seed(3), p4.batch_seed(3));
  EXPECT_EQ(p4.share(3).begin, 3u);
}

TEST(PoaStream, DefaultStreamsAreCheapToStart) {
  auto w = make_workload("poa", 64, 16, 1);
  auto s = w->stream(63);
  std::vector<StreamOp> ops(4096);
  uint64_t total = 0, loads = 0;
  for (int i = 0; i < 200; ++i) {
    const size_t k = s->fill(ops.data(), ops.size());
    ASSERT_EQ(k, ops.size());
    total += k;
    for (size_t j = 0; j < k; ++j) loads += ops[j].kind == StreamOp::Kind::Load;
  }
  EXPECT_GT(loads, total / 4);
}

TEST(PoaStream, BadParametersAreClearErrors) {
  testing::expect_config_errors(
      {
          {"poa:window=8", "poa.window: value 8 is out of range [16, 4096]"},
          {"poa:reads=1", "poa.reads: value 1 is out of range [2, 256]"},
          {"poa:error_rate=0.5", "poa.error_rate: value 0.5 is out of range [0, 0.4]"},
          {"poa:batches=0", "poa.batches: value 0 is out of range"},
          {"poa:window_size=3", "unknown key 'window_size'"},
      },
      [](const std::string& text) { make_workload(text, 64, 16, 1); });
  // Worst-case arenas of 206 GB: 512 threads' do not fit in the 96 TiB above 2^45.
  auto r = testing::capture_report([&] { make_workload("poa:window=4096,reads=256", 512, 16, 1); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("512 threads do not fit below 2^47 (reduce window or reads)"), std::string::npos)
      << r.message;
  make_workload("poa:window=4096,reads=256", 64, 16, 1);
}

}  // namespace
}  // namespace starnuma
