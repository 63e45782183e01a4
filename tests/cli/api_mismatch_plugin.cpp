// A plug-in built against another plug-in API: it registers with version 99 or, built with
// UNVERSIONED, through starnuma 0.1's registration without a version. Loading it must fail naming
// both versions, and register nothing.
#include <systemc>

#include "plugin/plugin_api.hpp"

namespace {

class Passing : public sc_core::sc_module, public starnuma::plugin::SwitchModel {
 public:
  Passing(sc_core::sc_module_name n, starnuma::plugin::Params&) : sc_module(n) {}
  sc_core::sc_time transit(const starnuma::plugin::Message&, const sc_core::sc_time& arrival) override {
    return arrival;
  }
};

starnuma::plugin::SwitchModel& build(const char* name, starnuma::plugin::Params& p) { return *new Passing(name, p); }

}  // namespace

#ifdef UNVERSIONED
namespace starnuma::plugin {
bool register_switch_model(const char* name, const char* description, SwitchFactory factory);  // starnuma 0.1's
}
static const bool registered =
    starnuma::plugin::register_switch_model("test_old_api_switch", "A plug-in of starnuma 0.1", build);
#else
static const bool registered =
    starnuma::plugin::register_switch_model(99, "test_future_api_switch", "A plug-in of a later API", build);
#endif
