// The DRAM timing calendars keep everything at or after SystemC time, however far ahead bookings
// reach, and reuse what is older: a request that arrives late (in call order) but early in time
// finds its gap before bookings made microseconds ahead of it.
#include <gtest/gtest.h>

#include <systemc>

#include "common/interval_calendar.hpp"
#include "memory/slot_calendar.hpp"

namespace starnuma {
namespace {

constexpr int64_t kSlot = 3333;  // ps: a DDR5-4800 burst

TEST(SlotCalendar, ABookingFarAheadForgetsNothingAfterTheFloor) {
  SlotCalendar c(kSlot);
  for (int64_t s = 0; s < 64; ++s) c.take_found(s);  // the first 64 slots busy
  int64_t far = 0;
  c.first_time(1024 * 300 * kSlot, far);  // 1 ms ahead, in the same word of the initial ring as slot 0
  c.take_found(far);
  EXPECT_GT(c.capacity(), size_t{1024});  // the ring grew instead of forgetting
  int64_t slot = 0;
  EXPECT_EQ(c.first_time(10 * kSlot, slot), 64 * kSlot);    // still behind the 64 busy slots
  EXPECT_EQ(c.first_time(100 * kSlot, slot), 100 * kSlot);  // a free slot stays free
}

TEST(SlotCalendar, WhatIsBeforeSystemCTimeIsReusedWithoutGrowing) {
  SlotCalendar c(kSlot);
  for (int k = 1; k <= 50; ++k) {
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));  // the floor moves on
    const int64_t now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
    int64_t slot = 0;
    EXPECT_EQ(c.first_time(now + 2'000'000, slot), now + 2'000'000);
    c.take_found(slot);  // 2 us ahead of the floor: inside the initial ring
  }
  EXPECT_EQ(c.capacity(), size_t{1024});
}

TEST(IntervalCalendar, ManyBookingsAheadLeaveTheGapBeforeThem) {
  IntervalCalendar bank;
  for (int64_t k = 0; k < 20; ++k) bank.insert(1'000'000 + k * 100'000, 1'000'000 + k * 100'000 + 50'000, 0);
  EXPECT_EQ(bank.fit(0, 40'000), 0);  // the old fixed ring of 8 would have pushed this past its forgotten stretches
  EXPECT_EQ(bank.fit(1'000'000, 40'000), 1'050'000);  // the first booking is still known
  EXPECT_GE(bank.capacity(), 20u);
}

TEST(IntervalCalendar, StretchesEndedBeforeSystemCTimeAreForgotten) {
  IntervalCalendar bank;
  for (int k = 1; k <= 40; ++k) {
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    const int64_t now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
    bank.insert(now + 100'000, now + 150'000, now);
  }
  EXPECT_EQ(bank.capacity(), IntervalCalendar::kInitial);
}

}  // namespace
}  // namespace starnuma
