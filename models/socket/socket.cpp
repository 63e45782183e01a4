// A processor socket: cores, caches and its local memory. Cores and caches arrive with the cores
// issue; the socket already owns its memory controller.
#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"
#include "memory/ddr5.hpp"

namespace starnuma {

using namespace literals;

namespace {

class Socket : public FabricNode {
 public:
  Socket(sc_core::sc_module_name n, const ScopeContext& c) : FabricNode(n, c) {}

 private:
  // Table I: 28 cores at 2.4 GHz; DDR5-4800, 6 channels x 32 GB.
  Param<unsigned> cores_{*this, "cores", 28, "Cores (each one hardware thread)", between(1u, 1024u)};
  Param<Frequency> frequency_{*this, "frequency", Frequency::ghz(2.4), "Core clock",
                              between(Frequency::from_hz(1e6), Frequency::ghz(10))};
  Ddr5Controller memory_{"memory", part("memory", "ddr5"), {6, 32_GiB}};
};

}  // namespace

STARNUMA_REGISTER_COMPONENT(Socket, "socket", Role::Node, "Processor socket with its cores, caches and local DDR5 memory");

}  // namespace starnuma
