#include "os/balance_policy.hpp"

#include <algorithm>

#include "os/phase_policy.hpp"

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

namespace {

// DM as a phase policy: the phase's per-page counts (perfect knowledge) become each page's heat.
class BalancePolicy : public PhasePolicy {
 public:
  explicit BalancePolicy(const PhasePolicySetup& s) : socket_node_(s.socket_node), limit_(s.os->migration_limit()) {}

  PhaseChoice decide(const PhaseView& view) override {
    const BalanceInput in = input(view);
    const BalanceDecision d = decide_balance(in);
    PhaseChoice c;
    c.moves = d.moves;
    c.decision.candidates = c.decision.pages = d.moves.size();
    c.decision.limit_reached = d.moves.size() >= in.limit;
    const auto name = [&](size_t n) {
      return n == static_cast<size_t>(-1) ? std::string() : view.pages->nodes()[n].name;
    };
    c.fields["busiest_node"] = name(d.busiest);
    c.fields["least_busy_node"] = name(d.least);
    c.fields["busiest_accesses"] = d.busiest != static_cast<size_t>(-1) ? d.traffic[d.busiest] : 0;
    c.fields["least_busy_accesses"] = d.least != static_cast<size_t>(-1) ? d.traffic[d.least] : 0;
    c.fields["accesses_moved"] = d.traffic_moved;
    return c;
  }
  std::string description() const override { return "balance (DM) on per-page counts"; }

 private:
  BalanceInput input(const PhaseView& view) const {
    // The counts in a deterministic order (the table's order depends on its history).
    struct Count {
      uint64_t vpage;
      size_t socket;
      uint32_t n;
    };
    std::vector<Count> counts;
    view.counts->for_each([&](uint64_t vpage, size_t socket, uint32_t n) { counts.push_back({vpage, socket, n}); });
    std::sort(counts.begin(), counts.end(), [](const Count& a, const Count& b) {
      return a.vpage != b.vpage ? a.vpage < b.vpage : a.socket < b.socket;
    });
    BalanceInput in;
    const PageMap& pages = *view.pages;
    for (size_t i = 0; i < counts.size();) {
      PageHeat h;
      h.vpage = counts[i].vpage;
      uint32_t top = 0;
      for (; i < counts.size() && counts[i].vpage == h.vpage; ++i) {
        h.accesses += counts[i].n;
        if (counts[i].n > top) {
          top = counts[i].n;
          h.top_socket = counts[i].socket;
        }
      }
      if (!pages.placed(h.vpage)) continue;
      h.node = pages.node_of(h.vpage);
      h.moves = pages.moves(h.vpage);
      in.pages.push_back(h);
    }
    in.node_socket.assign(pages.nodes().size(), -1);
    for (size_t s = 0; s < socket_node_.size(); ++s) in.node_socket[socket_node_[s]] = static_cast<long>(s);
    for (size_t n = 0; n < pages.nodes().size(); ++n) in.eligible.push_back(pages.nodes()[n].first_touch);
    in.free_pages = view.free_pages;
    in.limit = limit_;
    return in;
  }

  std::vector<size_t> socket_node_;
  uint64_t limit_;
};

}  // namespace

STARNUMA_REGISTER_PHASE_POLICY(BalancePolicy, "balance", false,
                               "The multi-chip placement paper's DM: pages other sockets access move from the busiest "
                               "node to the least busy, up to migration_limit per phase");

}  // namespace starnuma
