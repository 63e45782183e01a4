#include "os/balance_policy.hpp"

#include <algorithm>

namespace starnuma {

BalanceDecision decide_balance(const BalanceInput& in) {
  BalanceDecision d;
  const size_t nodes = in.free_pages.size();
  const size_t npos = static_cast<size_t>(-1);
  d.traffic.assign(nodes, 0);
  for (const PageHeat& p : in.pages) d.traffic[p.node] += p.accesses;
  // Nodes from the busiest down (ties: the lower index); the first with pages other sockets use
  // and a less busy destination with room is the one relieved.
  std::vector<size_t> order(nodes);
  for (size_t n = 0; n < nodes; ++n) order[n] = n;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d.traffic[a] > d.traffic[b]; });
  for (size_t busiest : order) {
    size_t least = npos;
    for (size_t n = 0; n < nodes; ++n)
      if (n != busiest && in.eligible[n] && in.free_pages[n] > 0 && (least == npos || d.traffic[n] < d.traffic[least]))
        least = n;
    if (least == npos || d.traffic[least] >= d.traffic[busiest]) continue;
    const long owner = in.node_socket[busiest];
    std::vector<const PageHeat*> movable;
    for (const PageHeat& p : in.pages)
      if (p.node == busiest && static_cast<long>(p.top_socket) != owner && p.moves == 0) movable.push_back(&p);
    if (movable.empty()) continue;
    std::sort(movable.begin(), movable.end(), [](const PageHeat* a, const PageHeat* b) {
      return a->accesses != b->accesses ? a->accesses > b->accesses : a->vpage < b->vpage;
    });
    d.busiest = busiest;
    d.least = least;
    const uint64_t target = (d.traffic[busiest] - d.traffic[least]) / 2;
    const uint64_t room = std::min(in.limit, in.free_pages[least]);
    for (const PageHeat* p : movable) {
      if (d.traffic_moved >= target || d.moves.size() >= room) break;
      d.moves.push_back({p->vpage, least, MoveKind::Candidate});
      d.traffic_moved += p->accesses;
    }
    break;
  }
  return d;
}

}  // namespace starnuma
