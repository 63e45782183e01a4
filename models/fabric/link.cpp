#include "fabric/link.hpp"

#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"

namespace starnuma {

using namespace literals;

Link::Link(sc_core::sc_module_name name, const ScopeContext& ctx, const LinkDefaults& defaults)
    : Component(name, ctx),
      bandwidth_(*this, "bandwidth", defaults.bandwidth, "Usable (goodput) bandwidth per direction", bandwidth_range()),
      latency_(*this, "latency", defaults.latency,
               "One-way latency of the link itself: serdes, serialization and flight", latency_range()),
      retimers_(*this, "retimers", defaults.retimers, "Retimers on the link", between(0u, 8u)),
      retimer_latency_(*this, "retimer_latency", defaults.retimer_latency, "Latency of one retimer per direction",
                       latency_range()),
      request_size_(*this, "request_size", 16_B, "Bytes of a message without data (read request, write ack)",
                    between(1_B, 4_KiB)),
      data_size_(*this, "data_size", 64_B,
                 "Bytes of a message carrying one 64-byte line (headers are in the goodput bandwidth)",
                 between(1_B, 4_KiB)),
      protocol_(defaults.protocol),
      inter_chassis_(defaults.inter_chassis) {
  for (size_t k = 0; k < kCohMessages; ++k) {
    const std::string kind = coh_message_name(static_cast<CohMessage>(k));
    for (const char* dir : {"ab", "ba"})
      coherent_.emplace_back(*this, "coherent_" + kind + "_" + dir, "messages",
                             "Coherence messages (" + kind + ") sent from " + dir[0] + " to " + dir[1]);
  }
}

const char* coh_message_name(CohMessage m) {
  switch (m) {
    case CohMessage::Request: return "requests";
    case CohMessage::Snoop: return "snoops";
    case CohMessage::Ack: return "acks";
    case CohMessage::MemoryData: return "memory_data";
    case CohMessage::ForwardedData: return "forwarded_data";
    case CohMessage::Writeback: return "writebacks";
  }
  return "?";
}

void Link::connect(FabricNode& a, FabricNode& b) {
  node_a_ = &a;
  node_b_ = &b;
  a.attach(*this);
  b.attach(*this);
  ab_ = std::make_unique<Channel>(*this, "ab", bandwidth_, latency());
  ba_ = std::make_unique<Channel>(*this, "ba", bandwidth_, latency());
}

void Link::reset_stats() {
  // The fabric counts each access whole (request and response in one call), so a restart between
  // accesses keeps the conservation counts balanced.
  Component::reset_stats();
  if (ab_) ab_->reset_accounting();
  if (ba_) ba_->reset_accounting();
}

void Link::attach_waves(Waves& waves) {
  if (!ab_) return;
  ab_->attach_waves(waves, path() + ".from_" + node_a_->basename());
  ba_->attach_waves(waves, path() + ".from_" + node_b_->basename());
}

std::string Link::direction_name(const FabricNode& from) const {
  return std::string(from.basename()) + "->" + other_end(from)->basename();
}

namespace {

// Table I: 20.8 GB/s per UPI link and 13 GB/s per NUMALink per direction; CXL x8 over PCIe 6.0
// gives 64 GB/s raw, 40 GB/s effective, and one retimer (20 ns round trip) per host-device link.
// Latency split: docs/fabric.md.
struct UpiLink : Link {
  UpiLink(sc_core::sc_module_name n, const ScopeContext& c) : Link(n, c, {Bandwidth::gbps(20.8), 15_ns, 0, 0_ns}) {}
};
struct NumaLink : Link {
  NumaLink(sc_core::sc_module_name n, const ScopeContext& c)
      : Link(n, c, {Bandwidth::gbps(13), 50_ns, 0, 0_ns, Protocol::Coherent, true}) {}
};
struct CxlLink : Link {
  CxlLink(sc_core::sc_module_name n, const ScopeContext& c)
      : Link(n, c, {Bandwidth::gbps(40), 5_ns, 1, 10_ns, Protocol::Cxl}) {}
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(UpiLink, "upi", Role::Link,
                            "Intra-chassis coherent link (Intel UPI) between sockets or to a FLEX ASIC");
STARNUMA_REGISTER_COMPONENT(NumaLink, "numalink", Role::Link, "Inter-chassis coherent link between two FLEX ASICs");
STARNUMA_REGISTER_COMPONENT(
    CxlLink, "cxl", Role::Link,
    "CXL link (x8 PCIe 6.0 by default) with its retimers, from a socket or switch to a CXL device");

}  // namespace starnuma
