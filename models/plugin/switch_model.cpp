// The switch_model node kind: a forwarding node (as cxl_switch or flex_asic) whose crossing a
// plug-in's SwitchModel times message by message, so a user's switch adds its own delay and
// queueing. Its unloaded crossing (for routing and unloaded latencies) is measured by probing.
#include "common/registry.hpp"
#include "fabric/fabric_node.hpp"
#include "plugin/plugin_params.hpp"
#include "plugin/plugins.hpp"

namespace starnuma {

namespace {

sc_core::sc_time to_sc(Time t) { return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(t.ps())); }
Time from_sc(const sc_core::sc_time& t) { return Time::from_ps(static_cast<int64_t>(t.value())); }

class SwitchModelNode : public FabricNode {
 public:
  SwitchModelNode(sc_core::sc_module_name n, const ScopeContext& c, plugin::SwitchFactory factory) : FabricNode(n, c) {
    PluginParams params(*this, model_params_);
    model_ = plugin_call(plugin_location(*this), path(), "constructor",
                         [&]() -> plugin::SwitchModel* { return &factory("model", params); });
  }
  ~SwitchModelNode() override { delete model_; }

  bool forwards() const override { return true; }
  bool times_messages() const override { return true; }
  // Probed once, when routing first asks (the links are attached by then): one request of a
  // read (its command) through the idle model, between its first two ports.
  Time transit_latency() const override {
    if (!probed_) {
      probed_ = true;
      const unsigned out = links().size() > 1 ? 1 : 0;
      const uint32_t bytes = links().empty() ? 16 : links()[0]->request_bytes();
      unloaded_ = checked(transit(plugin::Message{0, out, bytes, false}, sc_core::SC_ZERO_TIME), Time());
    }
    return unloaded_;
  }
  Time cross(Time arrival, const Link& in, const Link& out, uint32_t bytes, bool response) override {
    return checked(transit(plugin::Message{port(in), port(out), bytes, response}, to_sc(arrival)), arrival);
  }

 private:
  // The model's answer as a time, refused when no switch could give it: before the message arrived
  // or more than a second after (a wrapped subtraction, sc_max_time()).
  Time checked(const sc_core::sc_time& leaves, Time arrival) const {
    const sc_dt::uint64 ps = leaves.value();
    if (ps > static_cast<sc_dt::uint64>(arrival.ps()) + kSecondPs)
      report_error(msg::kInput, path() + ": the switch model let a message leave " + leaves.to_string() +
                                    " after it arrived (more than a second: a defect of the model)");
    const Time t = from_sc(leaves);
    if (t < arrival) report_error(msg::kInput, path() + ": the switch model let a message leave before it arrived");
    return t;
  }

  static constexpr sc_dt::uint64 kSecondPs = 1000000000000ull;

  sc_core::sc_time transit(const plugin::Message& m, const sc_core::sc_time& arrival) const {
    return plugin_call(plugin_location(*this), path(), "transit", [&] { return model_->transit(m, arrival); });
  }

  unsigned port(const Link& link) const {
    for (size_t i = 0; i < links().size(); ++i)
      if (links()[i] == &link) return static_cast<unsigned>(i);
    report_internal(path() + ": a message over a link not attached to it");
  }

  std::vector<std::unique_ptr<ParamBase>> model_params_;
  plugin::SwitchModel* model_ = nullptr;
  mutable bool probed_ = false;
  mutable Time unloaded_;
};

}  // namespace

namespace plugin {

bool register_switch_model(unsigned api_version, const char* name, const char* description, SwitchFactory factory) {
  if (!plugin_api_accepted(api_version)) return false;
  return add_plugin_type<SwitchModelNode>(name, Role::Node,
                                          std::string(description) + " (a switch model, switch_model kind)", factory);
}

}  // namespace plugin

}  // namespace starnuma
