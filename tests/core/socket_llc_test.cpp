// The socket's LLC keeps in each tag which of its cores may hold the line in their L1 or L2, so
// that a line leaving it (an invalidation, a victim) is looked up only in those cores' caches; an
// LLC whose tags have no room for the bits looks up every core's. Either way every private copy
// goes with the line.
#include <gtest/gtest.h>

#include "harness/one_core.hpp"

namespace starnuma {
namespace {

constexpr uint64_t kVaddrA = 9ull << 21, kVaddrB = 11ull << 21;

// A second core of socket0 on the same LLC as the harness's.
struct SecondCore {
  StatsOwner owner;
  MemoryStats stats{owner};
  std::unique_ptr<CacheHierarchy> caches;
  SecondCore(OneCore& c, SocketLlc& llc) {
    CacheHierarchy::RunContext run{c.pages.get(), &llc, nullptr};
    caches = std::make_unique<CacheHierarchy>(c.s0.core_config(), CacheHierarchy::Uplink{&c.fabric, 0, 1}, run, c.cycle,
                                              stats, 2);
  }
};

uint64_t line_of(OneCore& c, uint64_t vaddr) { return c.pages->peek(vaddr) >> 6; }

TEST(SocketLlc, ItsTagsNameTheCoresThatFilledALine) {
  OneCore c({"topology.socket.core.page_walk.model=fixed"});
  ASSERT_TRUE(c.llc->tracks_cores());
  SecondCore other(c, *c.llc);
  c.caches->access(kVaddrA, false, 0);
  other.caches->access(kVaddrB, false, 0);
  c.caches->access(kVaddrB, true, 10'000'000'000);  // core 0 finds B in the LLC and fills it too
  const uint64_t a = line_of(c, kVaddrA), b = line_of(c, kVaddrB);
  EXPECT_EQ(c.llc->array.state(a) >> SocketLlc::kCoreShift, 0b01u);
  EXPECT_EQ(c.llc->array.state(b) >> SocketLlc::kCoreShift, 0b11u);
  EXPECT_EQ(c.llc->state(a), MesiState::I);  // the MESI bits are apart (no coherence here)

  // B leaves the LLC: both cores' copies go.
  ASSERT_TRUE(c.caches->certain_l1_hit(kVaddrB));
  c.llc->invalidated(b);
  EXPECT_FALSE(c.caches->certain_l1_hit(kVaddrB));
  EXPECT_FALSE(other.caches->invalidate_private(b));  // nothing left to drop
  EXPECT_TRUE(c.caches->certain_l1_hit(kVaddrA));     // A stays
  c.llc->invalidated(a);
  EXPECT_FALSE(c.caches->certain_l1_hit(kVaddrA));
}

TEST(SocketLlc, WithoutRoomForCoreBitsEveryCoreIsLookedUp) {
  OneCore c({"topology.socket.core.page_walk.model=fixed"});
  // A physical address space of 2^46 lines leaves no tag bits for cores.
  SocketLlc wide(c.s0.llc_config(), c.s0.cores(), 1, uint64_t{1} << 46);
  EXPECT_FALSE(wide.tracks_cores());
  SecondCore core(c, wide);
  core.caches->access(kVaddrA, false, 0);
  const uint64_t a = line_of(c, kVaddrA);
  EXPECT_EQ(wide.array.state(a), 0u);  // MESI bits only, and no coherence: I
  ASSERT_TRUE(core.caches->certain_l1_hit(kVaddrA));
  wide.invalidated(a);
  EXPECT_FALSE(core.caches->certain_l1_hit(kVaddrA));
}

// An LLC built for fewer cores than join it (its tags have a bit for one core): the second core
// gets no bit, and from then on every core is looked up, so its copy still goes.
TEST(SocketLlc, ACoreBeyondItsBitsIsLookedUpAllTheSame) {
  OneCore c({"topology.socket.core.page_walk.model=fixed"});
  SocketLlc one(c.s0.llc_config(), 1, 1, c.fabric.map_end() / kLineBytes);
  ASSERT_TRUE(one.tracks_cores());
  SecondCore first(c, one), second(c, one);
  EXPECT_FALSE(one.tracks_cores());
  second.caches->access(kVaddrA, false, 0);
  const uint64_t a = line_of(c, kVaddrA);
  ASSERT_TRUE(second.caches->certain_l1_hit(kVaddrA));
  one.invalidated(a);
  EXPECT_FALSE(second.caches->certain_l1_hit(kVaddrA));
}

}  // namespace
}  // namespace starnuma
