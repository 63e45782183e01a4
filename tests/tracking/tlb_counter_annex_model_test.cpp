#include "tracking/tlb_counter_annex_model.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace starnuma {
namespace {

TEST(TlbCounterAnnexModel, CountsSaturateAtTwoToTheIMinusOne) {
  TlbCounterAnnexModel a({4, 4, 3});
  a.fill(1, 0x10, 0x20);
  for (int i = 0; i < 40; ++i) a.llc_load(1);
  EXPECT_EQ(a.count(1), 15u);
  EXPECT_EQ(a.evict(1), (FlushRequest{0x10, 0x20, 15, 3}));
}

TEST(TlbCounterAnnexModel, EvictionAlwaysFlushesEvenAtZero) {
  TlbCounterAnnexModel a({4, 8, 0});
  a.fill(0, 1, 2);
  EXPECT_EQ(a.evict(0).count, 0u);  // count 0 still reports "touched"
}

TEST(TlbCounterAnnexModel, AMarkedHitFlushesOnceAndRestartsTheCount) {
  TlbCounterAnnexModel a({4, 8, 1});
  a.fill(2, 7, 9);
  a.llc_load(2);
  a.llc_load(2);
  EXPECT_FALSE(a.hit(2));  // not marked yet
  a.phase_mark();
  auto f = a.hit(2);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->count, 2u);
  EXPECT_FALSE(a.hit(2));  // marker cleared
  a.llc_load(2);
  EXPECT_EQ(a.evict(2).count, 1u);
}

TEST(TlbCounterAnnexModel, T0CountsNothingButStillFlushes) {
  TlbCounterAnnexModel a({2, 0, 5});
  a.fill(0, 1, 2);
  a.llc_load(0);
  EXPECT_EQ(a.max_count(), 0u);
  EXPECT_EQ(a.evict(0), (FlushRequest{1, 2, 0, 5}));
}

TEST(TlbCounterAnnexModel, OneCycleAppliesEvictFillHitLoadPhaseInOrder) {
  TlbCounterAnnexModel a({4, 4, 0});
  a.fill(0, 100, 200);
  a.fill(1, 101, 201);
  a.llc_load(0);
  a.phase_mark();
  AnnexBeat b;
  b.evict = 0u;
  b.fill = AnnexBeat::Fill{0, 300, 400};
  b.hit = 1u;
  b.load = 0u;
  b.phase = true;
  std::vector<FlushRequest> out;
  a.apply(b, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (FlushRequest{100, 200, 1, 0}));  // the old translation, before the fill
  EXPECT_EQ(out[1], (FlushRequest{101, 201, 0, 0}));
  EXPECT_EQ(a.count(0), 1u);  // the new translation counted the load
  EXPECT_TRUE(a.marked(0));   // the phase mark came last
}

TEST(TlbCounterAnnexModel, RejectsBadConfigurationsAndIndices) {
  EXPECT_THROW(TlbCounterAnnexModel({4, 17, 0}), std::invalid_argument);
  EXPECT_THROW(TlbCounterAnnexModel({0, 4, 0}), std::invalid_argument);
  TlbCounterAnnexModel a({4, 4, 0});
  EXPECT_THROW(a.llc_load(4), std::out_of_range);
}

}  // namespace
}  // namespace starnuma
