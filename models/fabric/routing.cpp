#include "fabric/routing.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

#include "common/diagnostics.hpp"

namespace starnuma {

namespace {

// The order of candidate paths: latency, then hops, then the declaration index of the last link
// (earlier first), which with Dijkstra's settled prefixes gives a total order on paths.
struct Cost {
  int64_t ps = std::numeric_limits<int64_t>::max();
  size_t hops = 0;
  size_t last_link = 0;
  bool operator<(const Cost& o) const { return std::tie(ps, hops, last_link) < std::tie(o.ps, o.hops, o.last_link); }
};

}  // namespace

RouteTable::RouteTable(const std::vector<FabricNode*>& nodes, const std::vector<FabricNode*>& sources)
    : nodes_(nodes), sources_(sources) {
  for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i]->set_route_index(i);
  source_of_.assign(nodes_.size(), static_cast<size_t>(-1));
  for (size_t k = 0; k < sources_.size(); ++k) source_of_[index(*sources_[k])] = k;
  // Declaration order of links, for tie-breaking.
  for (FabricNode* n : nodes_)
    for (const Link* l : n->links())
      if (std::find(link_order_.begin(), link_order_.end(), l) == link_order_.end()) link_order_.push_back(l);
  for (FabricNode* src : sources_) {
    std::vector<Route> routes(nodes_.size());
    for (Protocol protocol : {Protocol::Coherent, Protocol::Cxl}) shortest_paths(*src, protocol, routes);
    routes_.push_back(std::move(routes));
  }
}

void RouteTable::shortest_paths(FabricNode& src, Protocol protocol, std::vector<Route>& routes) const {
  auto link_index = [&](const Link* l) {
    return static_cast<size_t>(std::find(link_order_.begin(), link_order_.end(), l) - link_order_.begin());
  };
  const size_t n = nodes_.size();
  // through[v]: best cost to arrive at v and be ready to leave it (transit paid); only for nodes that
  // forward, and the source. final[v]: best cost to end the route at v (its port paid).
  std::vector<Cost> through(n), final(n);
  const Hop none{nullptr, nullptr, nullptr};
  std::vector<Hop> through_pred(n, none), final_pred(n, none);
  std::vector<bool> done(n, false);
  using Entry = std::pair<Cost, size_t>;
  auto later = [](const Entry& a, const Entry& b) {
    return b.first < a.first || (!(a.first < b.first) && a.second > b.second);
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> queue(later);
  const size_t s = index(src);
  through[s] = Cost{0, 0, 0};
  queue.push({through[s], s});
  while (!queue.empty()) {
    auto [cost, u] = queue.top();
    queue.pop();
    if (done[u]) continue;
    done[u] = true;
    FabricNode* un = nodes_[u];
    for (Link* l : un->links()) {
      if (l->protocol() != protocol) continue;
      FabricNode* vn = l->other_end(*un);
      const size_t v = index(*vn);
      const int64_t arrive = cost.ps + l->latency().ps() + (u == s ? un->port_latency(*l).ps() : 0);
      const Cost end{arrive + vn->port_latency(*l).ps(), cost.hops + 1, link_index(l)};
      if (end < final[v]) {
        final[v] = end;
        final_pred[v] = Hop{l, un, vn};
      }
      if (vn->forwards() && !done[v]) {
        const Cost pass{arrive + vn->transit_latency().ps(), cost.hops + 1, link_index(l)};
        if (pass < through[v]) {
          through[v] = pass;
          through_pred[v] = Hop{l, un, vn};
          queue.push({pass, v});
        }
      }
    }
  }
  for (size_t v = 0; v < n; ++v) {
    if (!nodes_[v]->reachable_by(protocol)) continue;
    Route& r = routes[v];
    if (r.reachable) continue;  // a coherent route, found first, is kept
    if (v == s) {
      r.reachable = true;
      continue;
    }
    if (!final_pred[v].link) continue;
    r.reachable = true;
    r.latency = Time::from_ps(final[v].ps);
    r.hops.push_back(final_pred[v]);
    for (size_t at = index(*final_pred[v].from); at != s; at = index(*through_pred[at].from))
      r.hops.push_back(through_pred[at]);
    std::reverse(r.hops.begin(), r.hops.end());
  }
}

size_t RouteTable::index(const FabricNode& n) const {
  // The node's hint is this table's index unless another table was built over it since.
  if (n.route_index() < nodes_.size() && nodes_[n.route_index()] == &n) return n.route_index();
  auto it = std::find(nodes_.begin(), nodes_.end(), &n);
  if (it == nodes_.end()) report_internal(std::string("routing: unknown node ") + n.name());
  return static_cast<size_t>(it - nodes_.begin());
}

const Route& RouteTable::route(const FabricNode& from, const FabricNode& to) const {
  const size_t source = source_of_[index(from)];
  if (source == static_cast<size_t>(-1)) report_internal(std::string("routing: no routes from ") + from.name());
  return routes_[source][index(to)];
}

std::string RouteTable::describe(const FabricNode& from, const Route& route) {
  std::string s = from.basename();
  for (const Hop& h : route.hops) s += " -" + h.link->type_name() + "-> " + h.to->basename();
  return s;
}

}  // namespace starnuma
