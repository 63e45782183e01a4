// A point-to-point link between two topology nodes (UPI, NUMALink, CXL). Bandwidth is per
// direction; latency is the one-way traversal time of the link itself (serdes and flight), not
// of the routers at its ends, which the nodes contribute.
#pragma once

#include "common/component.hpp"

namespace starnuma {

class FabricNode;

// Defaults that distinguish the registered link types; the model is the same.
struct LinkDefaults {
  Bandwidth bandwidth;
  Time latency;
};

class Link : public Component {
 public:
  Link(sc_core::sc_module_name name, const ScopeContext& ctx, const LinkDefaults& defaults);

  const NodeRef& end_a() const { return a_.get(); }
  const NodeRef& end_b() const { return b_.get(); }
  Bandwidth bandwidth() const { return bandwidth_; }
  Time latency() const { return latency_; }

  // Called by the platform once both ends are resolved.
  void connect(FabricNode& a, FabricNode& b);
  FabricNode* node_a() const { return node_a_; }
  FabricNode* node_b() const { return node_b_; }

 private:
  Param<NodeRef> a_{*this, "a", required, "Node at one end of the link"};
  Param<NodeRef> b_{*this, "b", required, "Node at the other end of the link"};
  Param<Bandwidth> bandwidth_;
  Param<Time> latency_;
  FabricNode* node_a_ = nullptr;
  FabricNode* node_b_ = nullptr;
};

}  // namespace starnuma
