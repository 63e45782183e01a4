#include "run/profile.hpp"

#include <gtest/gtest.h>

namespace starnuma {
namespace {

TEST(Profile, ThreadPrivateDataHasOneSharerPerPage) {
  ProfileOptions o;
  o.workload = "local:footprint=4MiB";
  o.instructions = 200000;
  SharingProfile p = profile_sharing(o);
  EXPECT_GT(p.accesses, 0u);
  EXPECT_DOUBLE_EQ(p.pages_by_sharers[1], 1.0);
  EXPECT_DOUBLE_EQ(p.accesses_by_sharers[1], 1.0);
  EXPECT_LT(p.read_only_pages, 0.1);  // a quarter of the accesses are stores
  EXPECT_TRUE(p.shortfalls.empty()) << p.shortfalls.front();
  EXPECT_EQ(p.to_json()["shortfalls"].size(), 0u);
}

TEST(Profile, StreamsEndingBeforeTheInstructionsAreReported) {
  // Only thread 0 chases, 1000 loads: every stream ends before 200 K instructions.
  ProfileOptions o;
  o.workload = "chase:footprint=1MiB,operations=1000";
  o.instructions = 200000;
  SharingProfile p = profile_sharing(o);
  ASSERT_EQ(p.shortfalls.size(), 1u);
  EXPECT_NE(p.shortfalls[0].find("64 of the 64 threads' streams ended before 200000 instructions"), std::string::npos)
      << p.shortfalls[0];
  EXPECT_EQ(p.to_json()["shortfalls"][0], p.shortfalls[0]);
  EXPECT_NE(format_profile(p).find("WARNING: 64 of the 64 threads"), std::string::npos);
}

TEST(Profile, SharingWorkloadShowsItsDistribution) {
  // Every page shared by exactly 4 sockets (random ones): after the LLC filter, every page that
  // misses at all shows 4 sharers or fewer, most of them 4.
  ProfileOptions o;
  o.workload = "sharing:pages=8192,sharers=4:1.0";
  o.instructions = 400000;
  SharingProfile p = profile_sharing(o);
  double up_to_4 = 0;
  for (unsigned k = 1; k <= 4; ++k) up_to_4 += p.pages_by_sharers[k];
  EXPECT_DOUBLE_EQ(up_to_4, 1.0);
  EXPECT_GT(p.pages_by_sharers[4], 0.8);
}

TEST(Profile, InitialisationIsNotCounted) {
  // The chase's initialisation stores one line per page; the measured part only loads.
  ProfileOptions o;
  o.workload = "chase:footprint=8MiB,operations=100000";
  o.instructions = 200000;
  SharingProfile p = profile_sharing(o);
  EXPECT_DOUBLE_EQ(p.read_only_pages, 1.0);
  EXPECT_DOUBLE_EQ(p.pages_by_sharers[1], 1.0);  // only thread 0 chases
}

}  // namespace
}  // namespace starnuma
