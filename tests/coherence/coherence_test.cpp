// Directory MESI coherence: transitions, the unloaded block-transfer latencies against the link
// parameters, the pool directory's back-invalidations, and the invariant checker (it must catch a
// broken transition).
#include <gtest/gtest.h>

#include "coherence/coherence.hpp"
#include "core/cache_hierarchy.hpp"
#include "platform/platform.hpp"
#include "socket/socket.hpp"

namespace starnuma {
namespace {

using namespace literals;

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";
constexpr int64_t kApart = 10'000'000;  // ps between unloaded transactions: the fabric is idle again

struct Machine {
  std::unique_ptr<Platform> p;
  Coherence* coh;
  Fabric* fabric;
  explicit Machine(const std::string& file, std::vector<std::string> sets = {}) {
    sets.push_back("coherence.check=true");
    p = Platform::build(kPlatforms + file, sets);
    coh = &p->coherence();
    fabric = &p->fabric();
  }
  uint64_t base(size_t range) const { return fabric->address_map().at(range).base; }
  size_t pool_range() const { return fabric->address_map().size() - 1; }
};

// The one-way latency between two sockets in the paper's table (docs/fabric.md): 25 ns within a
// chassis (UPI ports and link), 140 ns across chassis (UPI, FLEX ASIC, NUMALink, FLEX, UPI).
double one_way(size_t a, size_t b) { return a == b ? 0 : a / 4 == b / 4 ? 25 : 140; }

TEST(Coherence, TransitionsOfOneBlock) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  const uint64_t a = m.base(2) + 4096;  // homed at socket2
  Time t;
  auto step = [&] { return t = t + Time::from_ps(kApart); };
  EXPECT_EQ(c.load(0, a, step()).path, CohPath::Memory);
  EXPECT_EQ(c.state(0, a), MesiState::E);  // alone: exclusive
  EXPECT_EQ(c.store(0, a, step()).path, CohPath::Hit);
  EXPECT_EQ(c.state(0, a), MesiState::M);  // E -> M silently
  EXPECT_EQ(c.load(1, a, step()).path, CohPath::BtSocket);
  EXPECT_EQ(c.state(0, a), MesiState::S);
  EXPECT_EQ(c.state(1, a), MesiState::S);
  EXPECT_EQ(c.store(1, a, step()).path, CohPath::Upgrade);
  EXPECT_EQ(c.state(0, a), MesiState::I);
  EXPECT_EQ(c.state(1, a), MesiState::M);
  EXPECT_EQ(c.store(5, a, step()).path, CohPath::BtSocket);
  EXPECT_EQ(c.state(1, a), MesiState::I);
  c.evict(5, a, step());  // PutM
  EXPECT_EQ(c.state(5, a), MesiState::I);
  EXPECT_EQ(c.load(3, a, step()).path, CohPath::Memory);  // the PutM's data is in memory
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
  EXPECT_GT(c.checker().checks(), 5u);
  EXPECT_EQ(c.started(), c.completed());
}

TEST(Coherence, UnloadedThreeHopAverageMatchesTheLinkParameters) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  Time t;
  double sum_link = 0;
  int n = 0;
  for (size_t h = 0; h < 16; ++h)
    for (size_t r = 0; r < 16; ++r)
      for (size_t o = 0; o < 16; ++o) {
        if (r == o) continue;  // the owner is another socket
        const uint64_t a = m.base(h) + static_cast<uint64_t>(n) * 64;
        c.store(o, a, t = t + Time::from_ps(kApart));
        const Time issue = t = t + Time::from_ps(kApart);
        const Coherence::Result res = c.load(r, a, issue);
        ASSERT_EQ(res.path, CohPath::BtSocket);
        const double link = one_way(r, h) + one_way(h, o) + one_way(o, r);
        // 80 outside the links: on die at R 40, directory lookup 20, owner snoop 20.
        ASSERT_EQ((res.done - issue).ns(), 80 + link) << r << " " << h << " " << o;
        ASSERT_EQ(c.unloaded_bt_socket(r, h, o), res.done - issue);
        sum_link += link;
        ++n;
      }
  // All R != O, any H (H = R or H = O make a hop on die): 5382 / 16 = 336.375 ns of link time.
  EXPECT_DOUBLE_EQ(sum_link / n, 336.375);
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
}

