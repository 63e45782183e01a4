#include "socket/socket.hpp"

#include <cmath>

#include "common/registry.hpp"
#include "fabric/fabric.hpp"
#include "fabric/link.hpp"

namespace starnuma {

using namespace literals;

// Local memory is 80 ns unloaded: 40 ns on die (uncore_latency) + 40 ns DRAM (controller 8 + tRCD
// 16 + tCL 16). A UPI crossing to a chassis peer is 25 ns each way: this socket's UPI port 5, the
// link 15, the peer's UPI port (into its home agent) 5.
Socket::Socket(sc_core::sc_module_name n, const ScopeContext& c)
    : FabricNode(n, c),
      uncore_latency_(*this, "uncore_latency", 40_ns,
                      "On-die round trip from an LLC miss to the home agent or fabric port and back, without DRAM",
                      latency_range()),
      upi_port_latency_(*this, "upi_port_latency", 5_ns,
                        "UPI port and router latency per direction, when a route starts or ends here", latency_range()),
      cxl_port_latency_(*this, "cxl_port_latency", Time::from_ps(12500),
                        "Host-side CXL port latency per direction (25 ns round trip)", latency_range()),
      memory_("memory", part("memory", "ddr5"), {6, 32_GiB}),
      core_config_(part("core", "core")),
      llc_config_(part("llc", "llc")),
      tracking_("tracking", part("tracking", "tracking"), core_config_) {
  // Cores are built without YAML maps of their own: they all read core_config_.
  for (unsigned k = 0; k < cores_; ++k) {
    const std::string name = "core" + std::to_string(k);
    core_list_.push_back(std::make_unique<Core>(
        name.c_str(), ScopeContext{&elaboration(), nullptr, path() + "." + name, location(), nullptr, "core", false},
        core_config_, frequency_));
  }
}

void Socket::bind_fabric(Fabric& fabric) {
  const Fabric::RequesterSlot slot = fabric.add_requester(*this, *this, cores_);
  for (unsigned k = 0; k < core_list_.size(); ++k)
    core_list_[k]->bind({&fabric, slot.index, slot.first_core + k, nullptr, stlb_inclusive()});
}

void Socket::bind_coherence(Coherence& coherence) {
  for (const auto& core : core_list_) core->bind_coherence(coherence);
}

Time Socket::port_latency(const Link& via) const {
  return via.protocol() == Protocol::Cxl ? cxl_port_latency_.get() : upi_port_latency_.get();
}

Time Socket::serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  ++requests_;
  Time done = memory_.access(arrival, op, offset, trace);
  ++responses_;
  return done;
}

STARNUMA_REGISTER_COMPONENT(Socket, "socket", Role::Node,
                            "Processor socket with its cores, caches and local DDR5 memory");

void Socket::check_attachments() {
  for (Link* l : links()) {
    const FabricNode* other = l->other_end(*this);
    // Reported once, by the link's first end, at its type: the ends of a generated link are the
    // generator's, while its type may be the user's change (--set links.X.type=cxl).
    if (l->protocol() == Protocol::Cxl && other && other->is_requester() && l->node_a() == this)
      l->error(l->config() ? l->config()->find("type") : nullptr, "type",
               std::string("a CXL link joins a socket to a pool or a switch, not two sockets (") + basename() + ", " +
                   other->basename() + "); sockets connect with upi links, or through flex_asic routers",
               msg::kTopology);
  }
}

std::vector<TrackedSocket> tracked_sockets(Fabric& fabric) {
  std::vector<TrackedSocket> sockets;
  for (Socket* sock : fabric.requesters())
    sockets.push_back({&sock->tracking(), sock->cores(),
                       static_cast<int64_t>(std::llround(1e15 / sock->frequency().hz())),
                       [sock](TlbObserver* observer) { sock->set_observer(observer); }});
  return sockets;
}

}  // namespace starnuma
