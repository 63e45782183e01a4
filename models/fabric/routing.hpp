// Routes between topology nodes: the path of least unloaded one-way latency that uses only links
// of the protocol its destination is reached by (coherent links to a socket, CXL links to a CXL
// device: a CXL switch never carries socket-to-socket traffic). A path costs
// the port latency of its first and last node on the links it uses, every link's latency, and the
// transit latency of every node it passes through (only nodes that forward may be passed).
// Ties go to the path with fewer hops, then to the one whose links were declared first; the
// choice is therefore deterministic and independent of hash or pointer order.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabric_node.hpp"
#include "fabric/link.hpp"

namespace starnuma {

struct Hop {
  Link* link;
  FabricNode* from;
  FabricNode* to;
};

struct Route {
  std::vector<Hop> hops;  // empty when from == to
  Time latency;           // unloaded one-way latency of the path (ports, links, transits)
  bool reachable = false;
};

class RouteTable {
 public:
  // Routes from every node in `sources` to every node in `nodes`.
  RouteTable(const std::vector<FabricNode*>& nodes, const std::vector<FabricNode*>& sources);

  const Route& route(const FabricNode& from, const FabricNode& to) const;
  // The nodes, and a node's place among them.
  size_t nodes() const { return nodes_.size(); }
  size_t index(const FabricNode& n) const;
  // "socket0 -upi-> flex0 -numalink-> flex4 -upi-> socket8"
  static std::string describe(const FabricNode& from, const Route& route);

 private:
  // Fills routes[v] for every v reached over `protocol` from `src` (Dijkstra).
  void shortest_paths(FabricNode& src, Protocol protocol, std::vector<Route>& routes) const;

  std::vector<const Link*> link_order_;  // declaration order, for tie-breaking
  std::vector<FabricNode*> nodes_;
  std::vector<FabricNode*> sources_;
  std::vector<size_t> source_of_;           // node index -> position in sources_, or npos
  std::vector<std::vector<Route>> routes_;  // [source][node], over the destination's protocol
};

}  // namespace starnuma
