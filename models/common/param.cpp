#include "param.hpp"

#include "scope.hpp"

namespace starnuma {

ParamBase::ParamBase(ParamScope& owner, std::string name, std::string description, bool required)
    : owner_(owner), name_(std::move(name)), description_(std::move(description)), required_(required) {
  owner_.add_param(this);
}

const ConfigNode* ParamBase::lookup() {
  if (owner_.elaboration().schema_only()) return nullptr;
  const ConfigNode* node = owner_.take(name_);
  if (node && node->is_null()) node = nullptr;
  if (!node && required_) owner_.error(nullptr, "", "missing required key '" + name_ + "'");
  return node;
}

void ParamBase::report(const ConfigNode& at, const std::string& message) { owner_.error(&at, name_, message); }

nlohmann::ordered_json ParamBase::schema_json() const {
  nlohmann::ordered_json j;
  j["name"] = name_;
  j["kind"] = kind();
  if (*json_unit()) j["json_unit"] = json_unit();
  if (required_) j["required"] = true;
  else if (!default_text().empty()) j["default"] = default_text();
  if (!range_text().empty()) j["range"] = range_text();
  if (!choices().empty()) j["choices"] = choices();
  j["description"] = description_;
  return j;
}

MapParam::MapParam(ParamScope& owner, std::string name, std::string description, bool is_required)
    : ParamBase(owner, std::move(name), std::move(description), is_required) {
  const ConfigNode* node = lookup();
  if (!node) return;
  if (!node->is_map()) {
    report(*node, std::string("expected a map, got ") + ConfigNode::kind_name(node->kind()));
    return;
  }
  node_ = node;
  source_ = node->location();
}

nlohmann::ordered_json MapParam::value_json() const {
  return node_ ? nlohmann::ordered_json::object() : nlohmann::ordered_json();
}

}  // namespace starnuma
