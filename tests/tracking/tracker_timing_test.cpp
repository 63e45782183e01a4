// The tracker's queue and serial read-modify-writes (TrackerTiming), with a memory that answers
// every request after a fixed 100 fs: each update takes issue 10 + read 100 + modify 1 + write 100.
#include "tracking/tracker_timing.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace starnuma {
namespace {

constexpr int64_t kIssue = 10, kModify = 1, kMemory = 100;

// One flush produced at `at`, folded with a read and a write.
TrackerTiming::Update flush(TrackerTiming& t, int64_t at) {
  const TrackerTiming::Update u = t.begin(at);
  t.answered(u.start + kMemory);
  t.answered(t.write_issue() + kMemory);
  return u;
}

TEST(TrackerTiming, AFullQueueHoldsAFlushUntilTheOldestQueuedUpdateStarts) {
  TrackerTiming t(2, kIssue, kModify);
  // Four flushes at time 0. The first two find room; the first starts after issue (10) and ends
  // at 10 + 100 + 1 + 100 = 211, when the second starts (ends 412).
  auto u1 = flush(t, 0), u2 = flush(t, 0);
  EXPECT_EQ(u1.accepted, 0);
  EXPECT_EQ(u1.start, 10);
  EXPECT_EQ(u2.accepted, 0);
  EXPECT_EQ(u2.start, 211);
  // The third waits for the first's slot (free when it started, at 10), the fourth for the
  // second's (at 211): those are the stalls of the accesses that caused them.
  auto u3 = flush(t, 0), u4 = flush(t, 0);
  EXPECT_EQ(u3.accepted, 10);
  EXPECT_EQ(u3.ready, 20);
  EXPECT_EQ(u3.start, 412);
  EXPECT_EQ(u4.accepted, 211);
  EXPECT_EQ(u4.start, 613);
}

TEST(TrackerTiming, FlushesSpacedMoreThanAnUpdateApartNeverWait) {
  TrackerTiming t(1, kIssue, kModify);
  for (int64_t at = 0; at < 10000; at += 211) {
    const auto u = flush(t, at);
    EXPECT_EQ(u.accepted, at);
    EXPECT_EQ(u.start, at + kIssue);
  }
}

TEST(TrackerTiming, AQueueNeedsASlot) { EXPECT_THROW(TrackerTiming(0, kIssue, kModify), std::invalid_argument); }

}  // namespace
}  // namespace starnuma
