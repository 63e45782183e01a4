#include "paging/page_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

constexpr uint64_t kPage = 4096;

// Two sockets of 8 frames each; each falls back to the other.
PageMap two_sockets() {
  return PageMap(kPage, {{"s0", 0, 8 * kPage, true}, {"s1", 8 * kPage, 8 * kPage, true}}, {{0, 1}, {1, 0}});
}

TEST(PageTable, EntriesAreIndexedByNineBitsALevelAboveThePageOffset) {
  // vaddr = PML4 index 1, PDPT index 2, PD index 3, PT index 4, offset 5.
  const uint64_t vaddr = (1ull << 39) | (2ull << 30) | (3ull << 21) | (4ull << 12) | 5;
  EXPECT_EQ(PageTable::entry(0x10000, 0, vaddr), 0x10000u + 1 * 8);
  EXPECT_EQ(PageTable::entry(0x10000, 1, vaddr), 0x10000u + 2 * 8);
  EXPECT_EQ(PageTable::entry(0x10000, 2, vaddr), 0x10000u + 3 * 8);
  EXPECT_EQ(PageTable::entry(0x10000, 3, vaddr), 0x10000u + 4 * 8);
  // A PT maps 2 MiB, a PD 1 GiB, a PDPT 512 GiB.
  EXPECT_EQ(PageTable::table_shift(3), 21u);
  EXPECT_EQ(PageTable::table_shift(2), 30u);
  EXPECT_EQ(PageTable::table_shift(1), 39u);
}

TEST(PageTable, ATableIsAFrameOnTheFirstWalkersNodeAndIsShared) {
  PageMap m = two_sockets();
  PageTable t(m);
  const uint64_t a = 5ull << 21, b = a + (1ull << 21) - kPage;  // the same 2 MiB: one PT
  const uint64_t pt = t.table(3, a, 1);
  EXPECT_GE(pt, 8 * kPage);  // socket 1's memory
  EXPECT_EQ(pt % kPage, 0u);
  EXPECT_EQ(t.table(3, b, 0), pt);                 // socket 0's walk finds the same table
  EXPECT_NE(t.table(3, a + (1ull << 21), 0), pt);  // the next 2 MiB: another PT, on socket 0
  EXPECT_LT(t.table(3, a + (1ull << 21), 0), 8 * kPage);
  EXPECT_EQ(t.table(0, a, 0), t.table(0, 1ull << 45, 1));  // one root
  EXPECT_EQ(t.tables(), 3u);
  EXPECT_EQ(m.frames_allocated(), 3u);
  EXPECT_EQ(m.pages_on(0) + m.pages_on(1), 3u);  // frames take node memory like pages
}

// A checkpoint's page tables (made by the functional pass) made again in a window's table: the same
// addresses, no frame taken.
TEST(PageTable, TablesMadeAreRestoredAtTheSameAddresses) {
  PageMap m = two_sockets();
  PageTable t(m);
  const uint64_t a = 5ull << 21;
  for (unsigned level = 0; level < PageTable::kLevels; ++level) t.table(level, a, 1);
  const PageTable::Tables made = t.made();
  EXPECT_EQ(made.tables.size(), 3u);
  EXPECT_TRUE(std::is_sorted(made.tables.begin(), made.tables.end()));
  PageTable again(m);
  EXPECT_TRUE(again.made().empty());
  again.restore(made);
  const uint64_t frames = m.frames_allocated();
  for (unsigned level = 0; level < PageTable::kLevels; ++level)
    EXPECT_EQ(again.table(level, a, 0), t.table(level, a, 0));
  EXPECT_EQ(m.frames_allocated(), frames);
}

TEST(PageTable, AFullMachineSaysSoForATable) {
  PageMap m(kPage, {{"s0", 0, 1 * kPage, true}}, {{0}});
  PageTable t(m);
  t.table(0, 0, 0);
  auto r = testing::capture_report([&] { t.table(3, 0, 0); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find("out of memory: no node can hold a page-table page for socket 0"), std::string::npos);
}

}  // namespace
}  // namespace starnuma
