#include "plugin/tlm_target.hpp"

#include "common/diagnostics.hpp"
#include "common/registry.hpp"
#include "fabric/line_payload.hpp"
#include "plugin/plugin_params.hpp"
#include "plugin/plugins.hpp"

namespace starnuma {

using namespace literals;

TlmTargetNode::TlmTargetNode(sc_core::sc_module_name n, const ScopeContext& c, plugin::TargetFactory factory)
    : FabricNode(n, c),
      port_latency_(*this, "port_latency", Time::from_ps(12500), "Device-side port latency per direction",
                    latency_range()),
      capacity_(*this, "capacity", 768_GiB, "Memory behind the module (its offsets 0 to capacity)",
                between(Size::mib(1), Size::gib(1u << 16))),
      cxl_(*this, "cxl", true, "Reached over CXL links (a pool device); false: over coherent links"),
      numa_node_(*this, "numa_node", false,
                 "How the OS sees the device: false, a pool that only placement and migration fill; true, a "
                 "CPU-less NUMA node that first touch may fill (as cxl_pool's numa_node)") {
  PluginParams params(*this, device_params_);
  target_ = plugin_call(plugin_location(*this), path(), "constructor",
                        [&]() -> tlm::tlm_target_socket<>* { return &factory("device", params); });
  device_ = target_->get_parent_object();
  if (device_) register_plugin_module(path(), device_->name());
  socket_.bind(*target_);
  // Unloaded latency by probing: one read of an idle module at time 0.
  unloaded_ = transport(Time(), MemOp::Read, 0);
  errors_ = 0;
}

TlmTargetNode::~TlmTargetNode() { delete dynamic_cast<sc_core::sc_module*>(device_); }

namespace {
constexpr sc_dt::uint64 kSecondPs = 1000000000000ull;
}  // namespace

Time TlmTargetNode::transport(Time arrival, MemOp op, uint64_t offset) {
  tlm::tlm_generic_payload payload;
  uint8_t data[kLineBytes] = {};
  set_line_payload(payload, op, offset, data);
  const Time now = Time::from_ps(static_cast<int64_t>(sc_core::sc_time_stamp().value()));
  const Time base = arrival < now ? arrival : now;
  sc_core::sc_time delay = sc_core::sc_time::from_value(static_cast<sc_dt::uint64>((arrival - base).ps()));
  // Through the module's export: the probe runs before elaboration has bound the ports.
  plugin_call(plugin_location(*this), path(), "b_transport",
              [&] { target_->get_base_export()->b_transport(payload, delay); });
  if (payload.is_response_error()) {
    ++errors_;
    if (errors_ == 1)
      report_error(msg::kInput, path() + ": the TLM target answered " + payload.get_response_string() + " to a " +
                                    (op == MemOp::Read ? "read" : "write") + " at offset " + std::to_string(offset));
  }
  // A target may only add to the delay it was given (the annotated time is when the request is
  // there), and not without bound: an answer before the request, or a wrapped time, is its defect.
  const sc_dt::uint64 given = static_cast<sc_dt::uint64>((arrival - base).ps());
  if (delay.value() < given)
    report_error(msg::kInput, path() +
                                  ": the TLM target answered before the request arrived (it lowered the "
                                  "annotated delay from " +
                                  std::to_string(given) + " ps to " + std::to_string(delay.value()) + " ps)");
  if (delay.value() - given > kSecondPs)
    report_error(msg::kInput, path() + ": the TLM target took " + delay.to_string() +
                                  " for one request (more than a second: a defect of the model)");
  return base + Time::from_ps(static_cast<int64_t>(delay.value()));
}

Time TlmTargetNode::serve(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  ++requests_;
  Time done = transport(arrival, op, offset);
  if (trace) trace->add(path(), "TLM target " + std::string(device_->basename()), done - arrival);
  ++responses_;
  return done;
}

namespace plugin {

bool register_tlm_target(unsigned api_version, const char* name, const char* description, TargetFactory factory) {
  if (!plugin_api_accepted(api_version)) return false;
  return add_plugin_type<TlmTargetNode>(name, Role::Node,
                                        std::string(description) + " (a TLM-2.0 target, tlm_target kind)", factory);
}

}  // namespace plugin

}  // namespace starnuma
