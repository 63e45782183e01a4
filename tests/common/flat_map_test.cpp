#include "common/flat_map.hpp"

#include <gtest/gtest.h>

#include <random>

#include "coherence/directory.hpp"
#include "harness/expect_report.hpp"
#include <unordered_map>

namespace starnuma {
namespace {

TEST(FlatMap, AgreesWithUnorderedMapOverRandomOperations) {
  FlatMap<uint64_t> flat;
  std::unordered_map<uint64_t, uint64_t> want;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = rng() % 5000 * 64;  // clustered keys, as block numbers are
    switch (rng() % 4) {
      case 0: flat[key] = want[key] = rng(); break;
      case 1: EXPECT_EQ(flat.erase(key), want.erase(key) == 1); break;
      case 2: {  // an erase that hands the value back
        const std::optional<uint64_t> got = flat.take(key);
        auto it = want.find(key);
        ASSERT_EQ(got.has_value(), it != want.end()) << key;
        if (got) {
          EXPECT_EQ(*got, it->second);
          want.erase(it);
        }
        break;
      }
      default: {
        const uint64_t* got = flat.find(key);
        auto it = want.find(key);
        ASSERT_EQ(got != nullptr, it != want.end()) << key;
        if (got) {
          EXPECT_EQ(*got, it->second);
        }
      }
    }
    ASSERT_EQ(flat.size(), want.size());
  }
}

TEST(FlatMap, ErasingOthersKeepsReferencesValid) {
  FlatMap<int> m;
  for (uint64_t k = 0; k < 100; ++k) m[k] = static_cast<int>(k);
  int& kept = m[42];
  for (uint64_t k = 0; k < 100; ++k)
    if (k != 42) m.erase(k);
  EXPECT_EQ(&kept, m.find(42));
  EXPECT_EQ(kept, 42);
  EXPECT_EQ(m.size(), 1u);
}

TEST(FlatMap, TombstonesDoNotGrowTheTableForever) {
  FlatMap<int> m;
  for (uint64_t k = 0; k < 1000000; ++k) {  // one live key at a time: the table rebuilds in place
    m[k] = 1;
    m.erase(k);
  }
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.capacity(), 16u);
  EXPECT_EQ(m.find(999999), nullptr);
}

// The two largest keys mark empty slots and tombstones: inserting one is refused, finding one finds
// nothing, and the largest usable key works.
TEST(FlatMap, TheTwoLargestKeysAreReserved) {
  FlatMap<int> m;
  const uint64_t top = ~uint64_t{0};
  m[top - 2] = 5;
  EXPECT_EQ(*m.find(top - 2), 5);
  EXPECT_EQ(m.find(top), nullptr);
  EXPECT_EQ(m.find(top - 1), nullptr);
  EXPECT_FALSE(m.erase(top));
  m[7] = 1;
  m.erase(7);  // a tombstone: still not found under its reserved key
  EXPECT_EQ(m.find(top - 1), nullptr);
  for (uint64_t k : {top, top - 1}) {
    auto r = testing::capture_report([&] { m[k] = 1; });
    EXPECT_TRUE(r.raised) << k;
    EXPECT_EQ(r.type, "starnuma/internal");
  }
  int seen = 0;
  m.for_each([&](uint64_t k, int v) { seen += k == top - 2 && v == 5; });
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(m.size(), 1u);
}

// A directory entry and its block number fill half a host cache line, so no slot of a socket
// home's directory straddles two lines.
TEST(FlatMap, ADirectorySlotIsHalfAHostLine) {
  FlatMap<DirEntry> m;
  for (uint64_t k = 0; k < 64; ++k) m[k].sharers = k;
  for (uint64_t k = 0; k < 64; ++k) {
    const auto at = reinterpret_cast<uintptr_t>(m.find(k)) - 8;  // the slot starts with its key
    EXPECT_EQ(at % 32, 0u) << k;
  }
  EXPECT_LE(sizeof(DirEntry), 24u);
}

}  // namespace
}  // namespace starnuma
