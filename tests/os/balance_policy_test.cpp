// The multi-chip placement paper's dynamic migration (DM) on hand-built phases: which node is
// relieved, which pages leave it, where they go and when the pass stops.
#include <gtest/gtest.h>

#include "os/balance_policy.hpp"

using namespace starnuma;

namespace {

// Four sockets, node n is socket n's memory; node 4 is a CPU-less node unless `eligible4` is false.
BalanceInput four_nodes(bool eligible4 = true) {
  BalanceInput in;
  in.free_pages = {100, 100, 100, 100, 100};
  in.eligible = {true, true, true, true, eligible4};
  in.node_socket = {0, 1, 2, 3, -1};
  in.limit = 1000;
  return in;
}

PageHeat page(uint64_t vpage, size_t node, uint64_t accesses, size_t top_socket) {
  return PageHeat{vpage, node, accesses, top_socket};
}

}  // namespace

// Node 1 holds its own socket's pages and socket 0's overflow: the overflow, hottest first, moves
// to the least busy node until half the gap has moved; node 1's local pages stay.
TEST(Balance, RemotePagesOfTheBusiestNodeMoveHottestFirstUntilHalfTheGap) {
  BalanceInput in = four_nodes();
  in.pages = {page(10, 1, 50, 1), page(11, 1, 30, 0), page(12, 1, 40, 0), page(13, 1, 10, 0),
              page(20, 2, 20, 2), page(30, 3, 25, 3), page(40, 4, 5, 0)};
  const BalanceDecision d = decide_balance(in);
  EXPECT_EQ(d.traffic, (std::vector<uint64_t>{0, 130, 20, 25, 5}));
  EXPECT_EQ(d.busiest, 1u);
  EXPECT_EQ(d.least, 0u);  // no traffic at all
  // Half of 130 - 0 is 65: pages 12 (40) and 11 (30) make 70.
  ASSERT_EQ(d.moves.size(), 2u);
  EXPECT_EQ(d.moves[0].vpage, 12u);
  EXPECT_EQ(d.moves[1].vpage, 11u);
  EXPECT_EQ(d.moves[0].to, 0u);
  EXPECT_EQ(d.traffic_moved, 70u);
}

// A node busy with its own socket's pages alone cannot be relieved by moving pages: the next
// busiest with pages other sockets use is.
TEST(Balance, ANodeBusyOnlyWithItsOwnSocketsPagesIsPassedOver) {
  BalanceInput in = four_nodes();
  in.pages = {page(1, 2, 500, 2), page(2, 1, 60, 0), page(3, 1, 40, 1),
              page(4, 3, 30, 3),  page(5, 0, 10, 0), page(6, 4, 20, 1)};
  const BalanceDecision d = decide_balance(in);
  EXPECT_EQ(d.busiest, 1u);
  EXPECT_EQ(d.least, 0u);
  ASSERT_EQ(d.moves.size(), 1u);  // page 2's 60 exceeds half of 100 - 10
  EXPECT_EQ(d.moves[0].vpage, 2u);
}

// Full nodes and nodes first touch may not use (StarNUMA's pool) never receive; the room of the
// destination and the limit bound the pages; ties in heat go to the lower page.
TEST(Balance, DestinationsNeedRoomAndEligibilityAndTheLimitHolds) {
  BalanceInput in = four_nodes(false);
  in.free_pages = {0, 100, 2, 100, 100};
  in.pages = {page(7, 1, 10, 0), page(5, 1, 10, 0), page(6, 1, 10, 3),
              page(8, 1, 10, 0), page(9, 3, 35, 3), page(1, 2, 30, 2)};
  BalanceDecision d = decide_balance(in);
  // Node 1 (40) is the busiest; node 0 is full and node 4 the pool, so node 2 (30) receives.
  EXPECT_EQ(d.busiest, 1u);
  EXPECT_EQ(d.least, 2u);
  ASSERT_EQ(d.moves.size(), 1u);  // half of 40 - 30 is 5: one page of 10
  EXPECT_EQ(d.moves[0].vpage, 5u);

  in.pages = {page(7, 1, 10, 0), page(5, 1, 10, 0), page(6, 1, 10, 3), page(8, 1, 10, 0), page(1, 2, 0, 2)};
  in.free_pages = {0, 100, 2, 100, 100};
  d = decide_balance(in);
  EXPECT_EQ(d.least, 2u);         // traffic 0
  ASSERT_EQ(d.moves.size(), 2u);  // its room: 2 pages
  EXPECT_EQ(d.moves[0].vpage, 5u);
  EXPECT_EQ(d.moves[1].vpage, 6u);
  // Eight pages of 10: half the gap is four of them; a limit of three stops the pass first.
  in.free_pages[2] = 100;
  in.pages = {page(1, 2, 0, 2)};
  for (uint64_t v = 10; v < 18; ++v) in.pages.push_back(page(v, 1, 10, 0));
  in.limit = 3;
  d = decide_balance(in);
  EXPECT_EQ(d.moves.size(), 3u);
  in.limit = 1000;
  EXPECT_EQ(decide_balance(in).moves.size(), 4u);
}

TEST(Balance, NothingMovesWhenBalanced) {
  BalanceInput in = four_nodes();
  in.pages = {page(1, 0, 10, 0), page(2, 1, 10, 0), page(3, 2, 10, 0), page(4, 3, 10, 0), page(5, 4, 10, 0)};
  const BalanceDecision d = decide_balance(in);
  EXPECT_EQ(d.least, static_cast<size_t>(-1));
  EXPECT_TRUE(d.moves.empty());
}
