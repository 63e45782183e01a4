#include "fabric/link.hpp"

#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"

namespace starnuma {

using namespace literals;

Link::Link(sc_core::sc_module_name name, const ScopeContext& ctx, const LinkDefaults& defaults)
    : Component(name, ctx),
      bandwidth_(*this, "bandwidth", defaults.bandwidth, "Usable bandwidth per direction",
                 at_least(Bandwidth::from_bytes_per_s(1))),
      latency_(*this, "latency", defaults.latency, "One-way traversal latency of the link (serdes and flight)",
               at_least(0_ns)) {}

void Link::connect(FabricNode& a, FabricNode& b) {
  node_a_ = &a;
  node_b_ = &b;
  a.attach(*this);
  b.attach(*this);
}

namespace {

// Table I: 20.8 GB/s per UPI link and 13 GB/s per NUMALink per direction; CXL x8 over PCIe 6.0
// gives 64 GB/s raw, 40 GB/s effective. Latencies: docs/latency-model.md.
struct UpiLink : Link {
  UpiLink(sc_core::sc_module_name n, const ScopeContext& c) : Link(n, c, {Bandwidth::gbps(20.8), 25_ns}) {}
};
struct NumaLink : Link {
  NumaLink(sc_core::sc_module_name n, const ScopeContext& c) : Link(n, c, {Bandwidth::gbps(13), 50_ns}) {}
};
struct CxlLink : Link {
  CxlLink(sc_core::sc_module_name n, const ScopeContext& c) : Link(n, c, {Bandwidth::gbps(40), 5_ns}) {}
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(UpiLink, "upi", Role::Link,
                            "Intra-chassis coherent link (Intel UPI) between sockets or to a FLEX ASIC");
STARNUMA_REGISTER_COMPONENT(NumaLink, "numalink", Role::Link,
                            "Inter-chassis coherent link between two FLEX ASICs");
STARNUMA_REGISTER_COMPONENT(CxlLink, "cxl", Role::Link,
                            "CXL link (x8 PCIe 6.0 by default) from a socket or switch to a CXL device");

}  // namespace starnuma
