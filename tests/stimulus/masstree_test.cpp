// The Masstree-like store (stimulus/micro/masstree.*): the trie of B+-trees against an independent
// sorted list of the keys, its tree invariants, the request streams against the descent each key
// takes, the load's first touches, determinism and bad parameters.
#include "stimulus/micro/masstree.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using micro::Masstree;
using micro::MasstreeWorkload;

// Walks a layer's tree in order, checking its B+-tree invariants (sorted slices bounded by the
// separators above, every border node at one depth, no empty node), and appends its keys in
// order, descending into the layers its border entries lead to.
struct TrieWalk {
  const Masstree& tree;
  std::vector<uint64_t> keys;
  size_t layers_seen = 0;

  void layer(uint32_t layer, unsigned depth_layer) {
    ++layers_seen;
    int border_depth = -1;
    node(tree.layer_root(layer), 0, 0, ~uint64_t{0}, false, border_depth, depth_layer);
  }
  void node(uint32_t id, int depth, uint64_t low, uint64_t high, bool bounded_above, int& border_depth,
            unsigned depth_layer) {
    const Masstree::Node& n = tree.node(id);
    ASSERT_GT(n.count, 0) << "an empty node";
    ASSERT_LE(n.count, Masstree::kWidth);
    for (unsigned i = 0; i < n.count; ++i) {
      ASSERT_GE(n.slice[i], low);
      if (bounded_above) {
        ASSERT_LT(n.slice[i], high);
      }
      if (i > 0) {
        ASSERT_LT(n.slice[i - 1], n.slice[i]);
      }
    }
    if (!n.border) {
      for (unsigned i = 0; i <= n.count; ++i)
        node(n.child[i], depth + 1, i == 0 ? low : n.slice[i - 1], i == n.count ? high : n.slice[i],
             i == n.count ? bounded_above : true, border_depth, depth_layer);
      return;
    }
    if (border_depth < 0) border_depth = depth;
    ASSERT_EQ(depth, border_depth) << "border nodes at different depths";
    for (unsigned i = 0; i < n.count; ++i) {
      const uint32_t entry = n.child[i];
      if (entry & Masstree::kLayer) {
        ASSERT_EQ(depth_layer, 0u) << "16-byte keys have two layers";
        layer(entry & ~Masstree::kLayer, 1);
      } else {
        ASSERT_EQ(tree.slice(entry, depth_layer), n.slice[i]);
        keys.push_back(entry);
      }
    }
  }
};

TEST(Masstree, TheTrieHoldsEveryKeyOnceInByteOrder) {
  for (uint64_t n : {20u, 3000u, 40000u}) {
    const Masstree tree(n, 5, 7);
    TrieWalk walk{tree, {}};
    walk.layer(0, 0);
    ASSERT_EQ(walk.keys.size(), n);
    // The reference: the keys' strings sorted as bytes.
    std::vector<std::pair<std::string, uint64_t>> sorted;
    for (uint64_t k = 0; k < n; ++k) sorted.emplace_back(tree.key(k), k);
    std::sort(sorted.begin(), sorted.end());
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(walk.keys[i], sorted[i].second) << "at " << i << " of " << n;
    EXPECT_EQ(sorted.front().first.substr(0, 4), "user");
    for (uint64_t i = 1; i < n; ++i) ASSERT_NE(sorted[i - 1].first, sorted[i].first) << "two keys are equal";
    // A layer for each first slice shared by two or more keys, and no other.
    std::map<std::string, int> per_prefix;
    for (const auto& [k, index] : sorted) ++per_prefix[k.substr(0, 8)];
    size_t shared = 0;
    for (const auto& [prefix, count] : per_prefix) shared += count > 1;
    EXPECT_EQ(walk.layers_seen, shared + 1) << n << " keys";
  }
}

