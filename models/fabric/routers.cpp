// Topology nodes that only forward traffic: the FLEX ASIC that joins chassis, and the CXL switch.
#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"

namespace starnuma {

using namespace literals;

namespace {

class Router : public FabricNode {
 public:
  Router(sc_core::sc_module_name n, const ScopeContext& c, Time default_latency)
      : FabricNode(n, c),
        latency_(*this, "latency", default_latency, "Traversal latency per direction, port to port", latency_range()) {}
  bool forwards() const override { return true; }
  Time transit_latency() const override { return latency_; }

 private:
  Param<Time> latency_;
};

// The paper gives 280 ns round trip for UPI + FLEX ASIC + NUMALink + FLEX ASIC + UPI; the split
// between ASIC and NUMALink is ours (docs/fabric.md).
struct FlexAsic : Router {
  FlexAsic(sc_core::sc_module_name n, const ScopeContext& c) : Router(n, c, 25_ns) {}
};
// About 90 ns round trip per CXL switch (StarNUMA section III-B).
struct CxlSwitch : Router {
  CxlSwitch(sc_core::sc_module_name n, const ScopeContext& c) : Router(n, c, 45_ns) {}
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(FlexAsic, "flex_asic", Role::Node,
                            "Inter-chassis router (HPE Superdome Flex ASIC) joining a chassis' sockets to NUMALinks");
STARNUMA_REGISTER_COMPONENT(CxlSwitch, "cxl_switch", Role::Node, "CXL switch between hosts and CXL devices");

}  // namespace starnuma
