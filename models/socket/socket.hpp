// A processor socket: the requester side of its memory traffic (the on-die path from an LLC miss
// out to the fabric), and the home of its own memory range (home agent and DDR5 controller).
// Every core uses the `core:` map; the shared LLC is configured by `llc:`.
#pragma once

#include <memory>
#include <vector>

#include "core/core.hpp"
#include "core/core_config.hpp"
#include "fabric/fabric_node.hpp"
#include "memory/ddr5.hpp"
#include "memory/memory_home.hpp"
#include "tracking/platform_tracking.hpp"
#include "tracking/socket_tracking.hpp"

namespace starnuma {

class Socket : public FabricNode, public MemoryHome {
 public:
  Socket(sc_core::sc_module_name n, const ScopeContext& c);

  // On-die round trip of a request from an LLC miss to the home agent or fabric port and back,
  // without DRAM; half is spent on the way out, half on the way back.
  Time uncore_latency() const override { return uncore_latency_; }
  bool is_requester() const override { return true; }
  // Joins `fabric` as a requester and binds its cores' hierarchies to it.
  void bind_fabric(Fabric& fabric) override;
  // Binds its cores' hierarchies to the coherence between sockets (when enabled).
  void bind_coherence(Coherence& coherence);
  Time port_latency(const Link& via) const override;
  bool reachable_by(Protocol protocol) const override {
    return protocol == Protocol::Coherent || (protocol == Protocol::Cxl && lend_.get() > 0);
  }
  // The share of this socket's memory other hosts may use, reached over CXL (a logical memory pool).
  double lend() const { return lend_; }
  double lent_share() const override { return lend_; }
  // A CXL link from a socket ends at a pool or a switch: a socket has no CXL device port.
  void check_attachments() override;
  MemoryHome* memory_home() override { return this; }
  Size memory_capacity() const override { return memory_.capacity(); }
  Time serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) override;
  Time unloaded_service() const override { return memory_.unloaded_read_latency(); }
  const Ddr5Controller& memory() const { return memory_; }
  Ddr5Controller& memory() { return memory_; }
  Ddr5Controller* dram_controller() override { return &memory_; }
  unsigned cores() const { return cores_; }
  Frequency frequency() const { return frequency_; }
  const std::vector<std::unique_ptr<Core>>& core_list() const { return core_list_; }
  const CoreConfig& core_config() const { return core_config_; }
  // Whether the cores' STLBs are inclusive of their L1 DTLBs (core.stlb.inclusive, auto resolved).
  bool stlb_inclusive() const { return core_config_.stlb.inclusive(tracking_.annexes_stlb()); }
  const LlcConfig& llc_config() const { return llc_config_; }
  // The tracking hardware's attachment point: TLB and LLC-miss events of this socket's cores.
  void set_observer(TlbObserver* observer) { observer_ = observer; }
  TlbObserver* observer() const { return observer_; }
  // The socket's page-hotness tracking hardware (`tracking:`); attached only for impl: model or rtl.
  SocketTracking& tracking() { return tracking_; }
  const SocketTracking& tracking() const { return tracking_; }

 private:
  // Table I: 28 cores at 2.4 GHz; DDR5-4800, 6 channels x 32 GB.
  Param<unsigned> cores_{*this, "cores", 28, "Cores (each one hardware thread)", between(1u, 1024u)};
  Param<Frequency> frequency_{*this, "frequency", Frequency::ghz(2.4), "Core clock",
                              between(Frequency::from_hz(1e6), Frequency::ghz(10))};
  Param<Time> uncore_latency_;
  Param<Time> upi_port_latency_;
  Param<Time> cxl_port_latency_;
  Param<double> lend_{*this, "lend", 0.0,
                      "Share of this socket's memory lent to a logical memory pool: other hosts reach it over CXL "
                      "through a switch and may place pages in that much of it (docs/fabric.md)",
                      between(0.0, 1.0)};
  Ddr5Controller memory_;
  CoreConfig core_config_;
  LlcConfig llc_config_;
  SocketTracking tracking_;
  std::vector<std::unique_ptr<Core>> core_list_;
  TlbObserver* observer_ = nullptr;
};

// Every socket of `fabric` as the platform's tracking sees it (PlatformTracking::attach).
std::vector<TrackedSocket> tracked_sockets(Fabric& fabric);

}  // namespace starnuma
