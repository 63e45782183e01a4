#include "paging/page_map.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

constexpr uint64_t kPage = 4096;

// Two sockets of 4 pages each and a pool of 2 pages; socket s falls back to the other socket.
PageMap small_map() {
  return PageMap(
      kPage, {{"s0", 0, 4 * kPage, true}, {"s1", 4 * kPage, 4 * kPage, true}, {"pool", 8 * kPage, 2 * kPage, false}},
      {{0, 1, 2}, {1, 0, 2}});
}

TEST(PageMap, FirstTouchPlacesOnTheTouchingSocketAndKeepsTheOffset) {
  PageMap m = small_map();
  EXPECT_EQ(m.translate(10 * kPage + 123, 1), 4 * kPage + 123);
  EXPECT_EQ(m.translate(10 * kPage + 7, 0), 4 * kPage + 7);  // already placed: socket 0 sees the same frame
  EXPECT_EQ(m.node_of(10), 1u);
  EXPECT_EQ(m.translate(11 * kPage, 0), 0u);
  EXPECT_EQ(m.pages_on(0), 1u);
  EXPECT_EQ(m.pages_on(1), 1u);
}

TEST(PageMap, ATimedStartsFirstTouchesPlaceTheirPagesWhereThatRunDid) {
  PageMap m = small_map();
  m.set_first_touch_nodes({{10, 1}, {11, 2}, {12, 0}, {13, 1}, {14, 1}, {15, 1}, {16, 1}});
  EXPECT_EQ(m.translate(10 * kPage, 0), 4 * kPage);  // listed on s1: there, though s0 touches it
  m.translate(11 * kPage, 0);                        // listed on the pool, which first touch may not use
  EXPECT_EQ(m.node_of(11), 0u);
  m.translate(12 * kPage, 1);
  EXPECT_EQ(m.node_of(12), 0u);
  m.translate(20 * kPage, 0);  // not listed: first touch
  EXPECT_EQ(m.node_of(20), 0u);
  for (uint64_t p = 13; p < 17; ++p) m.translate(p * kPage, 0);  // s1 fills after three: the fourth falls back
  EXPECT_EQ(m.node_of(13), 1u);
  EXPECT_EQ(m.node_of(15), 1u);
  EXPECT_EQ(m.node_of(16), 0u);
  const PageMap::Placement p = m.placement();
  ASSERT_EQ(p.size(), 8u);
  EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
  EXPECT_EQ(p.front(), (std::pair<uint64_t, uint32_t>{10, 1}));
  EXPECT_EQ(p.back(), (std::pair<uint64_t, uint32_t>{20, 0}));
}

TEST(PageMap, AFullNodeFallsBackInOrderButNeverToThePool) {
  PageMap m = small_map();
  for (uint64_t p = 0; p < 4; ++p) m.translate(p * kPage, 0);
  EXPECT_EQ(m.node_of(0), 0u);
  m.translate(100 * kPage, 0);  // socket 0 is full: socket 1
  EXPECT_EQ(m.node_of(100), 1u);
  for (uint64_t p = 101; p < 104; ++p) m.translate(p * kPage, 0);
  auto r = testing::capture_report([&] { m.translate(200 * kPage, 0); });  // both full; the pool is not first-touch
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("out of memory"), std::string::npos);
}

// Three sockets of 4 pages and a pool; socket s falls back to the next sockets in order.
// The registered allocation policy `name`, as a run builds it.
std::unique_ptr<AllocationPolicy> allocation(const std::string& name, size_t sockets, double cpuless_share = 0) {
  const AllocationPolicyType* type = find_allocation_policy(name);
  EXPECT_NE(type, nullptr) << name;
  return type->create(AllocationSetup{sockets, cpuless_share});
}

PageMap three_sockets(const std::string& policy) {
  PageMap m(kPage,
            {{"s0", 0, 4 * kPage, true},
             {"s1", 4 * kPage, 4 * kPage, true},
             {"s2", 8 * kPage, 4 * kPage, true},
             {"pool", 12 * kPage, 4 * kPage, false}},
            {{0, 1, 2, 3}, {1, 2, 0, 3}, {2, 0, 1, 3}});
  m.set_allocation(allocation(policy, 3));
  return m;
}

