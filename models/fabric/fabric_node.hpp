// A vertex of the platform topology: anything a link can attach to. Each kind says what crossing
// it costs, so routing and timing come from the nodes' own parameters.
#pragma once

#include <vector>

#include "common/component.hpp"
#include "fabric/link.hpp"

namespace starnuma {

class HdmDecoder;

class Fabric;
class MemoryHome;

class FabricNode : public Component {
 public:
  using Component::Component;
  void attach(Link& link) { links_.push_back(&link); }
  const std::vector<Link*>& links() const { return links_; }

  // Whether routes may pass through this node (routers and switches do; sockets and devices not).
  virtual bool forwards() const { return false; }
  // Latency of crossing this node as an intermediate hop, per direction, ports included (for a
  // node that times each message, its unloaded crossing: what routing and unloaded latency use).
  virtual Time transit_latency() const { return Time(); }
  // Whether each message's crossing is timed by cross() (a plug-in switch model with queues of its
  // own) rather than by the constant transit latency.
  virtual bool times_messages() const { return false; }
  // When a message of `bytes` that reached this node over `in` at `arrival` leaves over `out`.
  virtual Time cross(Time arrival, const Link& in, const Link& out, uint32_t bytes, bool response) {
    return arrival + transit_latency();
  }
  // Latency of this node's port on `via`, per direction, when a route starts or ends here.
  virtual Time port_latency(const Link& via) const { return Time(); }
  // The protocol of the links a route to this node may use (sockets: coherent; CXL devices: CXL).
  virtual Protocol reached_by() const { return Protocol::Coherent; }
  // Whether a route of `protocol` may end here (a socket that lends its memory is reached over CXL
  // too: a logical memory pool).
  virtual bool reachable_by(Protocol protocol) const { return reached_by() == protocol; }
  // The memory this node owns, if any.
  virtual MemoryHome* memory_home() { return nullptr; }
  // Its HDM decoder, when it is a CXL memory device that can be interleaved (fabric/hdm_decoder.hpp).
  virtual HdmDecoder* hdm_decoder() { return nullptr; }
  // Whether this node issues memory accesses (a socket's LLC misses): routes start here, and it
  // registers as a requester when the fabric binds it.
  virtual bool is_requester() const { return false; }
  // A requester's on-die round trip between its caches and its fabric port (half each way).
  virtual Time uncore_latency() const { return Time(); }
  // The crossing inside the node between its port and its memory and directory, per direction
  // (the pool device's network and arbitration; 0 where the port leads straight to them).
  virtual Time internal_latency() const { return Time(); }
  // The share of this node's memory other hosts may use when each socket is a host of its own
  // (platform.separate_hosts): all of a shared device's.
  virtual double lent_share() const { return 1.0; }
  // Whether the OS may place pages here on first touch (a socket's memory, a CPU-less NUMA
  // node), or only by placement policy (StarNUMA's pool).
  virtual bool first_touch() const { return true; }
  // Elaboration: the fabric built over this node binds it once, in node order; a requester
  // registers itself there (Fabric::add_requester) and binds what it owns to the fabric.
  virtual void bind_fabric(Fabric& fabric) {}
  // Called once every link is attached: reports attachments the node cannot have.
  virtual void check_attachments() {}
  // Where the route table last built over this node keeps it (a hint: the table checks it).
  size_t route_index() const { return route_index_; }
  void set_route_index(size_t i) { route_index_ = i; }

 private:
  std::vector<Link*> links_;
  size_t route_index_ = static_cast<size_t>(-1);
};

}  // namespace starnuma
