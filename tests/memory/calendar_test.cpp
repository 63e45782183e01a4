// The DRAM timing calendars keep everything at or after SystemC time, however far ahead bookings
// reach, and reuse what is older: a request that arrives late (in call order) but early in time
// finds its gap before bookings made microseconds ahead of it.
#include <gtest/gtest.h>

#include <systemc>

#include "common/interval_calendar.hpp"
#include "common/request_floor.hpp"
#include "memory/slot_calendar.hpp"

namespace starnuma {
namespace {

constexpr int64_t kSlot = 3333;         // ps: a DDR5-4800 burst
constexpr int64_t kUs = 1'000'000'000;  // fs

void advance_to_us(int us) { sc_core::sc_start(sc_core::sc_time(us, sc_core::SC_US) - sc_core::sc_time_stamp()); }

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

// A core that waited inside an access (a page walk's read) sends its next accesses at its own
// time, behind SystemC's: it holds the floor there until its accesses catch up.
TEST(RequestFloor, AnInitiatorBehindSystemCTimeHoldsItUntilItCatchesUp) {
  FloorHold core, other;
  advance_to_us(1);
  EXPECT_EQ(request_floor_fs(), 1 * kUs);  // nobody holds it: SystemC time
  core.serve(1 * kUs);
  core.hold_served();  // before its wait
  advance_to_us(6);
  EXPECT_EQ(request_floor_fs(), 1 * kUs);
  other.serve(6 * kUs);
  other.hold_served();
  core.serve(2 * kUs);  // still behind: the hold follows it
  EXPECT_EQ(request_floor_fs(), 2 * kUs);
  core.hold(kUs / 2);  // never back past the floor: what was forgotten stays forgotten
  EXPECT_EQ(request_floor_fs(), 2 * kUs);
  core.serve(6 * kUs);  // caught up
  EXPECT_FALSE(core.held());
  EXPECT_EQ(request_floor_fs(), 6 * kUs);  // the other's hold
  advance_to_us(8);
  EXPECT_EQ(request_floor_fs(), 6 * kUs);
  other.release();
  EXPECT_EQ(request_floor_fs(), 8 * kUs);
}

// What a held initiator may still need is kept: a bank's stretch after the hold stays booked while
// SystemC time runs 40 us ahead, and is forgotten once the hold ends.
TEST(IntervalCalendar, KeepsWhatAnInitiatorBehindSystemCTimeMayStillNeed) {
  IntervalCalendar bank;
  FloorHold core;
  advance_to_us(1);
  core.serve(1 * kUs);
  core.hold_served();
  for (int us = 2; us <= 41; ++us) {
    advance_to_us(us);
    const int64_t now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
    bank.insert(now + 100'000, now + 150'000, now);
  }
  EXPECT_GE(bank.capacity(), 40u);
  EXPECT_EQ(bank.fit(2'100'000, 40'000), 2'150'000);  // the core's access at 2.1 us meets the booking there
  core.release();
  for (int us = 42; us <= 81; ++us) {
    advance_to_us(us);
    const int64_t now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
    bank.insert(now + 100'000, now + 150'000, now);
  }
  EXPECT_GT(bank.fit(2'100'000, 40'000), 2'150'000);  // forgotten: nothing can arrive there any more
}

TEST(SlotCalendar, KeepsWhatAnInitiatorBehindSystemCTimeMayStillNeed) {
  SlotCalendar bus(kSlot);
  FloorHold core;
  advance_to_us(1);
  core.serve(1 * kUs);
  core.hold_served();
  int64_t slot = 0;
  for (int us = 2; us <= 51; ++us) {
    advance_to_us(us);
    const int64_t now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
    bus.first_time(now, slot);
    bus.take_found(slot);
  }
  EXPECT_GT(bus.capacity(), size_t{1024});           // grew instead of reusing what the core may need
  const int64_t booked = 2'000'000 / kSlot * kSlot;  // the slot taken at 2 us
  EXPECT_EQ(bus.first_time(booked, slot), booked + kSlot);
}

}  // namespace
}  // namespace starnuma