// The nodes socket `s` gets for `n` new pages, from virtual page `first` on.
std::vector<size_t> touch_new(PageMap& m, size_t s, uint64_t first, uint64_t n) {
  std::vector<size_t> nodes;
  for (uint64_t p = first; p < first + n; ++p) {
    m.translate(p * kPage, s);
    nodes.push_back(m.node_of(p));
  }
  return nodes;
}

TEST(Allocation, FirstTouchFillsTheTouchersNodeThenFallsBackInOrder) {
  PageMap m = three_sockets("first-touch");
  EXPECT_EQ(touch_new(m, 0, 0, 7), (std::vector<size_t>{0, 0, 0, 0, 1, 1, 1}));
}

TEST(Allocation, InterleaveGoesRoundRobinSkippingFullNodesAndNeverThePool) {
  PageMap m = three_sockets("interleave");
  touch_new(m, 2, 100, 4);                                                          // socket 2's own cursor: 0, 1, 2, 0
  EXPECT_EQ(touch_new(m, 0, 0, 8), (std::vector<size_t>{0, 1, 2, 0, 1, 2, 1, 2}));  // node 0 is full after 2 + 2
  EXPECT_EQ(m.pages_on(3), 0u);
  auto r = testing::capture_report([&] { m.translate(50 * kPage, 1); });
  EXPECT_EQ(r.type, "starnuma/input") << "every socket node is full: " << r.message;
}

TEST(Allocation, ATimedStartsListedPageTakesNoTurnOfThePolicy) {
  PageMap m = three_sockets("interleave");
  m.set_first_touch_nodes({{1, 2}});
  // Page 1 goes where the timed start put it; interleave's turns go on as if it had not been asked.
  EXPECT_EQ(touch_new(m, 0, 0, 4), (std::vector<size_t>{0, 2, 1, 2}));
}

TEST(Allocation, HybridKeepsToTheTouchersNodeThenInterleavesOverTheOthers) {
  PageMap m = three_sockets("hybrid");
  EXPECT_EQ(touch_new(m, 0, 0, 8), (std::vector<size_t>{0, 0, 0, 0, 1, 2, 1, 2}));
}

TEST(Allocation, UsageAwareSpillsToTheLeastUsedNodeNearestFirstOnTies) {
  PageMap m = three_sockets("usage-aware");
  touch_new(m, 1, 100, 3);  // s1 holds 3 of 4
  touch_new(m, 2, 200, 1);  // s2 holds 1 of 4
  // s0 fills itself, then s2 (1/4) twice, then s1 and s2 tie at 3/4: s1 is nearer to s0.
  EXPECT_EQ(touch_new(m, 0, 0, 8), (std::vector<size_t>{0, 0, 0, 0, 2, 2, 1, 2}));
}

TEST(Allocation, PageTablesStayNearTheToucherWhateverThePolicy) {
  PageMap m = three_sockets("interleave");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.node_at(m.allocate_frame(1) / kPage), 1u);
  EXPECT_TRUE(m.check().empty()) << m.check();
}

// A policy is one class and one registration line: this one, registered from the suite, puts each
// new page on the farthest node of the toucher's fallback list that may take it.
class FarthestFirst : public AllocationPolicy {
 public:
  explicit FarthestFirst(const AllocationSetup&) {}
  size_t node(const PageMap& pages, size_t socket) override {
    const auto& f = pages.fallback(socket);
    for (auto n = f.rbegin(); n != f.rend(); ++n)
      if (pages.may_take(socket, *n)) return *n;
    return static_cast<size_t>(-1);
  }
};
STARNUMA_REGISTER_ALLOCATION_POLICY(FarthestFirst, "test-farthest-first", false, "test: the farthest node with room");

TEST(Allocation, APolicyRegisteredElsewhereRunsByNameAndIsListed) {
  PageMap m = three_sockets("test-farthest-first");
  EXPECT_EQ(touch_new(m, 0, 0, 6), (std::vector<size_t>{2, 2, 2, 2, 1, 1}));  // the pool is not first-touch
  const std::vector<std::string> names = allocation_names();
  EXPECT_EQ(names.front(), "first-touch");
  EXPECT_NE(std::find(names.begin(), names.end(), "test-farthest-first"), names.end());
  EXPECT_EQ(find_allocation_policy("no-such-policy"), nullptr);
}

