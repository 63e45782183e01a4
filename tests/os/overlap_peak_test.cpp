// The peak of page copies in flight, from copies that arrive out of time order.
#include <gtest/gtest.h>

#include "os/page_mover.hpp"

namespace starnuma {
namespace {

TEST(OverlapPeak, CountsOverlapInTimeNotInArrivalOrder) {
  OverlapPeak p;
  // Three copies arrive before any settles, each ending before the next begins: never two at once,
  // although all three are unsettled together.
  p.add(0, 10);
  p.add(20, 30);
  p.add(10, 20);  // begins where the first ends: no overlap
  EXPECT_EQ(p.peak(), 1u);
  p.settle(15);
  EXPECT_EQ(p.peak(), 1u);
  // Arrives late but begins before one still open ends.
  p.add(25, 40);
  p.add(26, 27);
  EXPECT_EQ(p.peak(), 3u);
  p.settle(100);
  EXPECT_EQ(p.peak(), 3u);
  p.add(200, 300);  // after the peak: it stays
  EXPECT_EQ(p.peak(), 3u);
}

TEST(OverlapPeak, EmptyIsZero) { EXPECT_EQ(OverlapPeak{}.peak(), 0u); }

}  // namespace
}  // namespace starnuma
