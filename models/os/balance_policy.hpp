// The multi-chip placement paper's dynamic migration (DM, section 5.2): at each phase, from the
// phase's access statistics (AutoNUMA's numa_fault counts in the paper; here every page's exact
// per-socket LLC misses), find the busiest memory node and the least busy one, and move pages from
// the first to the second. A pure function of what the phase saw, so every choice is testable.
//
// Choices the paper leaves open (docs/os.md):
// - busy means demand traffic: the LLC misses served by the node in the phase;
// - only pages whose most frequent accessor is another socket than the node's move (its own
//   socket's local pages stay: moving them would make its program's accesses remote), so the node
//   relieved is the busiest that has such pages (a node busy with its own socket's traffic alone
//   cannot be helped by moving pages);
// - the destination is the least busy node first touch may use (not StarNUMA's pool) with free
//   pages, and less busy than the source;
// - a page moves once: one DM moved stays (without this, the relieved node's traffic lands on the
//   destination, which becomes the busiest, and the same pages go back and forth);
// - hottest first (ties: lower page), until half the gap between the two nodes' traffic has
//   moved, the destination is full, or `limit` pages have been chosen.
#pragma once

#include <cstdint>
#include <vector>

#include "os/region_scan.hpp"

namespace starnuma {

struct PageHeat {
  uint64_t vpage = 0;
  size_t node = 0;        // where it lives
  uint64_t accesses = 0;  // in the phase, from every socket
  size_t top_socket = 0;  // the socket that accessed it most (ties: the lowest)
  uint64_t moves = 0;     // times it has migrated before
};

struct BalanceInput {
  std::vector<PageHeat> pages;       // every page accessed in the phase
  std::vector<uint64_t> free_pages;  // per node
  std::vector<bool> eligible;        // per node: may receive pages (first touch may use it)
  std::vector<long> node_socket;     // per node: the socket whose memory it is, -1 for none
  uint64_t limit = 1024;             // pages per phase at most
};

struct BalanceDecision {
  std::vector<uint64_t> traffic;                                              // per node: accesses in the phase
  size_t busiest = static_cast<size_t>(-1), least = static_cast<size_t>(-1);  // npos: nothing to balance
  std::vector<PageMove> moves;
  uint64_t traffic_moved = 0;
};

BalanceDecision decide_balance(const BalanceInput& in);

}  // namespace starnuma
