#include "plugin/tlm_initiator.hpp"

#include "common/registry.hpp"
#include "common/text.hpp"
#include "plugin/plugin_params.hpp"
#include "plugin/plugins.hpp"
#include "socket/socket.hpp"

namespace starnuma {

// Sets the extension for one call into the fabric and takes it off again (restoring one the
// module set itself), so the payload leaves with what it came with.
class TlmInitiator::Tag {
 public:
  Tag(tlm::tlm_generic_payload& p, RequesterExtension& e) : p_(p), previous_(p.set_extension(&e)) {}
  ~Tag() {
    if (previous_) p_.set_extension(previous_);
    else p_.clear_extension<RequesterExtension>();
  }

 private:
  tlm::tlm_generic_payload& p_;
  RequesterExtension* previous_;
};

TlmInitiator::TlmInitiator(sc_core::sc_module_name n, const ScopeContext& c, plugin::InitiatorFactory factory)
    : Component(n, c),
      at_(*this, "at", required,
          "The socket the initiator drives the platform from: its transactions take that socket's on-die path and "
          "links"),
      bandwidth_(*this, "bandwidth", "GB/s", "Bytes moved over the time from the first issue to the last completion",
                 [this](sc_core::sc_time) -> nlohmann::json {
                   // Bytes per picosecond (the time resolution) times 1000: GB/s.
                   const double span_ps = static_cast<double>((last_done_ - first_issue_).value());
                   return span_ps > 0 ? static_cast<double>(bytes_.value()) / span_ps * 1e3 : 0.0;
                 }) {
  port_.register_b_transport(this, &TlmInitiator::b_transport);
  port_.register_nb_transport_fw(this, &TlmInitiator::nb_transport_fw);
  port_.register_transport_dbg(this, &TlmInitiator::transport_dbg);
  port_.register_get_direct_mem_ptr(this, &TlmInitiator::get_direct_mem_ptr);
  out_.register_invalidate_direct_mem_ptr(this, &TlmInitiator::invalidate_direct_mem_ptr);
  PluginParams params(*this, module_params_);
  tlm::tlm_initiator_socket<>& socket =
      *plugin_call(plugin_location(*this), path(), "constructor",
                   [&]() -> tlm::tlm_initiator_socket<>* { return &factory("module", params); });
  module_ = socket.get_parent_object();
  if (module_) register_plugin_module(path(), module_->name());
  socket.bind(port_);
}

TlmInitiator::~TlmInitiator() { delete dynamic_cast<sc_core::sc_module*>(module_); }

void TlmInitiator::bind_fabric(Fabric& fabric) {
  if (at_.get().empty()) return;  // a missing `at:` is already reported
  std::vector<std::string> names;
  for (size_t r = 0; r < fabric.requesters().size(); ++r) {
    const Socket& s = *fabric.requesters()[r];
    if (s.basename() == at_.get()) {
      extension_.requester = static_cast<uint32_t>(r);
      out_.bind(fabric.target);
      return;
    }
    names.push_back(s.basename());
  }
  const ParamBase* at = find_param("at");
  elaboration().diagnostics().error(at->source().known() ? at->source() : location(), path() + ".at",
                                    "no socket '" + at_.get() + "' (one of " + join(names) + ")");
}

void TlmInitiator::reset_stats() {
  Component::reset_stats();
  first_issue_ = last_done_ = sc_core::SC_ZERO_TIME;
}

void TlmInitiator::count(const tlm::tlm_generic_payload& p, const sc_core::sc_time& issue,
                         const sc_core::sc_time& done) {
  if (p.is_response_error()) {
    ++errors_;
    return;
  }
  if (!p.is_read() && !p.is_write()) return;  // TLM_IGNORE_COMMAND moves nothing
  if (transactions_.value() == 0 || issue < first_issue_) first_issue_ = issue;
  if (done > last_done_) last_done_ = done;
  ++transactions_;
  ++(p.is_read() ? reads_ : writes_);
  bytes_ += p.get_data_length();
  latency_.sample((done - issue).to_seconds() * 1e9);
}

void TlmInitiator::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const sc_core::sc_time issue = sc_core::sc_time_stamp() + delay;
  {
    Tag tag(p, extension_);
    out_->b_transport(p, delay);
  }
  count(p, issue, sc_core::sc_time_stamp() + delay);
}

// The fabric completes a transaction on BEGIN_REQ (early completion); other phases pass through.
tlm::tlm_sync_enum TlmInitiator::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  const sc_core::sc_time issue = sc_core::sc_time_stamp() + delay;
  const bool request = phase == tlm::BEGIN_REQ;
  tlm::tlm_sync_enum status;
  {
    Tag tag(p, extension_);
    status = out_->nb_transport_fw(p, phase, delay);
  }
  if (request && status == tlm::TLM_COMPLETED) count(p, issue, sc_core::sc_time_stamp() + delay);
  return status;
}

unsigned TlmInitiator::transport_dbg(tlm::tlm_generic_payload& p) { return out_->transport_dbg(p); }

bool TlmInitiator::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  Tag tag(p, extension_);
  return out_->get_direct_mem_ptr(p, dmi);
}

void TlmInitiator::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  port_->invalidate_direct_mem_ptr(start, end);
}

namespace plugin {

bool register_tlm_initiator(unsigned api_version, const char* name, const char* description, InitiatorFactory factory) {
  if (!plugin_api_accepted(api_version)) return false;
  return add_plugin_type<TlmInitiator>(
      name, Role::Initiator, std::string(description) + " (a TLM-2.0 initiator, tlm_initiator kind)", factory);
}

}  // namespace plugin

}  // namespace starnuma
