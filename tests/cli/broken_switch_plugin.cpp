// A switch model that returns the largest time SystemC has (a model that computed "arrival minus
// something" and wrapped does the same): every command must refuse it with exit 1.
#include <systemc>

#include "plugin/plugin_api.hpp"

class BrokenSwitch : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  BrokenSwitch(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {}
  sc_core::sc_time transit(const starnuma::plugin::Message&, const sc_core::sc_time&) override {
    return sc_core::sc_max_time();
  }
};

STARNUMA_REGISTER_SWITCH_MODEL(BrokenSwitch, "test_broken_switch", "A test switch model returning impossible times");
