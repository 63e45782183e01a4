#include "socket/socket.hpp"

#include "common/registry.hpp"
#include "fabric/link.hpp"

namespace starnuma {

using namespace literals;

// Local memory is 80 ns unloaded: 40 ns on die (uncore_latency) + 40 ns DRAM (controller 8 + tRCD
// 16 + tCL 16). The UPI links' latency includes the remote socket's ports and mesh.
Socket::Socket(sc_core::sc_module_name n, const ScopeContext& c)
    : FabricNode(n, c),
      uncore_latency_(*this, "uncore_latency", 40_ns,
                      "On-die round trip from an LLC miss to the home agent or fabric port and back, without DRAM",
                      at_least(0_ns)),
      cxl_port_latency_(*this, "cxl_port_latency", Time::from_ps(12500),
                        "Host-side CXL port latency per direction (25 ns round trip)", at_least(0_ns)),
      memory_("memory", part("memory", "ddr5"), {6, 32_GiB}) {}

Time Socket::port_latency(const Link& via) const {
  return via.type_name() == "cxl" ? cxl_port_latency_.get() : Time();
}

Time Socket::serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  ++requests_;
  Time done = memory_.access(arrival, op, offset, trace);
  ++responses_;
  return done;
}

STARNUMA_REGISTER_COMPONENT(Socket, "socket", Role::Node, "Processor socket with its cores, caches and local DDR5 memory");

}  // namespace starnuma