TEST(Coherence, UnloadedFourHopViaThePoolIs200OfLinkTime) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  Time t;
  int n = 0;
  for (size_t r = 0; r < 16; ++r)
    for (size_t o = 0; o < 16; ++o) {
      if (r == o) continue;
      const uint64_t a = m.base(m.pool_range()) + static_cast<uint64_t>(n++) * 64;
      c.store(o, a, t = t + Time::from_ps(kApart));
      const Time issue = t = t + Time::from_ps(kApart);
      const Coherence::Result res = c.load(r, a, issue);
      ASSERT_EQ(res.path, CohPath::BtPool);
      // Four CXL crossings of 40 (ports 12.5 + 12.5, retimer 10, flight 5) and four MHD internal
      // crossings of 10: 200 ns; plus on die 40, pool directory 20, owner snoop 20: 280 ns.
      ASSERT_EQ((res.done - issue).ns(), 280) << r << " " << o;
      ASSERT_EQ(c.unloaded_bt_pool(r, m.pool_range(), o), res.done - issue);
    }
}

TEST(Coherence, UnloadedMemoryReadsKeepTheirLatency) {
  // With no owner the DRAM read overlaps the directory lookup: 80 / 130 / 360 / 180 as without.
  Machine m("starnuma16.yaml");
  Time t;
  const double want[] = {80, 130, 360};
  for (size_t h : {0u, 1u, 8u}) {
    const Time issue = t = t + Time::from_ps(kApart);
    EXPECT_EQ((m.coh->load(0, m.base(h) + 64, issue).done - issue).ns(), want[h == 0 ? 0 : h == 1 ? 1 : 2]);
  }
  const Time issue = t = t + Time::from_ps(kApart);
  EXPECT_EQ((m.coh->load(0, m.base(m.pool_range()) + 64, issue).done - issue).ns(), 180);
}

TEST(Coherence, InvalidationsGoToEverySharer) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  const uint64_t a = m.base(m.pool_range()) + 128;
  Time t;
  for (size_t s = 0; s < 6; ++s) c.load(s, a, t = t + Time::from_ps(kApart));
  c.store(7, a, t = t + Time::from_ps(kApart));
  for (size_t s = 0; s < 6; ++s) EXPECT_EQ(c.state(s, a), MesiState::I);
  EXPECT_EQ(c.state(7, a), MesiState::M);
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
}

// What a socket asks before it starts a transaction at its own time (CacheHierarchy).
TEST(Coherence, HeldElsewhereNamesOnlyOtherSocketsCopies) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  for (const uint64_t a : {m.base(2) + 64, m.base(m.pool_range()) + 64}) {  // socket-homed and pool-homed
    Time t;
    EXPECT_FALSE(c.held_elsewhere(0, a));  // cached nowhere
    c.load(0, a, t = t + Time::from_ps(kApart));
    EXPECT_FALSE(c.held_elsewhere(0, a));  // its own E copy
    EXPECT_TRUE(c.held_elsewhere(1, a));
    c.load(1, a, t = t + Time::from_ps(kApart));  // both S
    EXPECT_TRUE(c.held_elsewhere(0, a));
    EXPECT_TRUE(c.held_elsewhere(1, a));
    EXPECT_TRUE(c.held_elsewhere(9, a));
    c.store(1, a, t = t + Time::from_ps(kApart));  // socket 1 alone, M
    EXPECT_TRUE(c.held_elsewhere(0, a));
    EXPECT_FALSE(c.held_elsewhere(1, a));
  }
}

TEST(Coherence, ARequestWithItsStateKnownActsAsOneThatLooksItUp) {
  // Two blocks of the pool take the same steps on an idle fabric, one asked the usual way, the
  // other naming the requester's state as its LLC found it.
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  const uint64_t looked = m.base(m.pool_range()) + 128, named = looked + 4096;
  Time t;
  for (const auto& [s, write] : std::vector<std::pair<size_t, bool>>{{0, false}, {1, false}, {1, true}, {0, true}}) {
    const Time first = t = t + Time::from_ps(kApart);
    const Coherence::Result x = write ? c.store(s, looked, first) : c.load(s, looked, first);
    const Time second = t = t + Time::from_ps(kApart);
    const Coherence::Result y = c.request(s, named, write, c.state(s, named), second);
    EXPECT_EQ(x.done - first, y.done - second);
    EXPECT_EQ(x.path, y.path);
    EXPECT_EQ(x.granted, y.granted);
  }
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
  // With checking on, a state the copy is not in is the caller's bug, said at once.
  ASSERT_EQ(c.state(0, named), MesiState::M);
  EXPECT_THROW(c.request(0, named, false, MesiState::I, t + Time::from_ps(kApart)), sc_core::sc_report);
}

