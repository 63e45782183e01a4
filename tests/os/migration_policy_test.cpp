// Algorithm 1 on hand-built scans: one test per branch, and the thresholds' adaptation.
#include <gtest/gtest.h>

#include "os/migration_policy.hpp"

using namespace starnuma;

namespace {

// Four sockets on nodes 0-3, the pool on node 4; more than 2 sharers go to the pool.
PolicyConfig four_sockets(uint64_t limit = 1000) {
  PolicyConfig c;
  c.sockets = 4;
  c.pool = 4;
  c.pool_sharers = 2;
  c.hi_start = 100;
  c.lo_start = 10;
  c.lo_max = 40;
  c.limit_pages = limit;
  return c;
}

ScannedRegion region(uint64_t id, size_t location, uint64_t hotness, uint64_t sharers, uint64_t pages = 128) {
  ScannedRegion g;
  g.id = id;
  g.location = location;
  g.hotness = hotness;
  g.sharers = sharers;
  g.pages = pages;
  return g;
}

const std::vector<uint64_t> kRoom(5, 100000);

}  // namespace

TEST(MigrationPolicy, AHotRegionOfFewSharersGoesToOneOfThem) {
  MigrationPolicy p(four_sockets(), 1);
  const PhaseDecision d = p.decide({region(0, 0, 500, 0b0110)}, kRoom, 1);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_TRUE(d.moves[0].to == 1 || d.moves[0].to == 2);
  EXPECT_EQ(d.moves[0].from, 0u);
  EXPECT_EQ(d.moves[0].kind, MoveKind::Candidate);
  EXPECT_EQ(d.pages, 128u);
}

TEST(MigrationPolicy, ARandomSharerIsEachSharerSometimes) {
  MigrationPolicy p(four_sockets(100000), 7);
  std::vector<ScannedRegion> scan;
  for (uint64_t r = 0; r < 200; ++r) scan.push_back(region(r, 3, 500, 0b0011, 1));
  const PhaseDecision d = p.decide(scan, kRoom, 1);
  size_t to0 = 0, to1 = 0;
  for (const Move& m : d.moves) (m.to == 0 ? to0 : to1)++;
  EXPECT_EQ(to0 + to1, 200u);
  EXPECT_GT(to0, 60u);
  EXPECT_GT(to1, 60u);
}

TEST(MigrationPolicy, AHotWidelySharedRegionGoesToThePool) {
  MigrationPolicy p(four_sockets(), 1);
  const PhaseDecision d = p.decide({region(0, 1, 500, 0b0111)}, kRoom, 1);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_EQ(d.moves[0].to, 4u);
}

TEST(MigrationPolicy, WithoutAPoolWidelySharedRegionsGoToASharer) {
  PolicyConfig c = four_sockets();
  c.pool = static_cast<size_t>(-1);
  MigrationPolicy p(c, 1);
  const PhaseDecision d = p.decide({region(0, 3, 500, 0b0111)}, kRoom, 1);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_LT(d.moves[0].to, 3u);
}

TEST(MigrationPolicy, TheScansPreferredSocketWins) {  // the baseline's perfect knowledge
  MigrationPolicy p(four_sockets(), 1);
  ScannedRegion g = region(0, 0, 500, 0b0011, 1);
  g.preferred = 1;
  const PhaseDecision d = p.decide({g}, kRoom, 1);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_EQ(d.moves[0].to, 1u);
}

TEST(MigrationPolicy, ColdRegionsStay) {
  MigrationPolicy p(four_sockets(), 1);
  const PhaseDecision d = p.decide({region(0, 0, 100, 0b1110)}, kRoom, 1);  // not over HI
  EXPECT_TRUE(d.moves.empty());
  EXPECT_EQ(d.candidates, 0u);
}

TEST(MigrationPolicy, ARegionAlreadyHomeStays) {
  MigrationPolicy p(four_sockets(), 1);
  const PhaseDecision d = p.decide({region(0, 4, 500, 0b1111), region(1, 2, 500, 0b0100)}, kRoom, 1);
  EXPECT_TRUE(d.moves.empty());
  EXPECT_EQ(d.home, 2u);
}

TEST(MigrationPolicy, APingPongingRegionIsSkipped) {
  MigrationPolicy p(four_sockets(), 1);
  ScannedRegion g = region(0, 0, 500, 0b1110);
  g.moves = 2;  // more than a quarter of phase 7
  PhaseDecision d = p.decide({g}, kRoom, 7);
  EXPECT_TRUE(d.moves.empty());
  EXPECT_EQ(d.ping_pong, 1u);
  MigrationPolicy q(four_sockets(), 1);
  d = q.decide({g}, kRoom, 8);  // exactly a quarter of phase 8: not more
  EXPECT_EQ(d.moves.size(), 1u);
}

