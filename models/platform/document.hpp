// Reading a platform file into one merged document: its `extends:` chain (each file overrides
// the one it extends) and then the command line's `--set key.path=value` overrides.
#pragma once

#include <string>
#include <vector>

#include "common/config_node.hpp"

namespace starnuma {

// Raises a configuration error (file:line:column) for syntax errors, a missing or cyclic
// `extends:`, and malformed overrides.
ConfigNode load_platform_document(const std::string& path, const std::vector<std::string>& overrides);

// Applies one "a.b.c=value" override; the value is read as YAML (a scalar, `[...]` or `{...}`;
// an empty value removes the key).
void apply_override(ConfigNode& document, const std::string& assignment);

}  // namespace starnuma
