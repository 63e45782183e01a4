// The CXL type-3 multi-headed memory pool device (MHD): one CXL port (head) per attached host
// or switch, an internal network with arbitration and the coherence directory, and its own DDR5
// channels. The directory arrives with the coherence issue.
#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"
#include "memory/ddr5.hpp"

namespace starnuma {

using namespace literals;

namespace {

class CxlPool : public FabricNode {
 public:
  CxlPool(sc_core::sc_module_name n, const ScopeContext& c) : FabricNode(n, c) {}

 private:
  // StarNUMA section III-B: MHD CXL port 25 ns round trip; NoC, arbitration and directory 20 ns.
  Param<Time> port_latency_{*this, "port_latency", Time::from_ps(12500),
                            "Device-side CXL port latency per direction", at_least(0_ns)};
  Param<Time> internal_latency_{*this, "internal_latency", 10_ns,
                                "On-device network, arbitration and directory latency per direction",
                                at_least(0_ns)};
  Param<unsigned> max_heads_{*this, "max_heads", 16, "CXL ports (heads) the device has", between(1u, 64u)};
  // Table I: DDR5-4800, 16 channels x 48 GB.
  Ddr5Controller memory_{"memory", part("memory", "ddr5"), {16, 48_GiB}};
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(CxlPool, "cxl_pool", Role::Node,
                            "CXL multi-headed memory pool device (type-3 MHD) with its own DDR5 channels");

}  // namespace starnuma
