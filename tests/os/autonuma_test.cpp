// AutoNUMA's and LACX's decision at a NUMA hinting fault, on hand-built page histories.
#include <gtest/gtest.h>

#include "os/autonuma.hpp"

using namespace starnuma;

namespace {

// Two sockets on nodes 0 and 1, the CPU-less CXL node 2.
NumaRules rules(bool lacx) {
  NumaRules r;
  r.socket_node = {0, 1};
  r.cxl_node = 2;
  r.lacx = lacx;
  return r;
}

}  // namespace

TEST(AutoNuma, APrivateRemotePageMovesToItsTasksNodeOnceTheFilterPasses) {
  NumaPageState page;
  // First fault ever: no history, so the filter passes and the page moves to socket 1's node.
  FaultDecision d = decide_fault(page, 0, 1, 7, rules(false));
  EXPECT_FALSE(d.local);
  EXPECT_FALSE(d.shared);
  EXPECT_EQ(d.outcome, FaultOutcome::Migrate);
  EXPECT_EQ(d.target, 1u);
  EXPECT_FALSE(d.to_cxl);
  EXPECT_EQ(page.last_socket, 2);
  EXPECT_EQ(page.last_task, 8u);
  // Once there, the same task's faults are local.
  d = decide_fault(page, 1, 1, 7, rules(false));
  EXPECT_TRUE(d.local);
  EXPECT_EQ(d.outcome, FaultOutcome::Local);
}

TEST(AutoNuma, TheTwoFaultFilterHoldsAPageWhoseLastFaultCameFromAnotherNode) {
  NumaPageState page{1, 4, false};  // last: task 3 on socket 0
  // Task 3 again, now running on socket 1 (a private fault from another node): held.
  FaultDecision d = decide_fault(page, 0, 1, 3, rules(false));
  EXPECT_FALSE(d.shared);
  EXPECT_EQ(d.outcome, FaultOutcome::TwoFault);
  // The next one from socket 1 passes.
  d = decide_fault(page, 0, 1, 3, rules(false));
  EXPECT_EQ(d.outcome, FaultOutcome::Migrate);
  EXPECT_EQ(d.target, 1u);
}

TEST(AutoNuma, SharedPagesStayWhereTheyAreUnderAutoNuma) {
  NumaPageState page{1, 1, false};  // last: task 0 on socket 0
  FaultDecision d = decide_fault(page, 0, 1, 5, rules(false));
  EXPECT_TRUE(d.shared);
  EXPECT_EQ(d.outcome, FaultOutcome::Shared);
  // Shared between tasks of one node: still left alone by AutoNUMA, and not LACX's either.
  page = {2, 2, false};
  d = decide_fault(page, 0, 1, 5, rules(true));
  EXPECT_TRUE(d.shared);
  EXPECT_EQ(d.outcome, FaultOutcome::Shared);
}

TEST(AutoNuma, LacxSendsPagesSharedAcrossNodesToTheCxlNodeAndKeepsThemThere) {
  NumaPageState page{1, 1, false};  // last: task 0 on socket 0; now task 5 on socket 1
  FaultDecision d = decide_fault(page, 0, 1, 5, rules(true));
  EXPECT_EQ(d.outcome, FaultOutcome::Migrate);
  EXPECT_EQ(d.target, 2u);
  EXPECT_TRUE(d.to_cxl);
  page.lacx_marked = true;  // what AutoNuma::fault does when it moves it
  // Later private remote faults would bring it back under AutoNUMA; the mark keeps it.
  d = decide_fault(page, 2, 1, 5, rules(true));
  EXPECT_EQ(d.outcome, FaultOutcome::Kept);
  // Without LACX's mark, AutoNUMA promotes a page on the CXL node to the faulting node.
  NumaPageState unmarked{2, 6, false};
  d = decide_fault(unmarked, 2, 1, 5, rules(false));
  EXPECT_EQ(d.outcome, FaultOutcome::Migrate);
  EXPECT_EQ(d.target, 1u);
}
