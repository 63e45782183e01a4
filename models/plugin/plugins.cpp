#include "plugin/plugins.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

namespace {

// Type names a library being loaded tried to register twice (its static initialisers run inside
// dlopen, before the loader can say which library it was).
std::vector<std::string>& clashes() {
  static std::vector<std::string> names;
  return names;
}

// dlopen's error text, or empty when the library loaded. A library stays loaded for the process:
// its types stay registered and dlopen of the same file again is a no-op.
std::string open_library(const std::string& path) {
  dlerror();
  clashes().clear();
  if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    if (clashes().empty()) return "";
    return "it registers the type '" + join(clashes(), "', '") +
           "', a name already taken by a built-in type or an earlier plug-in: rename it in the plug-in";
  }
  const char* e = dlerror();
  return e ? e : "dlopen failed";
}

}  // namespace

void load_plugins(const std::string& file, const ConfigNode& entry) {
  auto load_one = [&](const ConfigNode& item) {
    if (!item.is_scalar() || item.value().empty())
      throw_config_error({item.location(), "plugins", "expected the path of a shared library (a plug-in)"});
    std::filesystem::path lib(item.value());
    if (lib.is_relative()) lib = std::filesystem::path(file).parent_path() / lib;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(lib, ec))
      throw_config_error({item.location(), "plugins",
                          "cannot open plug-in '" + item.value() + "' (" + lib.string() +
                              " does not exist; a relative path starts at the folder of the platform file)"});
    // dlopen needs a path with a slash, or it searches the library path instead of the file.
    std::string error = open_library(lib.is_absolute() ? lib.string() : "./" + lib.string());
    if (!error.empty())
      throw_config_error({item.location(), "plugins", "cannot load plug-in '" + item.value() + "': " + error});
  };
  if (entry.kind() == ConfigNode::Kind::Sequence) {
    for (const ConfigNode& item : entry.items()) load_one(item);
  } else {
    load_one(entry);
  }
}

bool add_plugin_type(ComponentType type) {
  if (ComponentRegistry::instance().find(type.name)) {
    clashes().push_back(type.name);
    return false;
  }
  return ComponentRegistry::instance().add(std::move(type));
}

void load_plugin(const std::string& path) {
  std::string p = path.find('/') == std::string::npos ? "./" + path : path;
  std::string error = open_library(p);
  if (!error.empty()) report_error(msg::kUsage, "cannot load plug-in '" + path + "': " + error);
}

}  // namespace starnuma
