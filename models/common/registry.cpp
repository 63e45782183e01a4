#include "registry.hpp"

namespace starnuma {

const char* role_name(Role r) {
  switch (r) {
    case Role::Node: return "node";
    case Role::Link: return "link";
    case Role::Part: return "part";
    case Role::Initiator: return "initiator";
  }
  return "?";
}

void check_registries() {
  if (!ComponentRegistry::instance().duplicate().empty())
    report_internal("component type '" + ComponentRegistry::instance().duplicate() + "' registered twice");
}

}  // namespace starnuma
