// Plug-ins: shared libraries a platform file names (`plugins: [libmydevice.so]`, paths relative to
// the file) or the command line (`starnuma list --plugin`), loaded with dlopen before the platform
// is built. Their static initialisers register their types as built-in ones do.
#pragma once

#include <exception>
#include <string>
#include <systemc>

#include "common/config_node.hpp"
#include "common/diagnostics.hpp"
#include "common/registry.hpp"
#include "common/scope.hpp"

namespace starnuma {

// Loads the libraries `entry` (one path or a list) names, relative to `file`'s folder; a missing
// or bad library is a configuration error at the entry, with dlerror's text.
void load_plugins(const std::string& file, const ConfigNode& entry);
// Loads one library given on the command line; a failure is a usage error.
void load_plugin(const std::string& path);
// A SystemC error on one line: its kind ("wait() is only allowed in SC_THREADs ...") and text.
std::string systemc_error_text(const sc_core::sc_report& r);

// Calls into a plug-in's code (its constructor, its transport, its model): what it throws, or a
// SystemC error it causes (wait() inside b_transport, no transport registered), is the plug-in's
// defect and ends the command with exit 1 naming NODE, where the platform file gives it (`where`),
// and WHAT it was doing: a constructor's refusal of a parameter value reads as any bad value does.
// A user error the plug-in reports through its parameters passes unchanged.
template <class F>
decltype(auto) plugin_call(const Location& where, const std::string& node, const char* what, F&& f);

// Where the platform file gives the node its plug-in's type: the node's map may come from a file it
// extends, its `type:` from the user's.
inline Location plugin_location(const ParamScope& node) {
  const ConfigNode* type = node.config() ? node.config()->find("type") : nullptr;
  return type ? type->location() : node.location();
}

template <class F>
decltype(auto) plugin_call(const Location& where, const std::string& node, const char* what, F&& f) {
  try {
    return f();
  } catch (const sc_core::sc_report& r) {
    if (is_user_error(r.get_msg_type())) throw;
    throw_config_error({where, node, std::string("the plug-in failed in its ") + what + ": " + systemc_error_text(r)});
  } catch (const std::exception& e) {
    throw_config_error({where, node, std::string("the plug-in's ") + what + " threw: " + e.what()});
  } catch (...) {
    throw_config_error(
        {where, node, std::string("the plug-in's ") + what + " threw an exception that is not a std::exception"});
  }
}

// A plug-in module's own processes (an initiator's SC_THREAD) run outside any plug-in_call: what
// they throw ends sc_start. Components register the module they built, so the command can name
// the node instead of reporting an internal error.
void register_plugin_module(const std::string& node, const std::string& module_name);
// The node whose plug-in module holds the process named `process` (a SystemC hierarchical name),
// or "" when it is none of theirs.
std::string plugin_node_of_process(const std::string& process);

// Whether a plug-in built against plug-in API `version` may register its types: this starnuma's
// STARNUMA_PLUGIN_API_VERSION only. A refused one fails the load that brought it, naming both.
bool plugin_api_accepted(unsigned version);

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
