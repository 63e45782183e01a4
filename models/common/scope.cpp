#include "scope.hpp"

#include <algorithm>

#include "param.hpp"
#include "text.hpp"

namespace starnuma {

ParamScope::ParamScope(const ScopeContext& ctx)
    : elaboration_(ctx.elaboration), config_(ctx.config), path_(ctx.path), type_(ctx.type), location_(ctx.location) {
  if (!elaboration_) report_internal("scope '" + path_ + "' built without an elaboration");
  if (ctx.parent) ctx.parent->children_.push_back(this);
  if (config_ && !config_->is_map()) {
    elaboration_->diagnostics().error(
        config_->location(), path_,
        std::string("expected a map of parameters, got ") + ConfigNode::kind_name(config_->kind()));
    config_ = nullptr;
  }
  if (ctx.type_key) accept("type");
}

std::string ParamScope::join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

const ParamBase* ParamScope::find_param(std::string_view name) const {
  for (const ParamBase* p : params_)
    if (p->name() == name) return p;
  return nullptr;
}

const ConfigNode* ParamScope::take(std::string_view key) {
  if (std::find(taken_.begin(), taken_.end(), key) == taken_.end()) taken_.emplace_back(key);
  return config_ ? config_->find(key) : nullptr;
}

ScopeContext ParamScope::child_context(std::string_view key, std::string type) {
  declared_children_.emplace_back(key);
  const ConfigNode* node = take(key);
  Location loc = location_;
  if (config_)
    if (const MapEntry* e = config_->find_entry(key)) loc = e->key_location;
  return ScopeContext{elaboration_, node, join_path(path_, key), loc, this, std::move(type)};
}

void ParamScope::error(const ConfigNode* at, std::string_view key, std::string message, const char* domain) {
  std::string full = key.empty() ? path_ : join_path(path_, key);
  elaboration_->diagnostics().error(at ? at->location() : location_, full, std::move(message), domain);
}

std::vector<std::string> ParamScope::valid_keys() const {
  std::vector<std::string> keys = taken_;
  for (const ParamBase* p : params_) keys.push_back(p->name());
  return keys;
}

void ParamScope::check_unused_keys() const {
  if (config_) {
    auto keys = valid_keys();
    for (const MapEntry& e : config_->entries()) {
      if (std::find(keys.begin(), keys.end(), e.key) != keys.end()) continue;
      std::string message = "unknown key '" + e.key + "'";
      std::string near = nearest_word(e.key, keys);
      if (!near.empty()) {
        message += " (did you mean '" + near + "'?)";
      } else if (!keys.empty()) {
        std::vector<std::string> sorted = keys;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        message += " (valid keys: " + join(sorted) + ")";
      }
      elaboration_->diagnostics().error(e.key_location, join_path(path_, e.key), message);
    }
  }
  for (const ParamScope* c : children_) c->check_unused_keys();
}

}  // namespace starnuma