TEST(Coherence, PoolDirectoryEvictionBackInvalidates) {
  // 4 entries in 2 sets of 2 ways: the fifth pool block cached evicts an entry.
  Machine m("starnuma16.yaml", {"coherence.pool_directory_entries=4", "coherence.pool_directory_ways=2"});
  Coherence& c = *m.coh;
  const uint64_t base = m.base(m.pool_range());
  Time t;
  for (uint64_t k = 0; k < 3; ++k) c.store(1, base + k * 128, t = t + Time::from_ps(kApart));  // set 0
  EXPECT_EQ(c.state(1, base), MesiState::I);  // the LRU entry (block 0) was back-invalidated
  EXPECT_EQ(c.state(1, base + 128), MesiState::M);
  EXPECT_EQ(c.state(1, base + 256), MesiState::M);
  EXPECT_EQ(c.load(2, base, t = t + Time::from_ps(kApart)).path, CohPath::Memory);  // written back
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
}

// A GetM that forgets one sharer leaves a stale S copy next to the new M: the checker sees both the
// single-writer violation and, later, a load of a stale version.
TEST(Coherence, CheckerCatchesAGetMThatSkipsAnInvalidation) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  c.set_fault(CohFault::SkipOneInvalidation);
  const uint64_t a = m.base(3) + 64;
  Time t;
  c.load(0, a, t = t + Time::from_ps(kApart));
  c.load(1, a, t = t + Time::from_ps(kApart));
  c.store(2, a, t = t + Time::from_ps(kApart));
  EXPECT_GE(c.checker().violations(), 1u);
  EXPECT_NE(c.checker().first_violation().find("E/M and"), std::string::npos) << c.checker().first_violation();
  const uint64_t before = c.checker().violations();
  c.load(0, a, t = t + Time::from_ps(kApart));  // socket0 still reads its old copy
  EXPECT_GT(c.checker().violations(), before);
}

TEST(Coherence, StatisticsCountRequestsByTypeAndHome) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  Time t;
  const uint64_t s = m.base(4), p = m.base(m.pool_range());
  c.load(0, s, t = t + Time::from_ps(kApart));   // socket home GetS
  c.store(1, s, t = t + Time::from_ps(kApart));  // GetM, forwarded to the E owner: a BT
  c.store(2, p, t = t + Time::from_ps(kApart));  // pool GetM
  c.load(3, p, t = t + Time::from_ps(kApart));   // pool GetS, a BT via the pool
  c.evict(1, s, t = t + Time::from_ps(kApart));  // PutM
  auto value = [&](const char* name) { return dynamic_cast<const Counter&>(*c.find_stat(name)).value(); };
  EXPECT_EQ(value("socket_home_gets"), 1u);
  EXPECT_EQ(value("socket_home_getm"), 1u);
  EXPECT_EQ(value("socket_home_putm"), 1u);
  EXPECT_EQ(value("pool_home_getm"), 1u);
  EXPECT_EQ(value("pool_home_gets"), 1u);
  EXPECT_EQ(value("bt_socket"), 1u);
  EXPECT_EQ(value("bt_pool"), 1u);
  EXPECT_EQ(value("pool_directory_transactions"), 2u);
}

// Each message of a transaction is counted by its kind on every link direction it crosses (the
// sockets of chassis 0 are linked pairwise by UPI: one hop each). A line homed at socket 2 through
// every kind of transaction, then per link direction and in total.
TEST(Coherence, EachMessageIsCountedByItsKindOnTheLinkItCrosses) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  const uint64_t a = m.base(2) + 4096;
  Time t;
  auto step = [&] { return t = t + Time::from_ps(kApart); };
  c.load(0, a, step());   // GetS 0->2, memory data 2->0: E
  c.store(0, a, step());  // E -> M silently: nothing
  c.load(1, a, step());   // GetS 1->2, snoop 2->0, forwarded data 0->1, the dirty line home 0->2
  c.store(1, a, step());  // Upgrade 1->2, invalidation 2->0, its ack 0->1, the grant 2->1
  c.evict(1, a, step());  // PutM with the line 1->2, put-ack 2->1
  c.load(3, a, step());   // GetS 3->2, memory data 2->3: E
  c.evict(3, a, step());  // PutE 3->2, put-ack 2->3
  const auto sent = [&](size_t from, size_t to, CohMessage kind) {
    for (const Link* l : m.p->links())
      for (const FabricNode* f : {l->node_a(), l->node_b()})
        if (f == m.fabric->requesters()[from] && l->other_end(*f) == m.fabric->requesters()[to])
          return l->coherent_sent(*f, kind);
    ADD_FAILURE() << "no link from socket" << from << " to socket" << to;
    return uint64_t{0};
  };
  struct Expected {
    size_t from, to;
    CohMessage kind;
    uint64_t messages;
  };
  for (const Expected& e : std::vector<Expected>{{0, 2, CohMessage::Request, 1},
                                                 {1, 2, CohMessage::Request, 2},
                                                 {3, 2, CohMessage::Request, 2},
                                                 {2, 0, CohMessage::MemoryData, 1},
                                                 {2, 3, CohMessage::MemoryData, 1},
                                                 {2, 0, CohMessage::Snoop, 2},
                                                 {0, 1, CohMessage::ForwardedData, 1},
                                                 {0, 2, CohMessage::Writeback, 1},
                                                 {1, 2, CohMessage::Writeback, 1},
                                                 {0, 1, CohMessage::Ack, 1},
                                                 {2, 1, CohMessage::Ack, 2},
                                                 {2, 3, CohMessage::Ack, 1}})
    EXPECT_EQ(sent(e.from, e.to, e.kind), e.messages)
        << coh_message_name(e.kind) << " from socket" << e.from << " to socket" << e.to;
  std::array<uint64_t, kCohMessages> total{};
  for (const Link* l : m.p->links())
    for (const FabricNode* f : {l->node_a(), l->node_b()})
      for (size_t k = 0; k < kCohMessages; ++k) total[k] += l->coherent_sent(*f, static_cast<CohMessage>(k));
  EXPECT_EQ(total, (std::array<uint64_t, kCohMessages>{5, 2, 4, 2, 1, 2}))
      << "requests, snoops, acks, memory data, forwarded data, writebacks over every link";
  // None of them is an access outside the protocol.
  for (const Link* l : m.p->links()) EXPECT_TRUE(l->balanced());
}

