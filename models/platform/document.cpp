#include "platform/document.hpp"

#include <filesystem>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "plugin/plugins.hpp"

namespace starnuma {

namespace fs = std::filesystem;

namespace {

std::string canonical_key(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return (ec ? p : c).string();
}

ConfigNode load_with_bases(const std::string& path, std::vector<std::string>& chain);

// One entry of `extends:`: the merged document of that base file.
ConfigNode load_base(const std::string& path, const ConfigNode& entry, std::vector<std::string>& chain) {
  if (!entry.is_scalar() || entry.value().empty())
    throw_config_error(
        {entry.location(), "extends", "expected the path of a platform file to extend, or a list of them"});
  fs::path base = fs::path(path).parent_path() / entry.value();
  std::error_code ec;
  if (!fs::is_regular_file(base, ec))
    throw_config_error(
        {entry.location(), "extends",
         "cannot open '" + entry.value() + "' (a relative path starts at the folder of the file that extends it)"});
  std::string key = canonical_key(base);
  for (size_t i = 0; i < chain.size(); ++i) {
    if (chain[i] == key) {
      std::string cycle;
      for (size_t j = i; j < chain.size(); ++j) cycle += fs::path(chain[j]).filename().string() + " -> ";
      throw_config_error(
          {entry.location(), "extends", "'extends' cycle: " + cycle + fs::path(key).filename().string()});
    }
  }
  chain.push_back(key);
  ConfigNode merged = load_with_bases(base.lexically_normal().string(), chain);
  chain.pop_back();
  return merged;
}

ConfigNode load_with_bases(const std::string& path, std::vector<std::string>& chain) {
  ConfigNode doc = load_yaml_file(path);
  if (!doc.is_map())
    throw_config_error(
        {doc.location(), "",
         std::string("a platform file must be a map of keys, not ") + ConfigNode::kind_name(doc.kind())});
  // Plug-ins load first: the types they register may appear anywhere in the document.
  if (const MapEntry* plugins = doc.find_entry("plugins")) {
    load_plugins(path, plugins->value);
    doc.erase("plugins");
  }
  const MapEntry* ext = doc.find_entry("extends");
  if (!ext) return doc;
  // Bases merge left to right; this file's own keys go last.
  ConfigNode merged = ConfigNode::map(doc.location());
  if (ext->value.kind() == ConfigNode::Kind::Sequence) {
    for (const ConfigNode& entry : ext->value.items()) merge_config(merged, load_base(path, entry, chain));
  } else {
    merged = load_base(path, ext->value, chain);
  }
  ConfigNode own = doc;
  own.erase("extends");
  merge_config(merged, own);
  return merged;
}

}  // namespace

void apply_override(ConfigNode& document, const std::string& assignment) {
  auto origin = std::make_shared<const std::string>("--set " + assignment);
  Location where{origin, 0, 0};
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw_config_error({where, "", "expected --set key.path=value"});
  std::string path = assignment.substr(0, eq);
  std::vector<std::string> keys;
  for (size_t start = 0;;) {
    size_t dot = path.find('.', start);
    std::string seg = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (seg.empty()) throw_config_error({where, path, "empty segment in the key path"});
    keys.push_back(seg);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  ConfigNode value = load_yaml_string(assignment.substr(eq + 1), *origin);
  // load_yaml_string gives an empty map for empty text; an empty value means "remove", and only
  // what the document holds can be removed (a generated component is not in it: silently doing
  // nothing would let the user believe it gone).
  if (assignment.size() == eq + 1) {
    value = ConfigNode();
    const ConfigNode* at = &document;
    for (const std::string& k : keys) {
      at = at->is_map() ? at->find(k) : nullptr;
      if (!at)
        throw_config_error({where, path,
                            "nothing to remove: the platform file has no '" + path +
                                "' (generated components are shaped through their generator's keys, e.g. topology.*)"});
    }
  }
  // Rebuild the value with the override's origin so errors point at the command line.
  struct Relocate {
    const Location& at;
    ConfigNode operator()(const ConfigNode& n) const {
      switch (n.kind()) {
        case ConfigNode::Kind::Scalar: return ConfigNode::scalar(n.value(), at);
        case ConfigNode::Kind::Map: {
          ConfigNode m = ConfigNode::map(at);
          for (const auto& e : n.entries()) m.set(e.key, at, (*this)(e.value));
          return m;
        }
        default: return n;
      }
    }
  };
  ConfigNode overlay = Relocate{where}(value);
  for (size_t i = keys.size(); i-- > 0;) {
    ConfigNode m = ConfigNode::map(where);
    m.set(keys[i], where, std::move(overlay));
    overlay = std::move(m);
  }
  merge_config(document, overlay);
}

ConfigNode load_platform_document(const std::string& path, const std::vector<std::string>& overrides) {
  std::vector<std::string> chain{canonical_key(path)};
  ConfigNode doc = load_with_bases(path, chain);
  for (const auto& o : overrides) apply_override(doc, o);
  return doc;
}

}  // namespace starnuma
