// The tlm_target node kind: a node whose memory range is served by a TLM-2.0 target module (a
// plug-in's, registered with STARNUMA_REGISTER_TLM_TARGET) behind the fabric's links. The node is
// the memory_home adapter: serve() sends the access to the module's socket with b_transport and
// takes the annotated delay as the service time. Its unloaded service time is measured by one
// probe read at elaboration, never written by hand.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "fabric/fabric_node.hpp"
#include "memory/memory_home.hpp"
#include "plugin/plugin_api.hpp"

namespace starnuma {

class TlmTargetNode : public FabricNode, public MemoryHome {
 public:
  TlmTargetNode(sc_core::sc_module_name n, const ScopeContext& c, plugin::TargetFactory factory);
  ~TlmTargetNode() override;

  Time port_latency(const Link& via) const override { return port_latency_; }
  Protocol reached_by() const override { return cxl_ ? Protocol::Cxl : Protocol::Coherent; }
  MemoryHome* memory_home() override { return this; }
  bool first_touch() const override { return numa_node_; }
  Size memory_capacity() const override { return capacity_; }
  Time serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) override;
  Time unloaded_service() const override { return unloaded_; }
  uint64_t errors() const { return errors_; }

 private:
  // One b_transport to the module: returns when the response leaves it.
  Time transport(Time arrival, MemOp op, uint64_t offset);

  Param<Time> port_latency_;
  Param<Size> capacity_;
  Param<bool> cxl_;
  Param<bool> numa_node_;
  std::vector<std::unique_ptr<ParamBase>> device_params_;
  tlm_utils::simple_initiator_socket<TlmTargetNode> socket_{"socket"};
  tlm::tlm_target_socket<>* target_ = nullptr;
  sc_core::sc_object* device_ = nullptr;
  Time unloaded_;
  uint64_t errors_ = 0;
};

}  // namespace starnuma