TEST(PageMap, OraclePutsWidelySharedPagesInThePoolHottestFirst) {
  PageMap m = PageMap(kPage,
                      {{"s0", 0, 8 * kPage, true},
                       {"s1", 8 * kPage, 8 * kPage, true},
                       {"s2", 16 * kPage, 8 * kPage, true},
                       {"pool", 24 * kPage, 1 * kPage, false}},
                      {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}});
  AccessProfile prof(3);
  auto touch = [&](uint64_t page, size_t socket, int times) {
    for (int i = 0; i < times; ++i) prof.count(page, socket);
  };
  touch(1, 0, 5), touch(1, 1, 5), touch(1, 2, 5);  // 3 sharers, 15 accesses
  touch(2, 0, 9), touch(2, 1, 9), touch(2, 2, 9);  // 3 sharers, 27 accesses: hotter
  touch(3, 1, 2), touch(3, 2, 7);                  // 2 sharers: to its most frequent socket, s2
  touch(4, 0, 3), touch(4, 1, 3);                  // a tie: the lower socket
  place_oracle(m, prof, 3, 2);                     // more than 2 sharers -> pool (capacity 1 page)
  EXPECT_EQ(m.node_of(2), 3u);
  EXPECT_EQ(m.node_of(1), 0u);  // the pool is full: most frequent socket (a tie: s0)
  EXPECT_EQ(m.node_of(3), 2u);
  EXPECT_EQ(m.node_of(4), 0u);
  EXPECT_EQ(prof.sharers(3), 2u);
}

// At a region granularity the pages of a region share its counts, so they move together: the
// region of pages 0-3 is shared by all three sockets through different pages and goes to the pool
// whole, though no single page of it has more than one sharer.
TEST(Oracle, PagesOfARegionMoveTogether) {
  const uint64_t kPage = 4096;
  PageMap m(kPage,
            {{"s0", 0, 8 * kPage, true},
             {"s1", 8 * kPage, 8 * kPage, true},
             {"s2", 16 * kPage, 8 * kPage, true},
             {"pool", 24 * kPage, 4 * kPage, false}},
            {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}});
  AccessProfile prof(3, 4);  // regions of four pages
  prof.count(0, 0), prof.count(1, 1), prof.count(2, 2), prof.count(3, 2);
  prof.count(4, 1), prof.count(5, 1), prof.count(6, 0);  // region 1: two sharers, s1 the most frequent
  EXPECT_EQ(prof.sharers(1), 3u);
  EXPECT_EQ(prof.accesses(3, 2), 2u);
  place_oracle(m, prof, 3, 2);
  for (uint64_t p : {0, 1, 2, 3}) EXPECT_EQ(m.node_of(p), 3u) << p;
  for (uint64_t p : {4, 5, 6}) EXPECT_EQ(m.node_of(p), 1u) << p;
}

}  // namespace
TEST(PageMap, AMoveRemapsThePageAndFreesTheOldFrameOnlyWhenReleased) {
  PageMap m = small_map();
  m.translate(10 * kPage, 0);
  m.translate(11 * kPage, 0);
  const PageMap::Moved mv = m.move(10, 2);
  EXPECT_EQ(mv.from, 0u);
  EXPECT_EQ(mv.to, 8u);
  EXPECT_EQ(m.node_of(10), 2u);
  EXPECT_EQ(m.peek(10 * kPage + 5), 8 * kPage + 5);
  EXPECT_EQ(m.owner(8), 10u);
  EXPECT_EQ(m.owner(0), PageMap::kNoPage);  // no longer the page's, not free yet either
  EXPECT_EQ(m.pages_on(0), 2u);
  EXPECT_EQ(m.moves(10), 1u);
  EXPECT_EQ(m.check(), "");
  m.release(mv.from);
  EXPECT_EQ(m.pages_on(0), 1u);
  EXPECT_EQ(m.translate(12 * kPage, 0), 0u);  // the freed frame is handed out again
  EXPECT_EQ(m.owner(0), 12u);
  EXPECT_EQ(m.check(), "");
}