TEST(Masstree, RandomInsertionFillsNodesAsBTreesDo) {
  const Masstree tree(200000, 8, 3);
  uint64_t entries = 0, borders = 0;
  for (size_t id = 0; id < tree.nodes(); ++id)
    if (tree.node(static_cast<uint32_t>(id)).border) {
      ++borders;
      entries += tree.node(static_cast<uint32_t>(id)).count;
    }
  // Splitting in half under random insertion leaves nodes about ln 2 = 69 % full (Yao, 1978).
  const double fill = static_cast<double>(entries) / (static_cast<double>(borders) * Masstree::kWidth);
  EXPECT_GT(fill, 0.60);
  EXPECT_LT(fill, 0.80);
}

// The descent of key `k` as the stream must emit it: per node its version word, the slices the
// binary search compares, then the pointer; layer 0's suffix when the key ends there.
std::vector<std::pair<StreamOp::Kind, uint64_t>> descent(const MasstreeWorkload& w, uint64_t k, bool put) {
  const Masstree& tree = w.tree();
  std::vector<std::pair<StreamOp::Kind, uint64_t>> ops;
  uint32_t id = tree.root();
  for (unsigned layer = 0;;) {
    const Masstree::Node& n = tree.node(id);
    const uint64_t at = w.node_address(id);
    ops.emplace_back(StreamOp::Kind::Load, at);
    // An independent search: the linear lower/upper bound.
    unsigned pos = 0;
    while (pos < n.count && (n.border ? n.slice[pos] < tree.slice(k, layer) : n.slice[pos] <= tree.slice(k, layer)))
      ++pos;
    Masstree::search(n, tree.slice(k, layer), [&](unsigned probe) {
      ops.emplace_back(StreamOp::Kind::Load, at + MasstreeWorkload::kSliceOffset + 8 * probe);
    });
    const uint64_t pointer = at + MasstreeWorkload::kPointerOffset + 8 * pos;
    if (!n.border) {
      ops.emplace_back(StreamOp::Kind::Load, pointer);
      id = n.child[pos];
      continue;
    }
    EXPECT_EQ(n.slice[pos], tree.slice(k, layer));
    if (n.child[pos] & Masstree::kLayer) {
      ops.emplace_back(StreamOp::Kind::Load, pointer);
      id = tree.layer_root(n.child[pos] & ~Masstree::kLayer);
      layer = 1;
      continue;
    }
    EXPECT_EQ(n.child[pos], k);
    if (layer == 0) ops.emplace_back(StreamOp::Kind::Load, at + MasstreeWorkload::kSuffixOffset);
    ops.emplace_back(StreamOp::Kind::Load, pointer);
    if (put) ops.emplace_back(StreamOp::Kind::Store, at);
    for (uint64_t line = 0; line < w.value_bytes(); line += 64)
      ops.emplace_back(put ? StreamOp::Kind::Store : StreamOp::Kind::Load, w.value_address(k) + line);
    return ops;
  }
}

TEST(Masstree, RequestsDescendToTheirKeysAndGetsSeeTheLastPut) {
  const unsigned threads = 3;
  auto w = make_workload("masstree:keys=30000,value_bytes=128,operations=3000", threads, 1, 5);
  const auto& m = dynamic_cast<const MasstreeWorkload&>(*w);
  const Phases p = phases(*w);
  ASSERT_EQ(p.size(), 2u);
  std::map<uint64_t, uint64_t> last;  // the reference store: key -> value last put
  uint64_t gets = 0, puts = 0;
  for (unsigned t = 0; t < threads; ++t) {
    micro::KvRequests requests = m.requests(t);
    size_t at = 0;
    for (int i = 0; i < 3000; ++i) {
      const micro::KvRequest r = requests.next();
      for (const auto& [kind, address] : descent(m, r.key, r.put)) {
        ASSERT_LT(at, p[1][t].size());
        ASSERT_EQ(p[1][t][at].kind, kind) << "request " << i << " of thread " << t;
        ASSERT_EQ(p[1][t][at++].address, address) << "request " << i << " of thread " << t;
      }
      if (r.put) {
        last[r.key] = r.value;
        ++puts;
      } else {
        ++gets;
      }
    }
    EXPECT_EQ(at, p[1][t].size());
  }
  EXPECT_NEAR(static_cast<double>(gets) / static_cast<double>(gets + puts), 0.5, 0.03);
  // Only version loads, whose address came from the pointer loaded before, are dependent, and
  // the first value line.
  std::set<uint64_t> headers;
  for (size_t id = 0; id < m.tree().nodes(); ++id) headers.insert(m.node_address(static_cast<uint32_t>(id)));
  for (const StreamOp& op : p[1][0]) {
    if (!op.dependent) continue;
    EXPECT_TRUE(headers.count(op.address) ||
                (op.address >= m.values_begin() && (op.address - m.values_begin()) % 128 == 0));
  }
}

