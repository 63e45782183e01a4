// Plug-ins with the defects a plug-in author makes, one type each: a target without a blocking
// transport, one that calls wait() inside b_transport, one that answers before the request
// arrived, a switch model whose constructor throws, one that returns impossible times, and an
// initiator that never finishes. Every command must end with exit 1 naming the node (or, for the
// endless initiator, stop at its time limit and say so), never an internal error or a hang.
#include <stdexcept>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
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

// A TLM target that answers before the request arrived (it resets the annotated delay to zero): a
// run through it must refuse it with exit 1, not take time backwards.
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

// A switch model that returns the largest time SystemC has (a model that computed "arrival minus
// something" and wrapped does the same): every command must refuse it with exit 1.
class BrokenSwitch : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  BrokenSwitch(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {}
  sc_core::sc_time transit(const starnuma::plugin::Message&, const sc_core::sc_time&) override {
    return sc_core::sc_max_time();
  }
};

STARNUMA_REGISTER_SWITCH_MODEL(BrokenSwitch, "test_broken_switch", "A test switch model returning impossible times");

// Initiators that read the pool's first line: again and again (Endless: `latency` must still end,
// and a run must stop at platform.initiator_time_limit and say so), or once and then throw from
// their process (Crashing: exit 1 naming the node).
class PoolReader : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<PoolReader> socket{"socket"};

 protected:
  PoolReader(sc_core::sc_module_name n, starnuma::plugin::Params& p, bool endless)
      : sc_module(n), target_(p.memory_node("target", "pool", "Memory node it reads")), endless_(endless) {
    SC_THREAD(run);
  }

 private:
  SC_HAS_PROCESS(PoolReader);
  void run() {
    unsigned char data[64] = {};
    tlm::tlm_generic_payload t;
    t.set_data_ptr(data);
    t.set_data_length(64);
    t.set_streaming_width(64);
    t.set_command(tlm::TLM_READ_COMMAND);
    do {
      t.set_address(target_.base);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(t, delay);
      wait(delay);
    } while (endless_);
    throw std::runtime_error("the generator ran out of patterns");
  }
  starnuma::plugin::AddressRange target_;
  bool endless_;
};

class Endless : public PoolReader {
 public:
  Endless(sc_core::sc_module_name n, starnuma::plugin::Params& p) : PoolReader(n, p, true) {}
};

class Crashing : public PoolReader {
 public:
  Crashing(sc_core::sc_module_name n, starnuma::plugin::Params& p) : PoolReader(n, p, false) {}
};

STARNUMA_REGISTER_TLM_INITIATOR(Endless, "test_endless", "A test initiator that never finishes");
STARNUMA_REGISTER_TLM_INITIATOR(Crashing, "test_crashing", "A test initiator whose process throws");
