// Plug-ins with the defects a plug-in author makes, one type each: a target without a blocking
// transport, one that calls wait() inside b_transport, and a switch model whose constructor
// throws. Every command must end with exit 1 naming the node, never an internal error.
#include <stdexcept>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "plugin/plugin_api.hpp"

class NoTransport : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NoTransport> socket{"socket"};
  NoTransport(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {}
};
STARNUMA_REGISTER_TLM_TARGET(NoTransport, "test_no_transport", "A target that registers no b_transport");

class WaitsInTransport : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<WaitsInTransport> socket{"socket"};
  WaitsInTransport(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {
    socket.register_b_transport(this, &WaitsInTransport::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};
STARNUMA_REGISTER_TLM_TARGET(WaitsInTransport, "test_waits_in_transport", "A target that calls wait() in b_transport");

class ThrowingSwitch : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  ThrowingSwitch(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {
    throw std::runtime_error("cannot build this switch");
  }
  sc_core::sc_time transit(const starnuma::plugin::Message&, const sc_core::sc_time& arrival) override {
    return arrival;
  }
};
STARNUMA_REGISTER_SWITCH_MODEL(ThrowingSwitch, "test_throwing_switch", "A switch model whose constructor throws");