TEST(Masstree, TheLoadTouchesEachPageOnceFromItsInsertingThread) {
  const unsigned threads = 4;
  auto w = make_workload("masstree:keys=20000,operations=10", threads, 1, 2);
  const auto& m = dynamic_cast<const MasstreeWorkload&>(*w);
  const Phases p = phases(*w);
  std::map<uint64_t, unsigned> owner;
  for (unsigned t = 0; t < threads; ++t)
    for (const StreamOp& op : p[0][t]) {
      ASSERT_EQ(op.kind, StreamOp::Kind::Store);
      ASSERT_TRUE(owner.emplace(op.address / 4096, t).second) << "page touched twice";
    }
  // Every node page belongs to the pool of the thread that allocated its nodes.
  for (size_t id = 0; id < m.tree().nodes(); ++id) {
    const Masstree::Node& n = m.tree().node(static_cast<uint32_t>(id));
    const uint64_t page = m.node_address(static_cast<uint32_t>(id)) / 4096;
    ASSERT_TRUE(owner.count(page));
    EXPECT_EQ(owner[page], n.thread);
  }
  // Each value page is first written by the thread whose key the load inserts first into it.
  std::map<uint64_t, std::pair<uint64_t, unsigned>> first;  // page -> (round, thread)
  for (unsigned t = 0; t < threads; ++t) {
    const Share s = static_share(20000, t, threads);
    for (uint64_t k = s.begin; k < s.end; ++k) {
      const uint64_t page = m.value_address(k) / 4096;
      auto [it, fresh] = first.emplace(page, std::make_pair(k - s.begin, t));
      if (!fresh && std::make_pair(k - s.begin, t) < it->second) {
        it->second = std::make_pair(k - s.begin, t);
      }
    }
  }
  for (const auto& [page, by] : first) EXPECT_EQ(owner.at(page), by.second) << "value page " << page;
  EXPECT_EQ(owner.size() * 4096, m.footprint());
}

TEST(Masstree, SeedsDecideTheStreamsAndBadParametersAreRefused) {
  auto a = make_workload("masstree:keys=5000,operations=200", 2, 1, 3);
  auto b = make_workload("masstree:keys=5000,operations=200", 2, 1, 3);
  auto c = make_workload("masstree:keys=5000,operations=200", 2, 1, 4);
  std::vector<uint64_t> x, y, z;
  for (const StreamOp& op : all_ops(*a, 1)) x.push_back(op.address);
  for (const StreamOp& op : all_ops(*b, 1, 13)) y.push_back(op.address);
  for (const StreamOp& op : all_ops(*c, 1)) z.push_back(op.address);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  testing::expect_config_errors({{"masstree:value_bytes=12", "masstree.value_bytes: 12 is not a multiple of 8"},
                                 {"masstree:keys=4", "masstree.keys: value 4 is out of range"},
                                 {"masstree:keys=268435456", "masstree.keys: value 268435456 is out of range"},
                                 {"masstree:read_fraction=-1", "masstree.read_fraction"}},
                                [](const std::string& text) { make_workload(text, 1, 1, 1); });
}

}  // namespace
}  // namespace starnuma
