#include "pool/cxl_pool.hpp"

#include <limits>

#include "common/geometry.hpp"
#include "common/registry.hpp"
#include "fabric/link.hpp"

namespace starnuma {

using namespace literals;

// StarNUMA section III-B, Fig. 3: the MHD's CXL port adds 25 ns round trip, its network,
// arbitration and directory 20 ns. Table I: DDR5-4800, 16 channels x 48 GB.
CxlPool::CxlPool(sc_core::sc_module_name n, const ScopeContext& c)
    : FabricNode(n, c),
      port_latency_(*this, "port_latency", Time::from_ps(12500), "Device-side CXL port latency per direction",
                    latency_range()),
      internal_latency_(*this, "internal_latency", 10_ns,
                        "On-device network, arbitration and directory lookup, per direction", latency_range()),
      heads_(*this, "heads", 16, "CXL ports (heads) of the device; each attached link takes one", between(1u, 64u)),
      numa_node_(*this, "numa_node", false,
                 "How the OS sees the device: false, StarNUMA's pool (only placement and migration put pages here, "
                 "up to os.pool_fraction of the footprint); true, a CPU-less NUMA node in every socket's fallback "
                 "list, which first touch fills once nearer nodes are full and interleaving uses (Linux's view of a "
                 "CXL memory expander; docs/os.md)"),
      throughput_(*this, "throughput", Bandwidth(),
                  "Lines the device's controller moves per second, reads and writes together, as bytes "
                  "(64 per line); 0: no limit but its ports and DRAM (the StarNUMA paper's pool). Real "
                  "expanders plateau at one rate whatever the read/write mix (docs/hardware.md)",
                  between(Bandwidth(), *bandwidth_range().max)),
      write_throughput_(*this, "write_throughput", Bandwidth(),
                        "The controller's rate for writes alone, as bytes (64 per line), where a write holds "
                        "it for another time than a read; 0: throughput's. Needs throughput",
                        between(Bandwidth(), *bandwidth_range().max)),
      memory_("memory", part("memory", "ddr5"), {16, 48_GiB}),
      chmu_("chmu", part("chmu")),
      hdm_(part("hdm")),
      qos_("qos", part("qos")),
      dcd_(part("dcd"), memory_.capacity()) {
  for (const Param<Bandwidth>* p : {&throughput_, &write_throughput_})
    if (p->get() > Bandwidth() && p->get() < *bandwidth_range().min)
      error_at(p->name(), "must be 0 (no limit) or at least 10 MB/s, not " + p->value_text());
  if (write_throughput_.get() > Bandwidth() && throughput_.get() == Bandwidth())
    error_at("write_throughput", "sets the controller's rate for writes, which needs its throughput (for reads) too");
  // A DC region is the device's own range here: interleaving extents across devices is not modelled.
  if (dcd_.enabled() && hdm_.interleaved())
    error_at("dcd", "dynamic capacity on a device of an interleave set (hdm.set: " + hdm_.set() +
                        ") is not modelled: give the device its own range (docs/cxl-device.md)");
  if (throughput_.get() >= *bandwidth_range().min) {
    controller_ = std::make_unique<Channel>(*this, "controller", throughput_.get(), Time());
    read_service_ps_ = controller_->service_ps(kLineBytes);
    // As Channel::service_ps rounds it, at the writes' rate.
    write_service_ps_ = write_throughput_.get() >= *bandwidth_range().min
                            ? static_cast<int64_t>(kLineBytes * 1e12 / write_throughput_.get().bytes_per_s() + 0.5)
                            : read_service_ps_;
  }
}

double CxlPool::controller_gbps(double write_fraction) const {
  if (!controller_) return std::numeric_limits<double>::infinity();
  const double reads = throughput_.get().gb_per_s(),
               writes = write_throughput_.get() > Bandwidth() ? write_throughput_.get().gb_per_s() : reads;
  return 1 / ((1 - write_fraction) / reads + write_fraction / writes);  // a line's time, blended
}

Time CxlPool::serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  ++requests_;
  chmu_.observe(arrival, op, offset);
  if (trace) trace->add(path(), "network, arbitration, directory", internal_latency_.get());
  Time at_memory = arrival + internal_latency_.get();
  if (controller_) {
    const Time admitted =
        controller_->traverse(at_memory, kLineBytes, op == MemOp::Write ? write_service_ps_ : read_service_ps_);
    if (trace && admitted > at_memory)
      trace->add(path(), "waiting for the controller's throughput", admitted - at_memory);
    at_memory = admitted;
  }
  const Time queued_from = arrival + internal_latency_.get();
  Time done = memory_.access(at_memory, op, offset, trace);
  // DevLoad: the wait in the device beyond an idle device's service (its controller and DRAM queues).
  if (qos_.enabled())
    last_devload_ = qos_.report(std::max(Time(), done - queued_from - memory_.unloaded_read_latency()));
  if (trace) trace->add(path(), "network back to the port", internal_latency_.get());
  ++responses_;
  return done + internal_latency_.get();
}

void CxlPool::check_attachments() {
  if (links().size() > heads_)
    error_at("heads",
             std::to_string(links().size()) + " links attach to the pool but it has " + std::to_string(heads_.get()) +
                 " heads",
             msg::kTopology);
  // One error for all of them, at the key that made this node a pool (a --set that changed a
  // socket's type is where the mistake is, not the links the generator made for a socket).
  std::string others;
  size_t count = 0;
  for (const Link* l : links())
    if (l->protocol() != Protocol::Cxl && count++ < 3)
      others += (others.empty() ? "" : ", ") + l->path() + " is " + l->type_name();
  if (count > 0)
    error_at("type",
             "the pool attaches only CXL links; " + std::to_string(count) + " are not (" + others +
                 (count > 3 ? ", ..." : "") + ")",
             msg::kTopology);
}

STARNUMA_REGISTER_COMPONENT(CxlPool, "cxl_pool", Role::Node,
                            "CXL multi-headed memory pool device (type-3 MHD) with its own DDR5 channels");

}  // namespace starnuma
