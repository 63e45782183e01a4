// Topology nodes that only forward traffic: the FLEX ASIC that joins chassis, and the CXL switch.
#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"

namespace starnuma {

using namespace literals;

namespace {

class FlexAsic : public FabricNode {
 public:
  FlexAsic(sc_core::sc_module_name n, const ScopeContext& c) : FabricNode(n, c) {}

 private:
  Param<Time> latency_{*this, "latency", 20_ns, "Traversal latency per direction (port to port)", at_least(0_ns)};
};

class CxlSwitch : public FabricNode {
 public:
  CxlSwitch(sc_core::sc_module_name n, const ScopeContext& c) : FabricNode(n, c) {}

 private:
  // The StarNUMA paper: about 90 ns round trip per switch.
  Param<Time> latency_{*this, "latency", 45_ns, "Traversal latency per direction (port to port)", at_least(0_ns)};
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(FlexAsic, "flex_asic", Role::Node,
                            "Inter-chassis router (HPE Superdome Flex ASIC) joining a chassis' sockets to NUMALinks");
STARNUMA_REGISTER_COMPONENT(CxlSwitch, "cxl_switch", Role::Node, "CXL switch between hosts and CXL devices");

}  // namespace starnuma
