#include "component.hpp"

namespace starnuma {

Component::Component(sc_core::sc_module_name name, const ScopeContext& ctx)
    : sc_core::sc_module(name), ParamScope(ctx) {
  if (path() != this->name())
    report_internal("component '" + std::string(this->name()) + "' was configured as '" + path() +
                    "': its SystemC hierarchy must mirror its YAML path");
}

}  // namespace starnuma
