// A TLM target that answers before the request arrived (it resets the annotated delay to zero): a
// run through it must refuse it with exit 1, not take time backwards.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "plugin/plugin_api.hpp"

class EarlyTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<EarlyTarget> socket{"socket"};
  EarlyTarget(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {
    socket.register_b_transport(this, &EarlyTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    delay = sc_core::SC_ZERO_TIME;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

STARNUMA_REGISTER_TLM_TARGET(EarlyTarget, "test_early_target", "A test target answering before requests arrive");
