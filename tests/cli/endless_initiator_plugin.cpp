// An initiator that never finishes: it reads the pool's first line, again and again. `latency`
// must still end, and a run must stop at platform.initiator_time_limit and say so.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "plugin/plugin_api.hpp"

class Endless : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Endless> socket{"socket"};
  Endless(sc_core::sc_module_name n, starnuma::plugin::Params& p)
      : sc_module(n), target_(p.memory_node("target", "pool", "Memory node it reads")) {
    SC_THREAD(run);
  }

 private:
  SC_HAS_PROCESS(Endless);
  void run() {
    unsigned char data[64] = {};
    tlm::tlm_generic_payload t;
    t.set_data_ptr(data);
    t.set_data_length(64);
    t.set_streaming_width(64);
    t.set_command(tlm::TLM_READ_COMMAND);
    for (;;) {
      t.set_address(target_.base);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(t, delay);
      wait(delay);
    }
  }
  starnuma::plugin::AddressRange target_;
};

STARNUMA_REGISTER_TLM_INITIATOR(Endless, "test_endless", "A test initiator that never finishes");
