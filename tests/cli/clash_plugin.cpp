// A plug-in that registers a type under a built-in name (cxl_switch), or, built with
// TYPE_NAME="", under no name: loading it must fail with an error naming the library and the
// type, and leave the built-in type in place.
#include <systemc>

#include "plugin/plugin_api.hpp"

class Clash : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  Clash(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {}
  sc_core::sc_time transit(const starnuma::plugin::Message&, const sc_core::sc_time& arrival) override {
    return arrival;
  }
};

#ifndef TYPE_NAME
#define TYPE_NAME "cxl_switch"
#endif

STARNUMA_REGISTER_SWITCH_MODEL(Clash, TYPE_NAME, "A test plug-in whose type name is taken or empty");
