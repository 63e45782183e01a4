// An example plug-in: a switch model. A message crosses it in a fixed latency, then waits for its
// output port, which sends one message at a time at the port's bandwidth (output queueing).
// Registered as the node type `example_switch`, a forwarding node like cxl_switch:
//   plugins: [libstarnuma_example_switch.so]
//   nodes: {switch: {type: example_switch, latency: 45ns, port_bandwidth: 64GB/s}}
// With output_queues: false it is cxl_switch (a constant crossing). The ports serve messages in
// the order the fabric presents them, which within a quantum is not always time order: a model
// meant for measurements keeps each port's busy intervals by time instead (docs/plugins.md).
#include <algorithm>
#include <vector>

#include <systemc>

#include "plugin/plugin_api.hpp"

class ExampleSwitch : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  ExampleSwitch(sc_core::sc_module_name n, starnuma::plugin::Params& p)
      : sc_module(n),
        latency_(p.time("latency", 45, "Crossing latency per direction, port to port")),
        queues_(p.flag("output_queues", true, "Messages wait for their output port (false: a constant crossing)")),
        port_bandwidth_(p.bandwidth("port_bandwidth", 64, "Bandwidth of each output port")) {}

  sc_core::sc_time transit(const starnuma::plugin::Message& m, const sc_core::sc_time& arrival) override {
    const sc_core::sc_time crossed = arrival + latency_;
    if (!queues_) return crossed;
    if (m.out_port >= free_.size()) free_.resize(m.out_port + 1, sc_core::SC_ZERO_TIME);
    const sc_core::sc_time leaves = std::max(crossed, free_[m.out_port]);
    free_[m.out_port] = leaves + sc_core::sc_time(m.bytes / port_bandwidth_, sc_core::SC_SEC);
    return leaves;
  }

 private:
  sc_core::sc_time latency_;
  bool queues_;
  double port_bandwidth_;               // bytes per second
  std::vector<sc_core::sc_time> free_;  // when each output port is next free
};

STARNUMA_REGISTER_SWITCH_MODEL(ExampleSwitch, "example_switch",
                               "Example plug-in: a switch of fixed crossing latency with a queue per output port");
