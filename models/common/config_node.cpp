#include "config_node.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <sstream>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "diagnostics.hpp"

namespace starnuma {

std::string Location::str() const {
  if (!file) return "<unknown>";
  if (line == 0) return *file;
  return *file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

ConfigNode ConfigNode::scalar(std::string value, Location loc) {
  ConfigNode n;
  n.kind_ = Kind::Scalar;
  n.scalar_ = std::move(value);
  n.loc_ = std::move(loc);
  return n;
}

ConfigNode ConfigNode::map(Location loc) {
  ConfigNode n;
  n.kind_ = Kind::Map;
  n.loc_ = std::move(loc);
  return n;
}

const char* ConfigNode::kind_name(Kind k) {
  switch (k) {
    case Kind::Null: return "nothing";
    case Kind::Scalar: return "a single value";
    case Kind::Sequence: return "a list";
    case Kind::Map: return "a map";
  }
  return "?";
}

const MapEntry* ConfigNode::find_entry(std::string_view key) const {
  for (const auto& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

const ConfigNode* ConfigNode::find(std::string_view key) const {
  const MapEntry* e = find_entry(key);
  return e ? &e->value : nullptr;
}

ConfigNode* ConfigNode::find(std::string_view key) {
  for (auto& e : entries_)
    if (e.key == key) return &e.value;
  return nullptr;
}

ConfigNode& ConfigNode::set(std::string key, Location key_loc, ConfigNode value) {
  kind_ = Kind::Map;
  for (auto& e : entries_) {
    if (e.key == key) {
      e.key_location = std::move(key_loc);
      e.value = std::move(value);
      return e.value;
    }
  }
  entries_.push_back(MapEntry{std::move(key), std::move(key_loc), std::move(value)});
  return entries_.back().value;
}

bool ConfigNode::erase(std::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->key == key) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

class YamlConverter {
 public:
  explicit YamlConverter(std::shared_ptr<const std::string> file) : file_(std::move(file)) {}

  // YAML aliases share nodes that conversion copies: a file of a few lines ("billion laughs")
  // could expand without bound. No platform or workload file needs this many values.
  static constexpr uint64_t kMaxValues = 100'000;
  static constexpr unsigned kMaxDepth = 64;

  ConfigNode convert(const YAML::Node& y, unsigned depth = 0) {
    ConfigNode n;
    n.loc_ = at(y.Mark());
    if (++values_ > kMaxValues)
      throw_config_error({n.loc_, "",
                          "the file expands to more than " + std::to_string(kMaxValues) +
                              " values (YAML aliases repeating a large node?)"});
    if (depth > kMaxDepth)
      throw_config_error({n.loc_, "", "maps and lists nested more than " + std::to_string(kMaxDepth) + " deep"});
    switch (y.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null: n.kind_ = ConfigNode::Kind::Null; break;
      case YAML::NodeType::Scalar:
        n.kind_ = ConfigNode::Kind::Scalar;
        n.scalar_ = y.Scalar();
        break;
      case YAML::NodeType::Sequence:
        n.kind_ = ConfigNode::Kind::Sequence;
        for (const auto& item : y) n.items_.push_back(convert(item, depth + 1));
        break;
      case YAML::NodeType::Map:
        n.kind_ = ConfigNode::Kind::Map;
        for (const auto& kv : y) {
          Location key_loc = at(kv.first.Mark());
          if (!kv.first.IsScalar())
            throw_config_error(
                {key_loc, "",
                 "a map key must be a plain name, not " + std::string(kv.first.IsMap() ? "a map" : "a list")});
          std::string key = kv.first.Scalar();
          if (key == "<<" && kv.first.Tag() != "tag:yaml.org,2002:str")
            throw_config_error({key_loc, key,
                                "YAML merge keys (<<) are not supported: write the keys out, or share "
                                "settings with 'extends:'"});
          if (const MapEntry* prev = n.find_entry(key))
            throw_config_error({key_loc, key,
                                "duplicate key '" + key + "' (first given at line " +
                                    std::to_string(prev->key_location.line) + ", column " +
                                    std::to_string(prev->key_location.column) + ")"});
          n.entries_.push_back(MapEntry{key, key_loc, convert(kv.second, depth + 1)});
        }
        break;
    }
    return n;
  }

  Location at(const YAML::Mark& m) const {
    if (m.is_null()) return Location{file_, 0, 0};
    return Location{file_, m.line + 1, m.column + 1};
  }

 private:
  std::shared_ptr<const std::string> file_;
  uint64_t values_ = 0;
};

namespace {

// yaml-cpp 0.7 loops for ever (allocating) on a ',' outside flow collections where it begins a
// line's content (a document beginning with ',') or follows a quoted scalar ("a","b") (found by
// fuzzing, tools/fuzz.sh). YAML never allows the token there (',' cannot start a plain scalar), so
// it is refused before yaml-cpp sees it. Returns its 1-based line and column, or {0, 0}.
std::pair<size_t, size_t> stray_comma(const std::string& text) {
  int flow = 0;            // open [ and { outside quotes and comments
  char quote = 0;          // the open quote, if a quoted scalar continues on the next line
  long block_parent = -1;  // a block scalar's parent indentation: deeper (or blank) lines are its content
  size_t line = 1, i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  for (; i < text.size(); ++line) {
    const size_t eol = std::min(text.find('\n', i), text.size());
    size_t first = i;
    while (first < eol && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r')) ++first;
    const long indent = static_cast<long>(first - i);
    const size_t begin = i;
    i = eol + 1;
    if (block_parent >= 0 && (first == eol || indent > block_parent)) continue;  // block scalar content
    block_parent = -1;
    if (quote == 0 && flow == 0 && first < eol && text[first] == ',') return {line, first - begin + 1};
    size_t content_end = eol;  // before a comment
    for (size_t k = first; k < eol; ++k) {
      const char c = text[k];
      if (quote) {
        if (c == quote && !(quote == '"' && text[k - 1] == '\\')) {
          quote = 0;
          // A ',' right after a quoted scalar outside [ ] and { } is never YAML, and at a
          // document's root it hangs yaml-cpp too ("a","b").
          size_t j = k + 1;
          while (j < eol && (text[j] == ' ' || text[j] == '\t')) ++j;
          if (flow == 0 && j < eol && text[j] == ',') return {line, j - begin + 1};
        }
      } else if (c == '#' && (k == first || text[k - 1] == ' ' || text[k - 1] == '\t')) {
        content_end = k;
        break;
      } else if ((c == '\'' || c == '"') && (k == first || std::strchr(" \t[{,", text[k - 1]) !=
                                                               nullptr)) {  // inside a plain scalar it is a character
        quote = c;
      } else if (c == '[' || c == '{') {
        ++flow;
      } else if ((c == ']' || c == '}') && flow > 0) {
        --flow;
      }
    }
    // "key: |", "- >-", "|2": a block scalar follows (its indicators may trail the | or >).
    if (quote != 0 || flow != 0) continue;
    size_t e = content_end;
    while (e > first && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r')) --e;
    while (e > first &&
           (std::isdigit(static_cast<unsigned char>(text[e - 1])) || text[e - 1] == '-' || text[e - 1] == '+'))
      --e;
    if (e > first && (text[e - 1] == '|' || text[e - 1] == '>') && (e - 1 == first || text[e - 2] == ' '))
      block_parent = indent;
  }
  return {0, 0};
}

// Whether yaml-cpp finishes with `text` (either way) within `seconds`, tried in a child process:
// yaml-cpp 0.7 loops for ever on some malformed input (tools/fuzz.sh finds such files faster than
// they can be refused one by one), and a loop in a child can be stopped.
bool yaml_parser_finishes(const std::string& text, unsigned seconds) {
  const pid_t pid = ::fork();
  if (pid < 0) return true;  // cannot check: parse as before
  if (pid == 0) {
    try {
      YAML::LoadAll(text);
    } catch (...) {
    }
    ::_exit(0);
  }
  // Polled from 0.1 ms up to 10 ms apart: a platform file parses in well under a millisecond.
  for (unsigned waited = 0, step = 100; waited < seconds * 1000000u;
       waited += step, step = std::min(step * 2, 10000u)) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return true;
    ::usleep(step);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return false;
}

ConfigNode parse_documents(std::istream& in, const std::shared_ptr<const std::string>& file) {
  YamlConverter conv(file);
  std::vector<YAML::Node> docs;
  // Lines ended by CR alone (old Mac files) read as one line to YAML: make them LF.
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find('\r') != std::string::npos && text.find('\n') == std::string::npos)
    std::replace(text.begin(), text.end(), '\r', '\n');
  // YAML allows no C0 control character but tab, LF and CR; yaml-cpp looped on some ("\0,\0").
  for (size_t k = 0, line = 1, col = 1; k < text.size(); ++k, ++col) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c == '\n') line += 1, col = 0;
    else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      throw_config_error({Location{file, static_cast<int>(line), static_cast<int>(col)}, "",
                          std::string("YAML syntax error: control character ") + hex + " (YAML allows no such byte)"});
    }
  }
  if (const auto [line, column] = stray_comma(text); line > 0)
    throw_config_error({Location{file, static_cast<int>(line), static_cast<int>(column)}, "",
                        "YAML syntax error: ',' separates items only inside [ ] or { }"});
  if (!yaml_parser_finishes(text, 10))
    throw_config_error({Location{file, 1, 1}, "",
                        "YAML syntax error: the YAML parser (yaml-cpp) does not finish with this file; it is malformed "
                        "in a way it cannot report (look for stray quotes, commas or control characters)"});
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::DeepRecursion& e) {
    throw_config_error({conv.at(e.mark), "", "maps and lists nested deeper than the YAML parser allows"});
  } catch (const YAML::ParserException& e) {
    throw_config_error({conv.at(e.mark), "", "YAML syntax error: " + e.msg});
  } catch (const YAML::Exception& e) {
    throw_config_error({conv.at(e.mark), "", "YAML error: " + e.msg});
  }
  if (docs.size() > 1)
    throw_config_error(
        {conv.at(docs[1].Mark()), "", "a second YAML document starts here; a platform file holds exactly one"});
  if (docs.empty()) return ConfigNode::map(Location{file, 1, 1});
  ConfigNode root = conv.convert(docs.front());
  if (root.is_null()) return ConfigNode::map(Location{file, 1, 1});
  return root;
}

}  // namespace

ConfigNode load_yaml_file(const std::string& path) {
  auto file = std::make_shared<const std::string>(path);
  // A folder or a device is refused before opening: reading a FIFO would block for ever.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw_config_error({Location{file, 0, 0}, "", "cannot open the file"});
  if (!std::filesystem::is_regular_file(status))
    throw_config_error({Location{file, 0, 0}, "", "not a regular file (a folder, device or pipe)"});
  std::ifstream in(path);
  if (!in) throw_config_error({Location{file, 0, 0}, "", "cannot open the file"});
  return parse_documents(in, file);
}

ConfigNode load_yaml_string(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  return parse_documents(in, std::make_shared<const std::string>(origin));
}

void merge_config(ConfigNode& base, const ConfigNode& overlay) {
  if (!base.is_map() || !overlay.is_map()) {
    base = overlay;
    return;
  }
  for (const MapEntry& e : overlay.entries()) {
    if (e.value.is_null()) {
      base.erase(e.key);
      continue;
    }
    ConfigNode* existing = base.find(e.key);
    if (existing && existing->is_map() && e.value.is_map()) {
      merge_config(*existing, e.value);
    } else if (e.value.is_map()) {
      // A new map is built by merging, so that removals (`~`) inside it leave no null behind.
      ConfigNode fresh = ConfigNode::map(e.value.location());
      merge_config(fresh, e.value);
      base.set(e.key, e.key_location, std::move(fresh));
    } else {
      base.set(e.key, e.key_location, e.value);
    }
  }
}

}  // namespace starnuma
