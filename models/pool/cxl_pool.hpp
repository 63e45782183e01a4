// The CXL type-3 multi-headed memory pool device (MHD): one CXL port (head) per attached host or
// switch, an on-device network with arbitration and the coherence directory, and its own DDR5
// channels. The directory's state arrives with the coherence issue; its lookup latency is part
// of internal_latency already. A real expander's controller may also cap the lines it moves per
// second, reads and writes each at their own rate (`throughput`, `write_throughput`; docs/hardware.md).
#pragma once

#include <memory>

#include "fabric/channel.hpp"
#include "fabric/fabric_node.hpp"
#include "fabric/hdm_decoder.hpp"
#include "memory/ddr5.hpp"
#include "memory/memory_home.hpp"
#include "pool/pool_chmu.hpp"
#include "pool/pool_dcd.hpp"
#include "pool/pool_qos.hpp"

namespace starnuma {

class CxlPool : public FabricNode, public MemoryHome {
 public:
  CxlPool(sc_core::sc_module_name n, const ScopeContext& c);

  Time port_latency(const Link& via) const override { return port_latency_; }
  Protocol reached_by() const override { return Protocol::Cxl; }
  MemoryHome* memory_home() override { return this; }
  HdmDecoder* hdm_decoder() override { return &hdm_; }
  bool reports_devload() const override { return qos_.enabled(); }
  DevLoad last_devload() const override { return last_devload_; }
  Size memory_capacity() const override { return memory_.capacity(); }
  Time serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) override;
  Time unloaded_service() const override { return internal_latency_.get() * 2 + memory_.unloaded_read_latency(); }
  void check_attachments() override;
  const Ddr5Controller& memory() const { return memory_; }
  Ddr5Controller& memory() { return memory_; }
  Ddr5Controller* dram_controller() override { return &memory_; }
  // Crossing the device between its port and the memory controller or directory, per direction.
  Time internal_latency() const override { return internal_latency_; }
  // How the OS sees the device: a CPU-less NUMA node that first touch may fill (Linux's view of a
  // CXL memory expander), or StarNUMA's pool, which only placement policies fill.
  bool numa_node() const { return numa_node_; }
  bool first_touch() const override { return numa_node_; }
  // The controller's throughput limit as a FCFS stage, or null when it has none.
  const Channel* controller() const { return controller_.get(); }
  // The controller's rate in GB/s for a mix with this fraction of writes (reads and writes may
  // occupy it for different times: write_throughput); infinite without a limit.
  double controller_gbps(double write_fraction) const;
  // The device's hotness monitor (`chmu`; off by default).
  PoolChmu& chmu() { return chmu_; }
  // Its QoS telemetry (`qos`; off by default).
  const PoolQos& qos() const { return qos_; }
  // Its dynamic capacity (`dcd`; off by default: the whole device is online).
  const PoolDcd& dcd() const { return dcd_; }

 private:
  Param<Time> port_latency_;
  Param<Time> internal_latency_;
  Param<unsigned> heads_;
  Param<bool> numa_node_;
  Param<Bandwidth> throughput_;
  Param<Bandwidth> write_throughput_;
  std::unique_ptr<Channel> controller_;                 // the throughput limit, one FCFS stage; null when unlimited
  int64_t read_service_ps_ = 0, write_service_ps_ = 0;  // how long a line holds the controller
  Ddr5Controller memory_;
  PoolChmu chmu_;
  HdmDecoder hdm_;
  PoolQos qos_;
  PoolDcd dcd_;
  DevLoad last_devload_ = DevLoad::Light;
};

}  // namespace starnuma
