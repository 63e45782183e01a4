// An example plug-in: a memory pool device as a plain TLM-2.0 target. Each access takes the
// device's fixed latency after its data crosses a channel of the given bandwidth, first come,
// first served (loosely timed: the annotated delay is the service time). Registered as the node
// type `example_pool`; a platform file uses it with `plugins: [libstarnuma_example_pool.so]` and
// `nodes: {pool: {type: example_pool, latency: 80ns}}` (docs/plugins.md).
#include <algorithm>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "plugin/plugin_api.hpp"

class PoolDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PoolDevice> socket{"socket"};

  PoolDevice(sc_core::sc_module_name n, starnuma::plugin::Params& p)
      : sc_module(n),
        latency_(p.time("latency", 80, "Service time of an access on an idle device (after its transfer)")),
        bandwidth_(p.bandwidth("bandwidth", 64, "Bandwidth of the device's channel, shared by reads and writes")) {
    socket.register_b_transport(this, &PoolDevice::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    if (t.get_byte_enable_ptr() || t.get_streaming_width() < t.get_data_length()) {
      t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return;
    }
    const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
    const sc_core::sc_time transfer(t.get_data_length() / bandwidth_, sc_core::SC_SEC);
    const sc_core::sc_time start = std::max(arrival, free_);
    free_ = start + transfer;
    delay = free_ + latency_ - sc_core::sc_time_stamp();
    if (t.is_read()) std::fill_n(t.get_data_ptr(), t.get_data_length(), 0);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  sc_core::sc_time latency_;
  double bandwidth_;  // bytes per second
  sc_core::sc_time free_ = sc_core::SC_ZERO_TIME;
};

STARNUMA_REGISTER_TLM_TARGET(PoolDevice, "example_pool",
                             "Example plug-in: a pool device of fixed latency behind one channel of fixed bandwidth");
