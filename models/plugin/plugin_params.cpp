#include "plugin/plugin_params.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace starnuma {

namespace {

std::vector<std::string> split_choices(std::string_view text) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t bar = std::min(text.find('|', start), text.size());
    words.emplace_back(text.substr(start, bar - start));
    start = bar + 1;
  }
  return words;
}

}  // namespace

template <class T, class... Rest>
T PluginParams::add(const char* name, T default_value, const char* description, Rest&&... rest) {
  auto p = std::make_unique<Param<T>>(owner_, name, std::move(default_value), description, std::forward<Rest>(rest)...);
  T value = p->get();
  store_.push_back(std::move(p));
  return value;
}

sc_core::sc_time PluginParams::time(const char* name, double default_ns, const char* description) {
  return add<Time>(name, Time::from_ps(static_cast<int64_t>(default_ns * 1000 + 0.5)), description, latency_range())
      .to_sc();
}

double PluginParams::bandwidth(const char* name, double default_gb_per_s, const char* description) {
  return add<Bandwidth>(name, Bandwidth::gbps(default_gb_per_s), description, bandwidth_range()).bytes_per_s();
}

uint64_t PluginParams::size(const char* name, uint64_t default_bytes, const char* description) {
  return add<Size>(name, Size::from_bytes(default_bytes), description, Range<Size>{}).bytes();
}

double PluginParams::real(const char* name, double default_value, const char* description) {
  return add<double>(name, default_value, description, Range<double>{});
}

int64_t PluginParams::integer(const char* name, int64_t default_value, const char* description) {
  return add<int64_t>(name, default_value, description, Range<int64_t>{});
}

bool PluginParams::flag(const char* name, bool default_value, const char* description) {
  return add<bool>(name, default_value, description);
}

std::string PluginParams::choice(const char* name, const char* choices, const char* description) {
  std::vector<std::string> list = split_choices(choices);
  if (list.empty()) list.push_back("");
  return add<std::string>(name, list.front(), description, list);
}

plugin::AddressRange PluginParams::memory_node(const char* name, const char* default_node, const char* description) {
  const std::string node = add<std::string>(name, default_node, description, Range<std::string>{});
  const std::vector<NamedRange>* map = owner_.elaboration().address_map();
  if (owner_.elaboration().schema_only()) return {};
  const ParamBase* p = owner_.find_param(name);
  const Location where = p && p->source().known() ? p->source() : owner_.location();
  const std::string key = owner_.path() + "." + name;
  if (!map) {
    owner_.elaboration().diagnostics().error(
        where, key, "a memory node parameter is for initiators only: the address map is not built yet", msg::kInput);
    return {};
  }
  std::vector<std::string> names;
  for (const NamedRange& r : *map) {
    if (r.name == node) return {r.base, r.size};
    names.push_back(r.name);
  }
  owner_.elaboration().diagnostics().error(where, key, "no memory node '" + node + "' (one of " + join(names) + ")");
  return {};
}

}  // namespace starnuma
