// The functional pass's LLCs (coherence/functional_llcs.hpp) against the timed protocol: the same
// random loads and stores leave every copy in the same state, are served from memory or a cache
// alike, and a small pool directory's victims leave the same sockets' caches.
#include "coherence/functional_llcs.hpp"

#include <gtest/gtest.h>

#include "coherence/functional_l2s.hpp"

#include <random>

#include "platform/platform.hpp"

namespace starnuma {
namespace {

constexpr unsigned kLineShift = 6;
constexpr int64_t kApart = 10'000'000;  // ps between transactions: each unloaded

struct Machine {
  std::unique_ptr<Platform> p;
  Fabric* fabric;
  Coherence* coh;
  std::vector<FunctionalLlcs::Geometry> llcs;
  explicit Machine(std::vector<std::string> sets) {
    sets.push_back("coherence.check=true");
    p = Platform::build(std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16.yaml", sets);
    fabric = &p->fabric();
    coh = &p->coherence();
    // Large enough that no line of the test leaves an LLC by its replacement: the timed protocol,
    // with no caches attached, only evicts when told.
    llcs.assign(fabric->requesters().size(), {1u << 16, 16, Replacement::Lru});
  }
  uint64_t line_in(size_t range, uint64_t k) const { return (fabric->address_map().at(range).base >> kLineShift) + k; }
};

TEST(FunctionalLlcs, FollowTheTimedProtocolTransactionByTransaction) {
  Machine m({"coherence.pool_directory_entries=64", "coherence.pool_directory_ways=4"});
  FunctionalLlcs f(*m.fabric, m.llcs, *m.coh, 1, true);
  const size_t sockets = m.llcs.size(), pool = m.fabric->address_map().size() - 1;
  std::vector<uint64_t> lines;  // 150 pool lines (more than its directory holds), 50 socket-homed
  for (uint64_t k = 0; k < 150; ++k) lines.push_back(m.line_in(pool, k * 7));
  for (uint64_t k = 0; k < 50; ++k) lines.push_back(m.line_in(k % sockets, k));
  std::mt19937_64 rng(5);
  Time t;
  uint64_t memory = 0, transfers = 0, upgrades = 0;
  for (int step = 0; step < 20000; ++step) {
    const size_t s = rng() % sockets;
    const uint64_t line = lines[rng() % (step < 10000 ? 40 : lines.size())];  // shared hard first, then spread
    const bool store = rng() % 3 == 0;
    t = t + Time::from_ps(kApart);
    const Coherence::Result timed =
        store ? m.coh->store(s, line << kLineShift, t) : m.coh->load(s, line << kLineShift, t);
    const FunctionalLlcs::Outcome out = f.access(s, line, store);
    ASSERT_EQ(out.hit, timed.path == CohPath::Hit || timed.path == CohPath::Upgrade) << "step " << step;
    ASSERT_EQ(out.memory_read, timed.path == CohPath::Memory) << "step " << step;
    memory += timed.path == CohPath::Memory;
    transfers += timed.path == CohPath::BtPool || timed.path == CohPath::BtSocket;
    upgrades += timed.path == CohPath::Upgrade;
    if (step % 97 != 0 && step != 19999) continue;
    for (uint64_t l : lines)
      for (size_t k = 0; k < sockets; ++k)
        ASSERT_EQ(f.state(k, l), m.coh->state(k, l << kLineShift)) << "step " << step << " socket " << k;
  }
  EXPECT_EQ(m.coh->checker().violations(), 0u) << m.coh->checker().first_violation();
  EXPECT_GT(memory, 1000u);
  EXPECT_GT(transfers, 1000u);
  EXPECT_GT(upgrades, 100u);
  // The pool's directory kept at most its 64 entries of the 150 lines: its victims were
  // back-invalidated, in both.
  const CacheContents c = f.contents();
  ASSERT_EQ(c.directories.size(), m.fabric->homes().size());  // the sockets' and the pool's, last
  EXPECT_EQ(c.directories.back().entries, 64u);
  EXPECT_LE(c.directories.back().records.size(), 64u);
  EXPECT_EQ(c.directories.front().entries, 0u);  // unbounded
  uint64_t pool_copies = 0;
  for (size_t k = 0; k < sockets; ++k)
    for (size_t i = 0; i < 150; ++i) pool_copies += f.state(k, lines[i]) != MesiState::I;
  EXPECT_GT(pool_copies, 0u);
}

TEST(FunctionalLlcs, AMovedPagesLinesLeaveEveryLlcAndTheirOwnersDirectoryEntry) {
  Machine m({});
  FunctionalLlcs f(*m.fabric, m.llcs, *m.coh, 1, true);
  const uint64_t a = m.line_in(2, 64), b = a + 1;
  f.access(0, a, true);   // M at socket 0
  f.access(1, b, false);  // E at socket 1
  f.access(3, b, false);  // S at 1 and 3
  EXPECT_EQ(f.state(0, a), MesiState::M);
  EXPECT_EQ(f.state(3, b), MesiState::S);
  f.evict_lines(a, 64);
  for (size_t s : {0, 1, 3}) {
    EXPECT_EQ(f.state(s, a), MesiState::I);
    EXPECT_EQ(f.state(s, b), MesiState::I);
  }
  // The owner's entry left with it: the next load is alone, exclusive, from memory.
  const FunctionalLlcs::Outcome o = f.access(5, a, false);
  EXPECT_TRUE(o.memory_read);
  EXPECT_EQ(f.state(5, a), MesiState::E);
}

// The cores' L2s in front of coherent LLCs (functional_l2s.hpp): a line an L2 holds is served
// there; a store completes there only over an E or M copy; a copy leaving the socket's LLC (the
// protocol's, a moved page's) leaves its cores' L2s; without coherence the LLC is not inclusive.
TEST(FunctionalLlcs, TheCoresL2sServeWhatTheyHoldAndLoseWhatTheirLlcLoses) {
  Machine m({});
  const size_t sockets = m.fabric->requesters().size();
  const std::vector<FunctionalL2s::Geometry> threads{
      {1024, 16, Replacement::Lru, 0}, {1024, 16, Replacement::Lru, 0}, {1024, 16, Replacement::Lru, 1}};
  FunctionalLlcs f(*m.fabric, m.llcs, *m.coh, 1, true);
  FunctionalL2s l2s(threads, sockets, 1);
  f.attach(&l2s);
  const uint64_t a = m.line_in(2, 64);
  EXPECT_FALSE(l2s.serves(0, a));
  f.access(0, a, false);  // E at socket 0
  l2s.fill(0, a);
  EXPECT_TRUE(l2s.serves(0, a));
  EXPECT_FALSE(l2s.serves(1, a));       // the other core of socket 0 has not read it
  EXPECT_TRUE(f.store_in_place(0, a));  // E: the store stays in the core, the copy becomes M
  EXPECT_EQ(f.state(0, a), MesiState::M);
  f.access(2, a, false);  // socket 2 reads it: both S
  EXPECT_EQ(f.state(0, a), MesiState::S);
  EXPECT_TRUE(l2s.serves(0, a));         // S stays in the L2
  EXPECT_FALSE(f.store_in_place(0, a));  // a store to S needs the protocol
  f.access(1, a, true);                  // socket 1's thread 2 takes it: socket 0's copy leaves
  l2s.fill(2, a);
  EXPECT_FALSE(l2s.serves(0, a));
  EXPECT_TRUE(l2s.serves(2, a));
  f.evict_lines(a, 64);  // a moved page's frame
  EXPECT_FALSE(l2s.serves(2, a));

  // Not coherent: an LLC's victim stays in its L2s; a moved page's lines still leave them.
  FunctionalLlcs plain(*m.fabric, std::vector<FunctionalLlcs::Geometry>(sockets, {1024, 16, Replacement::Lru}), *m.coh,
                       1, false);
  FunctionalL2s plain_l2s(threads, sockets, 1);
  plain.attach(&plain_l2s);
  plain.access(0, a, false);
  plain_l2s.fill(0, a);
  for (uint64_t k = 1; k <= 16; ++k) plain.access(0, a + k * 64, false);  // a leaves its set of 16 ways
  EXPECT_EQ(plain.state(0, a), MesiState::I);
  EXPECT_TRUE(plain_l2s.serves(0, a));
  EXPECT_TRUE(plain.store_in_place(0, a));
  plain.evict_lines(a, 1);
  EXPECT_FALSE(plain_l2s.serves(0, a));
}

TEST(FunctionalLlcs, ContentsListEachSetsLeastRecentLineFirstWithItsState) {
  Machine m({});
  m.llcs.assign(m.llcs.size(), {64, 4, Replacement::Lru});  // 16 sets
  FunctionalLlcs f(*m.fabric, m.llcs, *m.coh, 1, true);
  const uint64_t base = m.line_in(1, 0);
  f.access(0, base, false);      // set 0: E
  f.access(0, base + 16, true);  // set 0: M, more recent
  f.access(0, base + 1, false);  // set 1
  f.access(2, base + 1, false);  // shared with socket 2
  f.access(0, base, false);      // set 0's first line is now the most recent
  const CacheContents c = f.contents();
  ASSERT_EQ(c.llcs.size(), m.llcs.size());
  const auto entry = [](uint64_t line, MesiState s) { return line << 2 | static_cast<uint64_t>(s); };
  EXPECT_EQ(c.llcs[0].entries, (std::vector<uint64_t>{entry(base + 16, MesiState::M), entry(base, MesiState::E),
                                                      entry(base + 1, MesiState::S)}));
  EXPECT_EQ(c.llcs[2].entries, (std::vector<uint64_t>{entry(base + 1, MesiState::S)}));
  EXPECT_EQ(c.llcs[0].lines, 64u);
  // Socket 1's directory lists the three lines, by block; the others none.
  ASSERT_EQ(c.directories.size(), m.fabric->homes().size());
  for (size_t h = 0; h < c.directories.size(); ++h) EXPECT_EQ(c.directories[h].records.size(), h == 1 ? 3u : 0u);
  EXPECT_EQ(c.directories[1].records[1].block, base + 1);
  EXPECT_EQ(c.directories[1].records[1].sharers, 0b101u);
}

TEST(FunctionalLlcs, WithoutCoherenceEachLlcCachesOnItsOwn) {
  Machine m({});
  FunctionalLlcs f(*m.fabric, m.llcs, *m.coh, 1, false);
  const uint64_t a = m.line_in(0, 3);
  EXPECT_TRUE(f.access(0, a, true).memory_read);
  EXPECT_TRUE(f.access(1, a, true).memory_read);
  EXPECT_TRUE(f.access(0, a, false).hit);  // not taken by socket 1's store
  const CacheContents c = f.contents();
  EXPECT_FALSE(c.coherent);
  EXPECT_TRUE(c.directories.empty());
  EXPECT_EQ(c.llcs[0].entries, (std::vector<uint64_t>{a << 2 | static_cast<uint64_t>(MesiState::M)}));
}

}  // namespace
}  // namespace starnuma
