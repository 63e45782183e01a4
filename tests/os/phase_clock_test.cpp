// The phases' clock: the mean thread's work over the threads that have not finished, so that one
// sprinter does not bring phases forward and finished threads do not hold them back (docs/os.md,
// "A phase").
#include <gtest/gtest.h>

#include <vector>

#include "os/phase_clock.hpp"

namespace starnuma {
namespace {

struct Threads {
  std::vector<uint64_t> retired;
  std::vector<bool> finished;
  PhaseClock clock;
  explicit Threads(size_t n) : retired(n, 0), finished(n, false), clock(n) {}
  uint64_t read() {
    clock.advance([this](size_t t) { return retired[t]; }, [this](size_t t) { return bool(finished[t]); });
    return clock.instructions();
  }
};

TEST(PhaseClock, EveryThreadRunningIsTheMeanThread) {
  Threads s(4);
  s.retired = {100, 200, 300, 400};
  EXPECT_EQ(s.read(), 250u);
  s.retired = {200, 300, 400, 500};
  EXPECT_EQ(s.read(), 350u);
}

TEST(PhaseClock, OneSprinterDoesNotBringPhasesForward) {
  Threads s(4);
  s.retired = {1000, 1000, 1000, 9000};  // the furthest thread would read 9000
  EXPECT_EQ(s.read(), 3000u);
}

TEST(PhaseClock, ThreadsWaitingAtABarrierAreWorkNotDone) {
  Threads s(4);
  // One thread initialises while the others wait at the barrier that ends it: a quarter of its
  // work is the mean thread's.
  s.retired = {4000, 0, 0, 0};
  EXPECT_EQ(s.read(), 1000u);
  // The barrier opens: all four run 1000 each.
  s.retired = {5000, 1000, 1000, 1000};
  EXPECT_EQ(s.read(), 2000u);
}

TEST(PhaseClock, FinishedThreadsLeaveTheCount) {
  Threads s(3);
  s.retired = {300, 300, 300};
  EXPECT_EQ(s.read(), 300u);
  // Thread 0 finishes within this reading, thread 1 had finished: both ran, thread 1 no longer.
  s.finished = {true, true, false};
  s.retired = {400, 300, 500};
  EXPECT_EQ(s.read(), 450u);  // 300 retired over threads 0 and 2
  s.retired = {400, 300, 800};
  EXPECT_EQ(s.read(), 750u);  // thread 2 alone carries the clock: a chase's one busy thread
  // Nobody left: the clock stands.
  s.finished = {true, true, true};
  EXPECT_EQ(s.read(), 750u);
}

TEST(PhaseClock, AStalledThreadIsWorkNotDone) {
  Threads s(2);
  s.retired = {800, 0};  // thread 1 waits on memory
  EXPECT_EQ(s.read(), 400u);
}

TEST(PhaseClock, FractionsAddUpOverManyReadings) {
  Threads s(3);
  for (uint64_t k = 1; k <= 3000; ++k) {
    s.retired[0] = k;  // a third of an instruction per reading, over three threads
    s.read();
  }
  // Fixed point of 1/65536 instruction: at most one reading's rounding per reading is lost.
  EXPECT_GE(s.clock.instructions(), 999u);
  EXPECT_LE(s.clock.instructions(), 1000u);
}

}  // namespace
}  // namespace starnuma
