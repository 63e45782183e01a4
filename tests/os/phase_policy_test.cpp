// A migration policy added in one file, as a user would add one: this test policy registers itself
// here, and os.migration, the run and its report take it by name.
#include <gtest/gtest.h>

#include <map>

#include "harness/expect_report.hpp"
#include "harness/run_platform.hpp"
#include "os/phase_policy.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

// Every page the phase saw accessed by more than one socket goes to the pool, while it has room.
class SharedToPoolPolicy : public PhasePolicy {
 public:
  explicit SharedToPoolPolicy(const PhasePolicySetup& s) : pool_(s.pool) {}
  PhaseChoice decide(const PhaseView& view) override {
    PhaseChoice c;
    std::map<uint64_t, uint64_t> sockets;  // per page: a bit per socket (ordered: a deterministic choice)
    view.counts->for_each([&](uint64_t vpage, size_t socket, uint32_t) { sockets[vpage] |= uint64_t{1} << socket; });
    uint64_t room = pool_ < view.free_pages.size() ? view.free_pages[pool_] : 0, shared = 0;
    for (const auto& [vpage, bits] : sockets) {
      if ((bits & (bits - 1)) == 0 || !view.pages->placed(vpage) || view.pages->node_of(vpage) == pool_) continue;
      ++shared;
      if (room == 0) continue;
      c.moves.push_back({vpage, pool_, MoveKind::Candidate});
      --room;
    }
    c.decision.candidates = shared;
    c.decision.pages = c.moves.size();
    c.fields["shared_pages_seen"] = shared;
    return c;
  }
  std::string description() const override { return "shared pages to the pool (test)"; }

 private:
  size_t pool_;
};

STARNUMA_REGISTER_PHASE_POLICY(SharedToPoolPolicy, "test-shared-to-pool", false,
                               "Test: every page two sockets accessed in the phase goes to the pool");

TEST(PhasePolicy, OneRegisteredInItsOwnFileRunsByName) {
  const RunResult r = testing::run_platform("starnuma16-scaled.yaml", "sharing:pages=1024", 150000, Placement::Dynamic,
                                            {"os.migration=test-shared-to-pool", "os.phase_instructions=40000",
                                             "os.page_cycles=300", "coherence.enabled=false"});
  EXPECT_EQ(r.migration_policy, "shared pages to the pool (test)");
  const auto& m = r.migration;
  // At 40 K to 200 K of the phases' clock: once sharing's fastest threads have ended their 150 K
  // (by the mean thread's 20 K), those still running carry it.
  EXPECT_EQ(m["phases"].get<uint64_t>(), 5u);
  EXPECT_GT(m["to_pool"].get<uint64_t>(), 100u);
  EXPECT_EQ(m["to_pool"].get<uint64_t>(), m["pages_moved"].get<uint64_t>());  // it sends pages nowhere else
  EXPECT_GT(m["per_phase"][0]["shared_pages_seen"].get<uint64_t>(), 100u);    // its own field, in its record
  EXPECT_GT(r.breakdown[3], 0.1);                                             // the pool now serves accesses
}

// A configuration of the test policy that must be refused, with a part of its message.
void expect_refused(const std::vector<std::string>& sets, const std::string& message) {
  const testing::Raised r = testing::capture_report(
      [&] { testing::run_platform("starnuma16-scaled.yaml", "sharing:pages=1024", 10000, Placement::Dynamic, sets); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_NE(r.message.find(message), std::string::npos) << r.message;
}

TEST(PhasePolicy, APageCountPolicyRefusesTrackerKnowledge) {
  expect_refused({"os.migration=test-shared-to-pool", "os.policy=tracker"},
                 "os.migration: test-shared-to-pool decides from per-page counts (os.policy: perfect or auto), not "
                 "from the trackers' regions");
}

TEST(PhasePolicy, AnUnknownNameListsTheRegisteredOnes) {
  expect_refused({"os.migration=nonesuch"}, "test-shared-to-pool");
}

}  // namespace
}  // namespace starnuma