TEST(MigrationPolicy, AFullDestinationLosesAColdVictimToOneOfItsSharers) {
  MigrationPolicy p(four_sockets(), 1);
  std::vector<uint64_t> room = kRoom;
  room[4] = 100;  // the pool has room for 100 pages: a 128-page region needs a victim
  const std::vector<ScannedRegion> scan = {region(0, 4, 50, 0b0001),  // too hot to be a victim (LO 10)
                                           region(1, 4, 5, 0b1000),   // the victim
                                           region(2, 1, 500, 0b1111)};
  const PhaseDecision d = p.decide(scan, room, 1);
  ASSERT_EQ(d.moves.size(), 2u);
  EXPECT_EQ(d.moves[0].kind, MoveKind::Victim);
  EXPECT_EQ(d.moves[0].region, 1u);
  EXPECT_EQ(d.moves[0].to, 3u);  // its only sharer
  EXPECT_EQ(d.moves[1].region, 2u);
  EXPECT_EQ(d.moves[1].to, 4u);
}

TEST(MigrationPolicy, AnotherJudgesColdnessInsteadOfLo) {  // the CHMU's (os/chmu_policy.cpp)
  MigrationPolicy p(four_sockets(), 1);
  std::vector<uint64_t> room = kRoom;
  room[4] = 100;
  std::vector<ScannedRegion> scan = {region(0, 4, 5, 0b0001),   // cold by LO, but judged hot: stays
                                     region(1, 4, 50, 0b0100),  // hot by LO, but judged cold: the victim
                                     region(2, 1, 500, 0b1111)};
  scan[0].coldness = ScannedRegion::Coldness::Hot;
  scan[1].coldness = ScannedRegion::Coldness::Cold;
  const PhaseDecision d = p.decide(scan, room, 1);
  ASSERT_EQ(d.moves.size(), 2u);
  EXPECT_EQ(d.moves[0].kind, MoveKind::Victim);
  EXPECT_EQ(d.moves[0].region, 1u);
  EXPECT_EQ(d.moves[0].to, 2u);  // its only sharer
  EXPECT_EQ(d.moves[1].region, 2u);
}

TEST(MigrationPolicy, NoVictimMeansNoMoveAndAHigherLo) {
  MigrationPolicy p(four_sockets(), 1);
  std::vector<uint64_t> room = kRoom;
  room[4] = 0;
  const PhaseDecision d = p.decide({region(0, 4, 50, 0b0001), region(1, 1, 500, 0b1111)}, room, 1);
  EXPECT_TRUE(d.moves.empty());
  EXPECT_EQ(d.no_victim, 1u);
  EXPECT_EQ(p.lo(), 20u);  // doubled, for the next phase
  for (int k = 0; k < 5; ++k) p.decide({region(1, 1, 500, 0b1111)}, room, 2 + k);
  EXPECT_EQ(p.lo(), 40u);  // up to lo_max
}

TEST(MigrationPolicy, ThePassEndsOnceTheLimitIsReached) {
  MigrationPolicy p(four_sockets(200), 1);
  std::vector<ScannedRegion> scan;
  for (uint64_t r = 0; r < 5; ++r) scan.push_back(region(r, 0, 500, 0b1110));
  PhaseDecision d = p.decide(scan, kRoom, 1);
  EXPECT_EQ(d.moves.size(), 2u);  // 128 pages, then 256 >= 200: stop
  EXPECT_TRUE(d.limit_reached);
  MigrationPolicy none(four_sockets(0), 1);
  d = none.decide(scan, kRoom, 1);
  EXPECT_TRUE(d.moves.empty());  // a limit of 0 moves nothing
}

TEST(MigrationPolicy, HiFollowsTheCandidatesAgainstTheLimit) {
  MigrationPolicy p(four_sockets(128), 1);
  std::vector<ScannedRegion> scan;
  for (uint64_t r = 0; r < 4; ++r) scan.push_back(region(r, 0, 500, 0b0001));  // hot, already home
  p.decide(scan, kRoom, 1);
  EXPECT_EQ(p.hi(), 400u);  // 512 candidate pages for a limit of 128: x4
  p.decide({region(0, 0, 10, 0b0001)}, kRoom, 2);
  EXPECT_EQ(p.hi(), 50u);  // accesses, but none over HI: at most /8 a phase
  p.decide({region(0, 0, 0, 0)}, kRoom, 3);
  EXPECT_EQ(p.hi(), 50u);  // a scan that saw no access (before the first phase mark) teaches nothing
}

TEST(MigrationPolicy, T0HasFixedThresholds) {
  PolicyConfig c = four_sockets();
  c.hi_start = 3;  // hotness is the sharer count: all four sockets
  c.lo_start = c.lo_max = 0;
  c.adapt = false;
  MigrationPolicy p(c, 1);
  const PhaseDecision d = p.decide({region(0, 0, 3, 0b0111), region(1, 0, 4, 0b1111)}, kRoom, 1);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_EQ(d.moves[0].region, 1u);
  EXPECT_EQ(p.hi(), 3u);
}

TEST(MigrationPolicy, SameSeedSameDecisions) {
  std::vector<ScannedRegion> scan;
  for (uint64_t r = 0; r < 50; ++r) scan.push_back(region(r, r % 4, 200 + r, 0b1011, 1));
  MigrationPolicy a(four_sockets(), 3), b(four_sockets(), 3);
  const PhaseDecision x = a.decide(scan, kRoom, 1), y = b.decide(scan, kRoom, 1);
  ASSERT_EQ(x.moves.size(), y.moves.size());
  for (size_t k = 0; k < x.moves.size(); ++k) EXPECT_EQ(x.moves[k].to, y.moves[k].to);
}
