// Plug-ins: shared libraries a platform file names (`plugins: [libmydevice.so]`, paths relative to
// the file) or the command line (`starnuma list --plugin`), loaded with dlopen before the platform
// is built. Their static initialisers register their types as built-in ones do.
#pragma once

#include <string>

#include "common/config_node.hpp"
#include "common/registry.hpp"

namespace starnuma {

// Loads the libraries `entry` (one path or a list) names, relative to `file`'s folder; a missing
// or bad library is a configuration error at the entry, with dlerror's text.
void load_plugins(const std::string& file, const ConfigNode& entry);
// Loads one library given on the command line; a failure is a usage error.
void load_plugin(const std::string& path);
// Registers a plug-in's type. A name already taken (by a built-in type or another plug-in) is
// not registered: the load that brought it fails naming the library and the type.
bool add_plugin_type(ComponentType type);
// The same for a component class built as CLASS(name, context, factory), the plug-in's factory.
template <class CLASS, class Factory>
bool add_plugin_type(const char* name, Role role, const std::string& description, Factory factory) {
  return add_plugin_type(ComponentType{name, role, description,
                                       [factory](const char* n, const ScopeContext& c) -> std::unique_ptr<Component> {
                                         return std::make_unique<CLASS>(n, c, factory);
                                       }});
}

}  // namespace starnuma
