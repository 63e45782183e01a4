// The raw configuration layer: a YAML document as a tree that remembers where every value came
// from (file, line, column), so that any later error can name its source. Platform files, their
// `extends:` bases and command-line `--set` overrides all become ConfigNodes and merge here.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starnuma {

struct Location {
  std::shared_ptr<const std::string> file;  // path as the user gave it, or "--set K=V"
  int line = 0;                             // 1-based; 0 when the origin has no lines
  int column = 0;                           // 1-based
  std::string str() const;                  // "file:line:column"
  bool known() const { return file != nullptr; }
};

struct MapEntry;

class ConfigNode {
 public:
  enum class Kind { Null, Scalar, Sequence, Map };

  ConfigNode() = default;
  static ConfigNode scalar(std::string value, Location loc);
  static ConfigNode map(Location loc);

  Kind kind() const { return kind_; }
  bool is_map() const { return kind_ == Kind::Map; }
  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_null() const { return kind_ == Kind::Null; }
  const Location& location() const { return loc_; }
  const std::string& value() const { return scalar_; }  // scalar text
  static const char* kind_name(Kind k);

  // Map access (keys keep their order of appearance).
  const std::vector<MapEntry>& entries() const { return entries_; }
  const ConfigNode* find(std::string_view key) const;
  ConfigNode* find(std::string_view key);
  const MapEntry* find_entry(std::string_view key) const;
  ConfigNode& set(std::string key, Location key_loc, ConfigNode value);
  bool erase(std::string_view key);

  const std::vector<ConfigNode>& items() const { return items_; }  // sequence access

 private:
  friend ConfigNode convert_yaml_node(const void*, const std::shared_ptr<const std::string>&);
  friend class YamlConverter;
  Kind kind_ = Kind::Null;
  Location loc_;
  std::string scalar_;
  std::vector<ConfigNode> items_;
  std::vector<MapEntry> entries_;
};

struct MapEntry {
  std::string key;
  Location key_location;
  ConfigNode value;
};

// Parses YAML text or a file into a ConfigNode. Syntax errors, duplicate keys and multi-document
// files raise a configuration error naming file, line and column.
ConfigNode load_yaml_file(const std::string& path);
ConfigNode load_yaml_string(const std::string& text, const std::string& origin);

// Deep-merges `overlay` onto `base`: maps merge key by key, anything else replaces. An overlay
// value of null (`~`) removes the key from the base.
void merge_config(ConfigNode& base, const ConfigNode& overlay);

}  // namespace starnuma
