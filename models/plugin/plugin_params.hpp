// The plug-in's view of its component's parameters (plugin::Params): each call declares a Param of
// the component, so a plug-in's parameters are checked, listed and overridden as built-in ones.
#pragma once

#include <memory>
#include <vector>

#include "common/component.hpp"
#include "plugin/plugin_api.hpp"

namespace starnuma {

class PluginParams : public plugin::Params {
 public:
  // The parameters live in `store`, which the component keeps.
  PluginParams(Component& owner, std::vector<std::unique_ptr<ParamBase>>& store) : owner_(owner), store_(store) {}

  sc_core::sc_time time(const char* name, double default_ns, const char* description) override;
  double bandwidth(const char* name, double default_gb_per_s, const char* description) override;
  uint64_t size(const char* name, uint64_t default_bytes, const char* description) override;
  double real(const char* name, double default_value, const char* description) override;
  int64_t integer(const char* name, int64_t default_value, const char* description) override;
  bool flag(const char* name, bool default_value, const char* description) override;
  std::string choice(const char* name, const char* choices, const char* description) override;
  plugin::AddressRange memory_node(const char* name, const char* default_node, const char* description) override;

 private:
  template <class T, class... Rest>
  T add(const char* name, T default_value, const char* description, Rest&&... rest);

  Component& owner_;
  std::vector<std::unique_ptr<ParamBase>>& store_;
};

}  // namespace starnuma
