// The tracker's input queue and the timing of its serial read-modify-writes (TrackerQueue), served
// by hand the way SocketTracking's process serves it, with a memory that answers every request
// after 100 fs: each update takes issue 10 + read 100 + modify 1 + write 100.
#include "tracking/tracker_queue.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace starnuma {
namespace {

constexpr int64_t kIssue = 10, kModify = 1, kMemory = 100;

// Starts the oldest update once the previous one ended at `free`; returns when it ends.
int64_t serve(TrackerQueue& q, int64_t free, int64_t* start = nullptr) {
  const int64_t s = q.start_time(free);
  if (start) *start = s;
  const TrackerQueue::Update u = q.pop();
  const int64_t read_done = s + kMemory;
  return u.writes ? q.write_issue(read_done) + kMemory : read_done;
}

TEST(TrackerQueue, UpdatesStartInOrderEachAfterThePreviousOnesLastResponse) {
  TrackerQueue q(2, kIssue, kModify);
  q.push(0, 0x100);
  q.push_write(0x100, 7);
  q.push(0, 0x140);
  q.push_write(0x140, 9);
  EXPECT_FALSE(q.has_room(1));
  EXPECT_EQ(q.front().read_addr, 0x100u);
  EXPECT_EQ(q.queue_wait(0), 0);
  int64_t start;
  const int64_t end1 = serve(q, 0, &start);
  EXPECT_EQ(start, 10);
  EXPECT_EQ(end1, 211);        // 10 + 100 + 1 + 100
  EXPECT_TRUE(q.has_room(1));  // its slot freed when it started
  EXPECT_EQ(q.front().write_data, 9u);
  EXPECT_EQ(q.queue_wait(end1), 211 - 10);  // ready at 10, started when the first one ended
  const int64_t end2 = serve(q, end1, &start);
  EXPECT_EQ(start, 211);
  EXPECT_EQ(end2, 412);
  EXPECT_TRUE(q.empty());
}

// Temporal decoupling: a flush earlier in time handed over after a later one goes before it, its
// write stays with its own read, and flushes at equal times keep the order they came in.
TEST(TrackerQueue, UpdatesAreInTheOrderOfTheirTimesNotOfTheCalls) {
  TrackerQueue q(4, kIssue, kModify);
  q.push(300, 0x300);
  q.push(100, 0x100);
  q.push_write(0x100, 1);
  q.push(300, 0x340);
  q.push(200, 0x200);
  EXPECT_EQ(q.pop().read_addr, 0x100u);
  EXPECT_EQ(q.front().read_addr, 0x200u);
  EXPECT_FALSE(q.front().writes);
  q.push(250, 0x250);
  q.push_write(0x250, 2);
  const uint64_t want[] = {0x200, 0x250, 0x300, 0x340};
  for (uint64_t addr : want) {
    const TrackerQueue::Update u = q.pop();
    EXPECT_EQ(u.read_addr, addr);
    EXPECT_EQ(u.writes, addr == 0x250) << std::hex << addr;
  }
  EXPECT_TRUE(q.empty());
}

TEST(TrackerQueue, AnUnchangedEntryIsOnlyRead) {
  TrackerQueue q(1, kIssue, kModify);
  q.push(50, 0x100);
  EXPECT_FALSE(q.front().writes);
  EXPECT_EQ(serve(q, 0), 50 + kIssue + kMemory);
}

TEST(TrackerQueue, FlushesSpacedMoreThanAnUpdateApartNeverWait) {
  TrackerQueue q(1, kIssue, kModify);
  int64_t free = 0;
  for (int64_t at = 0; at < 10000; at += 211) {
    ASSERT_TRUE(q.has_room(1));
    q.push(at, 0x40);
    q.push_write(0x40, 1);
    EXPECT_EQ(q.queue_wait(free), 0);
    int64_t start;
    free = serve(q, free, &start);
    EXPECT_EQ(start, at + kIssue);
  }
}

TEST(TrackerQueue, MisuseIsAnError) {
  EXPECT_THROW(TrackerQueue(0, kIssue, kModify), std::invalid_argument);
  TrackerQueue q(1, kIssue, kModify);
  EXPECT_THROW(q.push_write(0x40, 1), std::logic_error);
  EXPECT_THROW(q.pop(), std::logic_error);
  q.push(0, 0x40);
  EXPECT_THROW(q.push(0, 0x80), std::logic_error);
}

}  // namespace
}  // namespace starnuma
