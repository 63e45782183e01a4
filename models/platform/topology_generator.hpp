// Topology generators expand a few numbers (chassis, sockets per chassis, ...) into the node and
// link entries a platform would otherwise list by hand. A generator is selected under
// `topology:` by `generator: NAME`; its output is merged under the explicit `nodes:` and
// `links:` maps, which may therefore override any generated component by name.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/param.hpp"
#include "common/registry.hpp"
#include "common/scope.hpp"

namespace starnuma {

class TopologyGenerator : public ParamScope {
 public:
  using ParamScope::ParamScope;
  // Appends generated entries (maps with `type:` and parameters) to the two maps.
  virtual void generate(ConfigNode& nodes, ConfigNode& links) = 0;

 protected:
  // A node built from `tmpl` (the user's template map, may be absent) with `type` as default.
  void add_node(ConfigNode& nodes, const std::string& name, const MapParam& tmpl, const char* type);
  // A link built from `tmpl` joining `a` and `b`.
  void add_link(ConfigNode& links, const std::string& type, const MapParam& tmpl, const std::string& a,
                const std::string& b);

 private:
  ConfigNode instantiate(const MapParam& tmpl, const char* type) const;
  Location generated_at() const;
};

using GeneratorType = ScopedType<TopologyGenerator>;
using GeneratorRegistry = Registry<GeneratorType>;
#define STARNUMA_REGISTER_GENERATOR(CLASS, NAME, DESCRIPTION) \
  STARNUMA_REGISTER_SCOPED(::starnuma::TopologyGenerator, CLASS, NAME, DESCRIPTION)

}  // namespace starnuma
