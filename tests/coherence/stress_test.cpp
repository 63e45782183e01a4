// Random stress of the coherence protocol: the 64 cores of the scaled 16-socket StarNUMA (4 per
// socket) issue loads, stores and evictions to a small set of hot blocks homed on every socket and
// on the pool. Each core runs on its own clock; the core that is earliest goes next, so requests
// reach the protocol in time order. The checker runs after every transaction.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "coherence/coherence.hpp"
#include "platform/platform.hpp"

namespace starnuma {
namespace {

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

struct StressResult {
  uint64_t violations, started, completed, bt_socket, bt_pool, back_invalidations;
  std::string first;
};

StressResult stress(uint64_t operations, const std::vector<std::string>& sets, uint64_t seed) {
  std::vector<std::string> all = sets;
  all.push_back("coherence.check=true");
  auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml", all);
  Coherence& c = p->coherence();
  const auto& map = p->fabric().address_map();
  // 4 hot blocks in each socket's range and 64 in the pool's.
  std::vector<uint64_t> blocks;
  for (size_t h = 0; h + 1 < map.size(); ++h)
    for (uint64_t k = 0; k < 4; ++k) blocks.push_back(map[h].base + k * 4096);
  for (uint64_t k = 0; k < 64; ++k) blocks.push_back(map.back().base + k * 64);

  constexpr size_t kCores = 64, kPerSocket = 4;
  std::mt19937_64 rng(seed);
  std::vector<Time> clock(kCores);
  for (uint64_t n = 0; n < operations; ++n) {
    const size_t core = static_cast<size_t>(std::min_element(clock.begin(), clock.end()) - clock.begin());
    const size_t socket = core / kPerSocket;
    const uint64_t a = blocks[rng() % blocks.size()];
    const unsigned kind = rng() % 10;
    Time t = clock[core];
    if (kind < 5) t = c.load(socket, a, t).done;
    else if (kind < 8) t = c.store(socket, a, t).done;
    else c.evict(socket, a, t);  // the core does not wait for the acknowledgement
    clock[core] = t + Time::from_ps(1000 + static_cast<int64_t>(rng() % 20000));  // 1-21 ns of work
  }
  p->fabric().check_conservation();
  auto value = [&](const char* name) { return dynamic_cast<const Counter&>(*c.find_stat(name)).value(); };
  auto mean = [&](const char* name) { return dynamic_cast<const Average&>(*c.find_stat(name)).mean(); };
  // The figures docs/coherence.md quotes.
  std::cout << "transactions " << c.started() << ", BT socket " << value("bt_socket") << " mean "
            << mean("bt_socket_latency") << " ns, BT pool " << value("bt_pool") << " mean " << mean("bt_pool_latency")
            << " ns, invalidations/write " << mean("invalidations_per_write") << ", back-invalidations "
            << value("back_invalidations") << "\n";
  return {c.checker().violations(),     c.started(),      c.completed(),
          value("bt_socket"),           value("bt_pool"), value("back_invalidations"),
          c.checker().first_violation()};
}

TEST(CoherenceStress, MillionRandomOperationsOn64CoresHoldTheInvariants) {
  const StressResult r = stress(1'000'000, {}, 1);
  EXPECT_EQ(r.violations, 0u) << r.first;
  EXPECT_EQ(r.started, r.completed);
  EXPECT_GT(r.bt_socket, 10'000u);
  EXPECT_GT(r.bt_pool, 10'000u);
}

TEST(CoherenceStress, SmallPoolDirectoryBackInvalidatesAndStaysCoherent) {
  // 16 entries for 64 hot pool blocks: most pool misses evict an entry.
  const StressResult r = stress(300'000, {"coherence.pool_directory_entries=16", "coherence.pool_directory_ways=4"}, 2);
  EXPECT_EQ(r.violations, 0u) << r.first;
  EXPECT_EQ(r.started, r.completed);
  EXPECT_GT(r.back_invalidations, 10'000u);
}

TEST(CoherenceStress, TheBrokenGetMIsCaughtUnderStress) {
  auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml", {"coherence.check=true"});
  Coherence& c = p->coherence();
  c.set_fault(CohFault::SkipOneInvalidation);
  std::mt19937_64 rng(3);
  const uint64_t base = p->fabric().address_map()[5].base;
  Time t;
  for (int n = 0; n < 10'000; ++n) {
    t = t + Time::from_ps(5000);
    const size_t s = rng() % 16;
    const uint64_t a = base + (rng() % 8) * 64;
    if (rng() % 2) c.load(s, a, t);
    else c.store(s, a, t);
  }
  EXPECT_GT(c.checker().violations(), 0u);
}

}  // namespace
}  // namespace starnuma
