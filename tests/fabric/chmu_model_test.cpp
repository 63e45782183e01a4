#include "pool/chmu_model.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace starnuma {
namespace {

constexpr uint64_t kPage = 4096;

ChmuModel make(unsigned sets = 4, unsigned ways = 2, unsigned hotlist = 8, unsigned counter_bits = 8) {
  return ChmuModel({sets, ways, 40, counter_bits, hotlist});
}

std::vector<HotlistEntry> drain(ChmuModel& m) {
  std::vector<HotlistEntry> out;
  m.drain(out);
  return out;
}

TEST(ChmuModel, CountsNothingUntilConfigured) {
  ChmuModel m = make();
  m.access(0, false);
  m.end_epoch();
  EXPECT_FALSE(m.enabled());
  EXPECT_EQ(m.stats().counted, 0u);
  EXPECT_EQ(m.tail(), 0u);
}

TEST(ChmuModel, AnEpochReportsTheUnitsAtTheThresholdInTableOrder) {
  ChmuModel m = make();
  ChmuConfig c;
  c.threshold = 2;
  m.configure(c);
  for (int n = 0; n < 3; ++n) m.access(6 * kPage + 100, false);  // set 2
  m.access(1 * kPage, true);                                     // set 1, once: below the threshold
  for (int n = 0; n < 2; ++n) m.access(5 * kPage, true);         // set 1
  m.end_epoch();
  EXPECT_EQ(drain(m), (std::vector<HotlistEntry>{{5, 2}, {6, 3}}));
  m.end_epoch();  // the table was emptied
  EXPECT_TRUE(drain(m).empty());
}

TEST(ChmuModel, AMissInAFullSetTakesTheLeastCountedWayAndItsCount) {
  ChmuModel m = make(4, 2);
  ChmuConfig c;
  c.threshold = 1;
  m.configure(c);
  for (int n = 0; n < 3; ++n) m.access(0 * kPage, false);  // set 0, count 3
  m.access(4 * kPage, false);                              // set 0, count 1
  m.access(8 * kPage, false);                              // set 0 full: replaces unit 4, inherits 1
  EXPECT_EQ(m.stats().replaced, 1u);
  EXPECT_EQ(m.held_count(4), 0u);
  EXPECT_EQ(m.held_count(8), 2u);  // Space-Saving: never under the true count
  EXPECT_EQ(m.held_count(0), 3u);
}

TEST(ChmuModel, CountsSaturate) {
  ChmuModel m = make(4, 2, 8, 4);
  ChmuConfig c;
  c.threshold = 15;
  m.configure(c);
  for (int n = 0; n < 40; ++n) m.access(3 * kPage, false);
  m.end_epoch();
  EXPECT_EQ(drain(m), (std::vector<HotlistEntry>{{3, 15}}));
}

TEST(ChmuModel, AlwaysOnReportsAtTheThresholdAndStartsAgain) {
  ChmuModel m = make();
  ChmuConfig c;
  c.threshold = 3;
  c.always_on = true;
  m.configure(c);
  for (int n = 0; n < 7; ++n) m.access(2 * kPage, false);
  EXPECT_EQ(drain(m), (std::vector<HotlistEntry>{{2, 3}, {2, 3}}));
  EXPECT_EQ(m.held_count(2), 1u);
  m.end_epoch();  // ageing only: nothing reported, the count is gone
  EXPECT_TRUE(drain(m).empty());
  EXPECT_EQ(m.held_count(2), 0u);
}

TEST(ChmuModel, AFullRingDropsAndSetsOverflowUntilCleared) {
  ChmuModel m = make(4, 2, 4);  // holds 3
  ChmuConfig c;
  c.threshold = 1;
  c.always_on = true;
  c.notify_level = 2;
  m.configure(c);
  m.access(0, false);
  EXPECT_FALSE(m.level_crossed());
  m.access(0, false);
  EXPECT_TRUE(m.level_crossed());
  m.access(0, false);
  EXPECT_FALSE(m.overflow());
  m.access(0, false);
  EXPECT_TRUE(m.overflow());
  EXPECT_EQ(m.stats().reported, 3u);
  EXPECT_EQ(m.stats().dropped, 1u);
  m.set_head(2);
  EXPECT_EQ(m.occupancy(), 1u);
  EXPECT_TRUE(m.overflow());  // sticky
  m.clear_status();
  EXPECT_FALSE(m.overflow());
  EXPECT_FALSE(m.level_crossed());
}

TEST(ChmuModel, TheHeadCannotPassTheTail) {
  ChmuModel m = make();
  m.configure({});
  m.access(0, false);
  m.end_epoch();  // one entry
  EXPECT_THROW(m.set_head(2), std::out_of_range);
  EXPECT_THROW(m.set_head(8), std::out_of_range);
  m.set_head(1);
  EXPECT_EQ(m.occupancy(), 0u);
}

TEST(ChmuModel, SequentialDownSamplingCountsOneInTwoToTheK) {
  ChmuModel m = make();
  ChmuConfig c;
  c.ds_shift = 2;
  m.configure(c);
  for (int n = 0; n < 40; ++n) m.access(0, false);
  EXPECT_EQ(m.stats().counted, 10u);
  EXPECT_EQ(m.stats().sampled_out, 30u);
}

TEST(ChmuModel, RandomizedDownSamplingKeepsAboutOneInTwoToTheK) {
  ChmuModel m = make();
  ChmuConfig c;
  c.ds_shift = 3;
  c.random_ds = true;
  m.configure(c);
  for (int n = 0; n < 65535; ++n) m.access(0, false);  // the LFSR's whole period
  // Over the period each nonzero 16-bit value occurs once: 2^13 - 1 of them end in three zeros.
  EXPECT_EQ(m.stats().counted, 8191u);
}

TEST(ChmuModel, UntrackedRequestsAreFilteredBeforeSampling) {
  ChmuModel m = make();
  ChmuConfig c;
  c.track_reads = false;
  c.ds_shift = 1;
  m.configure(c);
  m.access(0, false);
  m.access(0, true);
  m.access(0, true);
  EXPECT_EQ(m.stats().filtered, 1u);
  EXPECT_EQ(m.stats().counted, 1u);
  EXPECT_EQ(m.stats().sampled_out, 1u);
}

TEST(ChmuModel, TheUnitSizeSetsWhatIsCountedTogether) {
  ChmuModel m = make();
  ChmuConfig c;
  c.unit_shift = 21;  // 2 MiB
  c.threshold = 2;
  m.configure(c);
  m.access(0x200000, false);
  m.access(0x3FFFC0, false);
  m.end_epoch();
  EXPECT_EQ(drain(m), (std::vector<HotlistEntry>{{1, 2}}));
}

TEST(ChmuModel, RefusesWhatTheHardwareCannotBe) {
  EXPECT_THROW(make(3), std::invalid_argument);
  EXPECT_THROW(make(4, 1), std::invalid_argument);
  EXPECT_THROW(make(4, 2, 6), std::invalid_argument);
  EXPECT_THROW(make(4, 2, 8, 1), std::invalid_argument);
  ChmuModel m = make();
  ChmuConfig c;
  c.threshold = 0;
  EXPECT_THROW(m.configure(c), std::invalid_argument);
  c.threshold = 256;  // 8-bit counters
  EXPECT_THROW(m.configure(c), std::invalid_argument);
  c = {};
  c.unit_shift = 7;
  EXPECT_THROW(m.configure(c), std::invalid_argument);
  c = {};
  c.ds_shift = 16;
  EXPECT_THROW(m.configure(c), std::invalid_argument);
  c = {};
  c.notify_level = 8;
  EXPECT_THROW(m.configure(c), std::invalid_argument);
}

}  // namespace
}  // namespace starnuma
