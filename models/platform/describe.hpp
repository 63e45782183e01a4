// What `starnuma describe` and `starnuma list` print: an elaborated platform, and the catalog of
// every component type and topology generator with its parameters.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "platform/platform.hpp"

namespace starnuma {

nlohmann::ordered_json describe_json(const Platform& platform);
std::string describe_text(const Platform& platform);

// The catalog builds one instance of every type with default parameters (no YAML), so it must
// run in a process that elaborates nothing else.
nlohmann::ordered_json catalog_json();
std::string catalog_text();
std::string workloads_text();    // the workloads alone (`starnuma list --workloads`)
std::string catalog_markdown();  // docs/yaml-reference.md is generated from this

}  // namespace starnuma