// An agent that enters at the LLC (the page walkers' metadata updates, docs/tracking.md): its
// read-modify-writes take the line as a core's would, and the copies stay coherent between sockets.
TEST(Coherence, AnAgentAtTheLlcReadsAndWritesCoherently) {
  Machine m("starnuma16.yaml");
  Coherence& c = *m.coh;
  std::vector<std::unique_ptr<SocketLlc>> llcs;
  for (size_t s = 0; s < 2; ++s) {
    const Socket& sock = *m.fabric->requesters()[s];
    llcs.push_back(std::make_unique<SocketLlc>(sock.llc_config(), sock.cores(), 1, m.fabric->map_end() / kLineBytes));
    c.attach(s, llcs[s].get());
  }
  const SocketLlc::Route r0{m.fabric, 0, &c}, r1{m.fabric, 1, &c};
  const int64_t lookup = 1000;  // fs
  const uint64_t a = m.base(m.pool_range()) + 64, line = a >> 6;
  int64_t t = 0;
  bool hit = true;
  // Alone: the read takes the line exclusive from the pool's memory (180 ns from the miss), the
  // write then finds it E and dirties it silently.
  t += 40 * kApart * 1000;
  EXPECT_EQ(llcs[0]->agent_access(r0, a, false, t, lookup, hit) - (t + lookup), 180'000'000);
  EXPECT_FALSE(hit);
  EXPECT_EQ(c.state(0, a), MesiState::E);
  t += kApart * 1000;
  EXPECT_EQ(llcs[0]->agent_access(r0, a, true, t, lookup, hit), t + lookup);
  EXPECT_TRUE(hit);
  EXPECT_EQ(c.state(0, a), MesiState::M);
  // Another socket's read is a block transfer via the pool (4 hops, 280 ns); both keep it shared.
  t += kApart * 1000;
  EXPECT_EQ(llcs[1]->agent_access(r1, a, false, t, lookup, hit) - (t + lookup), 280'000'000);
  EXPECT_FALSE(hit);
  EXPECT_EQ(c.state(0, a), MesiState::S);
  EXPECT_EQ(c.state(1, a), MesiState::S);
  // Its write upgrades the shared copy: socket0's copy leaves its LLC.
  t += kApart * 1000;
  EXPECT_GT(llcs[1]->agent_access(r1, a, true, t, lookup, hit), t + lookup);
  EXPECT_TRUE(hit);
  EXPECT_EQ(c.state(1, a), MesiState::M);
  EXPECT_EQ(c.state(0, a), MesiState::I);
  EXPECT_FALSE(llcs[0]->array.contains(line));
  // Without coherence a write miss allocates the line dirty, from memory.
  SocketLlc alone(m.fabric->requesters()[2]->llc_config(), 28, 1, m.fabric->map_end() / kLineBytes);
  t += kApart * 1000;
  alone.agent_access(SocketLlc::Route{m.fabric, 2, nullptr}, a + 64, true, t, lookup, hit);
  EXPECT_FALSE(hit);
  EXPECT_TRUE(alone.array.contains(line + 1));
  EXPECT_EQ(c.checker().violations(), 0u) << c.checker().first_violation();
  EXPECT_EQ(c.started(), c.completed());
  for (size_t s = 0; s < 2; ++s) c.attach(s, nullptr);
}

}  // namespace
}  // namespace starnuma
