// A parameter scope is one YAML map: the parameters declared in it and the nested scopes it
// opens. Components and topology generators are scopes. Keys that no parameter or child took are
// reported after construction, with the nearest valid key suggested.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config_node.hpp"
#include "diagnostics.hpp"

namespace starnuma {

class ParamBase;

// A memory node's place in the physical address map, by node name.
struct NamedRange {
  std::string name;
  uint64_t base = 0, size = 0;
};

// State shared by everything built in one elaboration.
class Elaboration {
 public:
  // In schema mode nothing is read from YAML: components are built with defaults only, to list
  // their parameters.
  explicit Elaboration(bool schema_only = false) : schema_only_(schema_only) {}
  Diagnostics& diagnostics() { return diagnostics_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  bool schema_only() const { return schema_only_; }
  // The physical address map, once the fabric is built (null before): what components built
  // after it (initiators) may name.
  const std::vector<NamedRange>* address_map() const { return address_map_ ? &*address_map_ : nullptr; }
  void set_address_map(std::vector<NamedRange> map) { address_map_ = std::move(map); }

 private:
  Diagnostics diagnostics_;
  bool schema_only_;
  std::optional<std::vector<NamedRange>> address_map_;
};

class ParamScope;

struct ScopeContext {
  Elaboration* elaboration = nullptr;
  const ConfigNode* config = nullptr;  // this scope's map; null when nothing was written
  std::string path;                    // full dotted YAML path, e.g. "nodes.socket0.memory"
  Location location;                   // where the scope was declared (for errors with no key)
  ParamScope* parent = nullptr;
  std::string type;       // type name shown by `describe` and `list`
  bool type_key = false;  // the map selects its type with a `type:` key
};

class ParamScope {
 public:
  explicit ParamScope(const ScopeContext& ctx);
  virtual ~ParamScope() = default;
  ParamScope(const ParamScope&) = delete;
  ParamScope& operator=(const ParamScope&) = delete;

  const std::string& path() const { return path_; }
  const std::string& type_name() const { return type_; }
  const ConfigNode* config() const { return config_; }
  const Location& location() const { return location_; }
  Elaboration& elaboration() const { return *elaboration_; }
  const std::vector<ParamBase*>& params() const { return params_; }
  const std::vector<ParamScope*>& child_scopes() const { return children_; }
  const ParamBase* find_param(std::string_view name) const;

  // The node under `key` (null if absent), marking the key as used.
  const ConfigNode* take(std::string_view key);
  // Declares `key` valid without reading it (it will be read elsewhere).
  void accept(std::string_view key) { take(key); }
  // Context for a nested scope (a part of this component) configured by the map under `key`.
  ScopeContext child_context(std::string_view key, std::string type = "");
  // "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
  static std::string join_path(std::string_view parent, std::string_view key);
  // Records a configuration error at `at` (or at this scope when null) for key path+"."+key.
  void error(const ConfigNode* at, std::string_view key, std::string message, const char* domain = msg::kConfig);
  // Records a configuration error for `key` of this scope, at its node in the file when it is given
  // there (a parameter's value), else at this scope.
  void error_at(std::string_view key, std::string message, const char* domain = msg::kConfig) {
    error(config_ ? config_->find(key) : nullptr, key, std::move(message), domain);
  }
  // Reports keys that nothing took, in this scope and all nested ones.
  void check_unused_keys() const;

 private:
  friend class ParamBase;
  void add_param(ParamBase* p) { params_.push_back(p); }
  std::vector<std::string> valid_keys() const;

  Elaboration* elaboration_;
  const ConfigNode* config_;
  std::string path_;
  std::string type_;
  Location location_;
  std::vector<ParamBase*> params_;
  std::vector<ParamScope*> children_;
  std::vector<std::string> taken_;
  std::vector<std::string> declared_children_;
};

}  // namespace starnuma
