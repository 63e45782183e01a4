#include "cache/cache_array.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness/expect_report.hpp"

namespace starnuma {
namespace {

TEST(CacheArray, MissFillThenHit) {
  CacheArray c(64, 4, Replacement::Lru);  // 16 sets
  EXPECT_EQ(c.sets(), 16u);
  EXPECT_FALSE(c.access(100, false));
  EXPECT_FALSE(c.fill(100, false).valid);
  EXPECT_TRUE(c.access(100, false));
  EXPECT_TRUE(c.contains(100));
  EXPECT_FALSE(c.contains(101));
}

TEST(CacheArray, LruEvictsTheLeastRecentlyUsedLineOfTheSet) {
  CacheArray c(8, 4, Replacement::Lru);  // 2 sets; lines 0, 2, 4, 6, 8 share set 0
  for (uint64_t l : {0, 2, 4, 6}) c.fill(l, false);
  c.access(0, false);  // 2 is now the least recent
  auto v = c.fill(8, false);
  ASSERT_TRUE(v.valid);
  EXPECT_EQ(v.line, 2u);
  EXPECT_TRUE(c.contains(0));
  EXPECT_FALSE(c.contains(1));  // never filled
}

TEST(CacheArray, WriteBackVictimsCarryTheirDirtyBit) {
  CacheArray c(2, 2, Replacement::Lru);  // one set of two ways
  c.fill(10, false);
  c.fill(11, false);
  c.access(10, true);  // dirty and most recent
  auto v = c.fill(12, false);
  EXPECT_EQ(v.line, 11u);
  EXPECT_FALSE(v.dirty);
  v = c.fill(13, true);
  EXPECT_EQ(v.line, 10u);
  EXPECT_TRUE(v.dirty);
}

TEST(CacheArray, DirtyVictimForeseesTheWriteBackOfTheNextFill) {
  CacheArray c(8, 4, Replacement::Lru);  // 2 sets; lines 0, 2, 4, 6, 8 share set 0
  uint64_t v = 99;
  EXPECT_FALSE(c.dirty_victim(8, v));  // empty ways: nothing is displaced
  for (uint64_t l : {0, 2, 4, 6}) c.fill(l, l == 2);
  EXPECT_FALSE(c.dirty_victim(8, v));  // the LRU line, 0, is clean
  c.access(0, false);                  // 2, dirty, is now the least recent
  ASSERT_TRUE(c.dirty_victim(8, v));
  EXPECT_EQ(v, 2u);
  EXPECT_FALSE(c.dirty_victim(9, v));  // the other set is empty
  const CacheArray::Victim displaced = c.fill(8, false);
  EXPECT_TRUE(displaced.valid && displaced.dirty);
  EXPECT_EQ(displaced.line, 2u);
  CacheArray r(8, 4, Replacement::Random);
  for (uint64_t l : {0, 2, 4, 6}) r.fill(l, true);
  EXPECT_FALSE(r.dirty_victim(8, v));  // a random victim is not known ahead
}

TEST(CacheArray, LruVictimForeseesTheNextFillsVictimAndItsState) {
  CacheArray c(8, 4, Replacement::Lru, 1, false, 2);  // 2 sets, a 2-bit state in each tag
  uint64_t v = 99;
  unsigned state = 9;
  EXPECT_FALSE(c.lru_victim(8, v, state));  // an empty way takes the fill
  for (uint64_t l : {0, 2, 4, 6}) c.fill(l, false, 0, static_cast<unsigned>(l / 2));
  ASSERT_TRUE(c.lru_victim(8, v, state));
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(state, 0u);
  c.access(0, false);  // 2, in state 1, is now the least recent
  ASSERT_TRUE(c.lru_victim(8, v, state));
  EXPECT_EQ(v, 2u);
  EXPECT_EQ(state, 1u);
  const CacheArray::Victim displaced = c.fill(8, false);
  EXPECT_EQ(displaced.line, 2u);
  EXPECT_EQ(displaced.state, 1u);
  CacheArray r(8, 4, Replacement::Random);
  for (uint64_t l : {0, 2, 4, 6}) r.fill(l, false);
  EXPECT_FALSE(r.lru_victim(8, v, state));  // a random victim is not known ahead
}

TEST(CacheArray, InvalidateRemovesAndReportsTheLine) {
  CacheArray c(4, 2, Replacement::Lru);
  c.fill(5, true);
  auto v = c.invalidate(5);
  EXPECT_TRUE(v.valid);
  EXPECT_TRUE(v.dirty);
  EXPECT_FALSE(c.contains(5));
  EXPECT_FALSE(c.invalidate(5).valid);
  EXPECT_FALSE(c.fill(5, false).valid);  // its way is free again
}

TEST(CacheArray, AWayFreedInTheMiddleOfTheRecencyOrderIsFilledFirst) {
  // Ways are kept in recency order with empty ways last: an invalidation in the middle must leave
  // the order of the others intact and its way the next one filled, for both policies.
  for (Replacement policy : {Replacement::Lru, Replacement::Random}) {
    CacheArray c(16, 16, policy, 3, true);  // one set of 16 ways, with payloads
    for (uint64_t l = 0; l < 16; ++l) c.fill(l, l % 2 == 1, 100 + l);
    for (uint64_t l : {9, 3, 12}) EXPECT_TRUE(c.invalidate(l).valid);
    for (uint64_t l : {20, 21, 22}) EXPECT_FALSE(c.fill(l, false, 100 + l).valid) << "the freed ways fill first";
    for (uint64_t l = 0; l < 16; ++l)
      if (l != 9 && l != 3 && l != 12) {
        ASSERT_NE(c.peek(l), nullptr) << l;
        EXPECT_EQ(*c.peek(l), 100 + l) << "payloads move with their tags";
      }
    if (policy == Replacement::Lru) {
      // Recency, oldest first: 0, 1, 2, 4, ... (3 is gone); 0 and 2 touched now: 1 is the oldest.
      c.access(0, false);
      c.access(2, true);
      const auto v = c.fill(30, false);
      EXPECT_EQ(v.line, 1u);
      EXPECT_TRUE(v.dirty);
      EXPECT_EQ(v.payload, 101u);
      EXPECT_EQ(c.fill(31, false).line, 4u);
    }
  }
}

TEST(CacheArray, NonPowerOfTwoSetCountsIndexByModulo) {
  CacheArray c(3 * 16, 16, Replacement::Lru);  // 3 sets, as 28 cores x 2 MiB / 16 ways gives non-powers of two
  EXPECT_EQ(c.sets(), 3u);
  for (uint64_t l = 0; l < 48; ++l) EXPECT_FALSE(c.fill(l, false).valid) << l;  // exactly fills
  EXPECT_TRUE(c.fill(48, false).valid);
}

TEST(CacheArray, RandomReplacementIsDeterministicForASeed) {
  auto victims = [](uint64_t seed) {
    CacheArray c(4, 4, Replacement::Random, seed);
    std::vector<uint64_t> out;
    for (uint64_t l = 0; l < 40; ++l) {
      auto v = c.fill(l, false);
      if (v.valid) out.push_back(v.line);
    }
    return out;
  };
  EXPECT_EQ(victims(7), victims(7));
  EXPECT_NE(victims(7), victims(8));
}

TEST(CacheArray, ABadGeometryIsAnInternalError) {
  auto r = testing::capture_report([] { CacheArray c(10, 4, Replacement::Lru); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/internal");
}

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

TEST(CacheArray, PayloadsTravelWithTheirEntries) {
  CacheArray c(2, 2, Replacement::Lru, 1, true);
  c.fill(7, false, 700);
  c.fill(8, false, 800);
  ASSERT_NE(c.lookup(7, false), nullptr);
  EXPECT_EQ(*c.lookup(7, false), 700u);
  EXPECT_EQ(c.lookup(9, false), nullptr);
  auto v = c.fill(9, false, 900);  // evicts 8, the least recent
  EXPECT_EQ(v.line, 8u);
  EXPECT_EQ(v.payload, 800u);
}

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

TEST(CacheArray, LruOrderSurvivesManyTouches) {
  CacheArray c(4, 4, Replacement::Lru);  // one set
  for (uint64_t l : {0, 1, 2, 3}) c.fill(l, false);
  // 70000 touches (more than a 16-bit recency clock counts), then the order 2, 0, 3, 1 (1 most recent).
  for (int i = 0; i < 70000; ++i) c.access(static_cast<uint64_t>(i % 4), false);
  for (uint64_t l : {2, 0, 3, 1}) c.access(l, false);
  EXPECT_EQ(c.fill(10, false).line, 2u);
  EXPECT_EQ(c.fill(11, false).line, 0u);
  EXPECT_EQ(c.fill(12, false).line, 3u);
  EXPECT_EQ(c.fill(13, false).line, 1u);
}

TEST(CacheArray, VictimsComeBackAsTheLinesThatWentIn) {
  // Non-power-of-two set counts store line / sets as the tag: the victim must be the original line.
  CacheArray c(3 * 2, 2, Replacement::Lru);      // 3 sets of 2
  const uint64_t big = (uint64_t{1} << 32) + 5;  // above 2^32: the tag is line / 3
  c.fill(big, true);
  c.fill(big + 3, false);
  auto v = c.fill(big + 6, false);
  ASSERT_TRUE(v.valid);
  EXPECT_EQ(v.line, big);
  EXPECT_TRUE(v.dirty);
}

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

// The vector paths (8- and 16-way sets) and the scalar path (other associativities) must choose
// the same victims: the least recently used line, empty ways first.
class Associativity : public ::testing::TestWithParam<unsigned> {};

TEST_P(Associativity, LruVictimIsTheLeastRecentlyUsedWay) {
  const unsigned ways = GetParam();
  CacheArray c(ways, ways, Replacement::Lru);  // one set
  for (unsigned l = 0; l < ways; ++l) EXPECT_FALSE(c.fill(l, false).valid) << "empty ways fill first";
  // Touch every line but 3 (or the last for tiny sets) in a scrambled order: that line is the oldest.
  const uint64_t old = ways > 3 ? 3 : ways - 1;
  for (unsigned i = 0; i < ways; ++i) {
    const uint64_t l = (i * 5 + 1) % ways;
    if (l != old) c.access(l, false);
  }
  EXPECT_EQ(c.fill(1000, false).line, old);
}

INSTANTIATE_TEST_SUITE_P(Ways, Associativity, ::testing::Values(1u, 2u, 4u, 8u, 12u, 16u, 24u, 32u),
                         [](const ::testing::TestParamInfo<unsigned>& i) { return std::to_string(i.param) + "way"; });

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

// A plain LRU cache to hold the array against: per set, entries most recent first.
class ReferenceLru {
 public:
  struct Entry {
    uint64_t line;
    bool dirty;
    uint64_t payload;
  };
  ReferenceLru(uint64_t sets, unsigned ways) : sets_(sets), ways_(ways), order_(sets) {}
  const Entry* access(uint64_t line, bool write) {
    auto& o = order_[line % sets_];
    auto it = std::find_if(o.begin(), o.end(), [&](const Entry& e) { return e.line == line; });
    if (it == o.end()) return nullptr;
    Entry e = *it;
    e.dirty = e.dirty || write;
    o.erase(it);
    o.push_front(e);
    return &o.front();
  }
  CacheArray::Victim fill(uint64_t line, bool dirty, uint64_t payload) {
    auto& o = order_[line % sets_];
    CacheArray::Victim v;
    if (o.size() == ways_) {
      v = CacheArray::Victim{true, o.back().line, o.back().dirty, o.back().payload};
      o.pop_back();
    }
    o.push_front(Entry{line, dirty, payload});
    return v;
  }
  CacheArray::Victim invalidate(uint64_t line) {
    auto& o = order_[line % sets_];
    auto it = std::find_if(o.begin(), o.end(), [&](const Entry& e) { return e.line == line; });
    if (it == o.end()) return {};
    const CacheArray::Victim v{true, it->line, it->dirty, it->payload};
    o.erase(it);
    return v;
  }

 private:
  uint64_t sets_;
  unsigned ways_;
  std::vector<std::deque<Entry>> order_;
};

// Every associativity, with and without payloads, through a long random mix of accesses, fills and
// invalidations on a few sets: each hit, payload and victim (line, dirty bit, payload) must be the
// reference's. This covers each path that moves ways: the hit's rotation to the front, the fill of
// a full block (4, 8 and 16 ways) and of a partial one (12), the scalar paths, and the payloads.
class AgainstReference : public ::testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(AgainstReference, HitsAndVictimsMatchAPlainLru) {
  const auto [ways, payloads] = GetParam();
  const uint64_t sets = 4;
  CacheArray c(sets * ways, ways, Replacement::Lru, 1, payloads);
  ReferenceLru ref(sets, ways);
  std::mt19937_64 rng(ways * 2 + payloads);
  const uint64_t lines = sets * (ways + ways / 2 + 2);  // some sets overflow, so fills evict
  for (int i = 0; i < 20000; ++i) {
    const uint64_t line = rng() % lines;
    const bool write = rng() % 3 == 0;
    const unsigned what = static_cast<unsigned>(rng() % 16);
    const std::string at = "operation " + std::to_string(i) + ", line " + std::to_string(line);
    if (what == 0) {
      const CacheArray::Victim a = c.invalidate(line), b = ref.invalidate(line);
      ASSERT_EQ(a.valid, b.valid) << at;
      if (a.valid) {
        EXPECT_EQ(a.dirty, b.dirty) << at;
        if (payloads) {
          EXPECT_EQ(a.payload, b.payload) << at;
        }
      }
      continue;
    }
    const uint64_t* hit = c.lookup(line, write);
    const ReferenceLru::Entry* expected = ref.access(line, write);
    ASSERT_EQ(hit != nullptr, expected != nullptr) << at;
    if (hit) {
      if (payloads) {
        EXPECT_EQ(*hit, expected->payload) << at;
      }
      continue;
    }
    const uint64_t payload = rng();
    const CacheArray::Victim a = c.fill(line, write, payload), b = ref.fill(line, write, payloads ? payload : 0);
    ASSERT_EQ(a.valid, b.valid) << at;
    if (a.valid) {
      ASSERT_EQ(a.line, b.line) << at;
      EXPECT_EQ(a.dirty, b.dirty) << at;
      if (payloads) {
        EXPECT_EQ(a.payload, b.payload) << at;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ways, AgainstReference,
                         ::testing::Combine(::testing::Values(1u, 2u, 3u, 4u, 8u, 12u, 16u, 24u, 32u),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<unsigned, bool>>& i) {
                           return std::to_string(std::get<0>(i.param)) + "way" +
                                  (std::get<1>(i.param) ? "Payloads" : "");
                         });

}  // namespace
}  // namespace starnuma

namespace starnuma {
namespace {

// Tag states travel with their lines through every move of the recency order (hits, the vector
// fills of 4-, 8- and 16-way sets, the scalar path of others, invalidations), independent of the
// dirty bit, and come back with the victims: checked against a plain map of the lines present. A
// hit may add bits; a change may touch only some bits; a promotion changes only the state it names.
class TagStates : public ::testing::TestWithParam<unsigned> {};

TEST_P(TagStates, FollowTheirLines) {
  const unsigned ways = GetParam();
  constexpr unsigned kBits = 6;                                     // an LLC's: MESI and four cores
  CacheArray c(ways * 4, ways, Replacement::Lru, 1, false, kBits);  // 4 sets
  std::map<uint64_t, unsigned> state;                               // the lines present
  std::mt19937_64 rng(ways);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t line = rng() % (ways * 12);
    const unsigned s = static_cast<unsigned>(rng() % (1u << kBits));
    const unsigned mask = static_cast<unsigned>(rng() % (1u << kBits));
    switch (rng() % 6) {
      case 0:
        if (!c.contains(line)) {
          const CacheArray::Victim v = c.fill(line, s & 1, 0, s);
          if (v.valid) {
            ASSERT_EQ(v.state, state.at(v.line));
            state.erase(v.line);
          }
          state[line] = s;
        }
        break;
      case 1: c.access(line, s & 1); break;  // a hit writes the dirty bit, not the state
      case 2: {
        const CacheArray::Victim v = c.invalidate(line);
        ASSERT_EQ(v.valid, state.count(line) == 1);
        if (v.valid) {
          ASSERT_EQ(v.state, state.at(line));
        }
        state.erase(line);
        break;
      }
      case 3:
        c.access(line, false, s);  // a hit adds the bits of s
        if (state.count(line)) state[line] |= s;
        break;
      case 4: {  // promoted from its own state half the time, from another the rest
        const auto it = state.find(line);
        const unsigned held = it == state.end() ? 0 : it->second;
        const unsigned from = rng() % 2 ? held : mask;
        ASSERT_EQ(c.state_promoting(line, from, s), held);
        if (it != state.end() && held == from) it->second = s;
        break;
      }
      default:
        c.set_state(line, s, mask);  // a line absent stays absent
        if (state.count(line)) state[line] = (state[line] & ~mask) | (s & mask);
    }
    const auto it = state.find(line);
    ASSERT_EQ(c.state(line), it == state.end() ? 0u : it->second) << "line " << line << " after step " << i;
    ASSERT_EQ(c.contains(line), it != state.end());
  }
}

INSTANTIATE_TEST_SUITE_P(Ways, TagStates, ::testing::Values(2u, 4u, 8u, 12u, 16u));

TEST(CacheArray, TagStatesTakeBitsOfTheKeys) {
  CacheArray plain(2, 1, Replacement::Lru);  // 2 sets: the key is line / 2
  CacheArray with_states(2, 1, Replacement::Lru, 1, false, 2);
  const uint64_t high = uint64_t{1} << 30;  // key 2^29
  plain.fill(high, false, 0, 3);
  EXPECT_TRUE(plain.contains(high));
  EXPECT_EQ(plain.state(high), 0u);  // an array without tag states keeps none
  with_states.fill(high - 4, false, 0, 3);
  EXPECT_EQ(with_states.state(high - 4), 3u);
  auto r = testing::capture_report([&] { with_states.fill(high, false); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/internal");
}

TEST(CacheArray, StateBitsForTheLinesItMayHold) {
  // 2 sets: keys up to (line_end - 1) / 2 must stay below 2^(31 - bits) - 1.
  EXPECT_EQ(CacheArray::state_bits_for(2, 1, 2), CacheArray::kMaxStateBits);
  EXPECT_EQ(CacheArray::state_bits_for(2, 1, uint64_t{1} << 26), 5u);        // top key 2^25 - 1: not below 2^25 - 1
  EXPECT_EQ(CacheArray::state_bits_for(2, 1, (uint64_t{1} << 26) - 2), 6u);  // top key 2^25 - 2
  EXPECT_EQ(CacheArray::state_bits_for(2, 1, uint64_t{1} << 33), 0u);        // top key 2^32 - 1: not even keys
  // What it says fits, fits: the top line with that many bits, and not one more bit.
  const uint64_t end = (uint64_t{1} << 26) - 2;
  const unsigned bits = CacheArray::state_bits_for(2, 1, end);
  CacheArray fits(2, 1, Replacement::Lru, 1, false, bits);
  fits.fill(end - 1, false, 0, (1u << bits) - 1);
  EXPECT_EQ(fits.state(end - 1), (1u << bits) - 1);
  CacheArray one_more(2, 1, Replacement::Lru, 1, false, bits + 1);
  EXPECT_TRUE(testing::capture_report([&] { one_more.fill(end - 1, false); }).raised);
  EXPECT_TRUE(testing::capture_report([] { CacheArray c(2, 1, Replacement::Lru, 1, false, 17); }).raised);
}

}  // namespace
}  // namespace starnuma
