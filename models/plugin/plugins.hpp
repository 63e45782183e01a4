// Plug-ins: shared libraries a platform file names (`plugins: [libmydevice.so]`, paths relative to
// the file) or the command line (`starnuma list --plugin`), loaded with dlopen before the platform
// is built. Their static initialisers register their types as built-in ones do.
#pragma once

#include <string>

#include "common/config_node.hpp"

namespace starnuma {

// Loads the libraries `entry` (one path or a list) names, relative to `file`'s folder; a missing
// or bad library is a configuration error at the entry, with dlerror's text.
void load_plugins(const std::string& file, const ConfigNode& entry);
// Loads one library given on the command line; a failure is a usage error.
void load_plugin(const std::string& path);

}  // namespace starnuma