TEST(PageMap, InvariantsHoldThroughManyRandomMoves) {
  PageMap m(
      kPage,
      {{"s0", 0, 64 * kPage, true}, {"s1", 64 * kPage, 64 * kPage, true}, {"pool", 128 * kPage, 32 * kPage, false}},
      {{0, 1, 2}, {1, 0, 2}});
  for (uint64_t p = 0; p < 80; ++p) m.translate(p * kPage, p % 2);
  uint64_t state = 12345;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  for (int k = 0; k < 2000; ++k) {
    const uint64_t page = (next() >> 33) % 80;
    const size_t to = (next() >> 33) % 3;
    if (m.node_of(page) == to || m.free_pages(to) == 0) continue;
    const PageMap::Moved mv = m.move(page, to);
    m.release(mv.from);
    ASSERT_EQ(m.check(), "") << "after move " << k;
  }
  uint64_t total = 0;
  for (size_t n = 0; n < 3; ++n) total += m.pages_on(n);
  EXPECT_EQ(total, 80u);  // nothing lost
  EXPECT_LE(m.pages_on(2), 32u);
}

TEST(PageMap, AReleaseOfAFrameStillMappedIsAnInternalError) {
  PageMap m = small_map();
  m.translate(10 * kPage, 0);
  auto r = testing::capture_report([&] { m.release(0); });
  EXPECT_TRUE(r.raised);
}

// Two sockets and two CPU-less nodes (first touch may use them); a quarter of each socket's new
// pages go to the CPU-less nodes in turn, evenly spread; the rest by first touch.
TEST(Allocation, WeightedSendsItsShareToTheCpuLessNodesInTurn) {
  PageMap m(kPage,
            {{"s0", 0, 16 * kPage, true},
             {"s1", 16 * kPage, 16 * kPage, true},
             {"c0", 32 * kPage, 16 * kPage, true},
             {"c1", 48 * kPage, 2 * kPage, true}},
            {{0, 1, 2, 3}, {1, 0, 2, 3}});
  m.set_allocation(allocation("weighted", 2, 0.25));
  EXPECT_EQ(touch_new(m, 0, 0, 8), (std::vector<size_t>{0, 0, 0, 2, 0, 0, 0, 3}));
  // c1 (two pages) is full after its second: the share then goes to c0 alone; s0 (16 pages) fills
  // and first touch falls back to s1.
  EXPECT_EQ(touch_new(m, 0, 8, 16), (std::vector<size_t>{0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 1, 1, 2}));
  EXPECT_EQ(m.pages_on(3), 2u);
  // Socket 1 keeps its own count: its fourth page is its first to a CPU-less node.
  EXPECT_EQ(touch_new(m, 1, 100, 4), (std::vector<size_t>{1, 1, 1, 2}));
  m.set_allocation(allocation("weighted", 2, 1.0));
  EXPECT_EQ(touch_new(m, 1, 200, 3), (std::vector<size_t>{2, 2, 2}));
  EXPECT_TRUE(m.check().empty()) << m.check();
}

// Servers lending a slice: s1 lends 2 of its 8 pages. s0's first touch overflows into that slice
// only, then into the pool-like CPU-less node; s1 itself may still use all of its memory.
TEST(Allocation, OtherServersTakeOnlyTheLentSlice) {
  PageMap m(kPage,
            {{"s0", 0, 4 * kPage, true},
             {"s1", 4 * kPage, 8 * kPage, true, 2 * kPage},
             {"pool", 12 * kPage, 8 * kPage, true}},
            {{0, 1, 2}, {1, 2}});
  EXPECT_EQ(touch_new(m, 0, 0, 8), (std::vector<size_t>{0, 0, 0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(touch_new(m, 1, 100, 7), (std::vector<size_t>{1, 1, 1, 1, 1, 1, 2}));  // 2 + 6 = its 8
  EXPECT_TRUE(m.check().empty()) << m.check();
}

}  // namespace starnuma
