#include "os/page_map.hpp"

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

constexpr uint64_t kPage = 4096;

// Two sockets of 4 pages each and a pool of 2 pages; socket s falls back to the other socket.
PageMap small_map() {
  return PageMap(kPage,
                 {{"s0", 0, 4 * kPage, true}, {"s1", 4 * kPage, 4 * kPage, true}, {"pool", 8 * kPage, 2 * kPage, false}},
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

TEST(PageMap, OraclePutsWidelySharedPagesInThePoolHottestFirst) {
  PageMap m = PageMap(kPage,
                      {{"s0", 0, 8 * kPage, true}, {"s1", 8 * kPage, 8 * kPage, true}, {"s2", 16 * kPage, 8 * kPage, true},
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
            {{"s0", 0, 8 * kPage, true}, {"s1", 8 * kPage, 8 * kPage, true}, {"s2", 16 * kPage, 8 * kPage, true},
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
}  // namespace starnuma
