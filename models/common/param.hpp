// Typed parameters. A parameter is a member of the component (or generator) it configures:
//
//   Param<Time> latency{*this, "latency", 25_ns, "One-way traversal latency", at_least(0_ns)};
//
// Its name is the YAML key inside the owner's map, so its full name (owner path + "." + name) is
// the YAML path users write in files and in `--set`. The value is read from the configuration at
// construction; a wrong type, a missing unit or a value outside the range is a configuration
// error naming the key, and the parameter keeps its default so elaboration can go on and report
// every other error too.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_node.hpp"
#include "diagnostics.hpp"
#include "units.hpp"

namespace starnuma {

class ParamScope;

// A reference by name to a topology node; resolved by the platform once every node exists.
struct NodeRef {
  std::string name;
  Location location;
  bool operator==(const NodeRef& o) const { return name == o.name; }
  bool operator<(const NodeRef& o) const { return name < o.name; }
};

// ---- how each value type is read, printed and exported ------------------------------------
template <class T, class Enable = void>
struct ParamTraits;

template <>
struct ParamTraits<Time> {
  static constexpr const char* kind = "time";
  static constexpr const char* json_unit = "ns";
  static Parsed<Time> parse(std::string_view s) { return parse_time(s); }
  static std::string format(Time v) { return format_time(v); }
  static nlohmann::ordered_json json(Time v) { return v.ns(); }
};
template <>
struct ParamTraits<Size> {
  static constexpr const char* kind = "size";
  static constexpr const char* json_unit = "B";
  static Parsed<Size> parse(std::string_view s) { return parse_size(s); }
  static std::string format(Size v) { return format_size(v); }
  static nlohmann::ordered_json json(Size v) { return v.bytes(); }
};
template <>
struct ParamTraits<Bandwidth> {
  static constexpr const char* kind = "bandwidth";
  static constexpr const char* json_unit = "B/s";
  static Parsed<Bandwidth> parse(std::string_view s) { return parse_bandwidth(s); }
  static std::string format(Bandwidth v) { return format_bandwidth(v); }
  static nlohmann::ordered_json json(Bandwidth v) { return v.bytes_per_s(); }
};
template <>
struct ParamTraits<Frequency> {
  static constexpr const char* kind = "frequency";
  static constexpr const char* json_unit = "Hz";
  static Parsed<Frequency> parse(std::string_view s) { return parse_frequency(s); }
  static std::string format(Frequency v) { return format_frequency(v); }
  static nlohmann::ordered_json json(Frequency v) { return v.hz(); }
};
template <class T>
struct ParamTraits<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr const char* kind = "integer";
  static constexpr const char* json_unit = "";
  static Parsed<T> parse(std::string_view s) {
    auto v = parse_integer(s);
    if (!v) return Parsed<T>::fail(v.error);
    if (std::is_unsigned_v<T> && *v.value < 0) return Parsed<T>::fail("'" + std::string(s) + "' cannot be negative");
    if (*v.value < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        (*v.value > 0 && static_cast<uint64_t>(*v.value) > static_cast<uint64_t>(std::numeric_limits<T>::max())))
      return Parsed<T>::fail("'" + std::string(s) + "' does not fit this parameter's integer type");
    return Parsed<T>::ok(static_cast<T>(*v.value));
  }
  static std::string format(T v) { return std::to_string(v); }
  static nlohmann::ordered_json json(T v) { return v; }
};
template <>
struct ParamTraits<double> {
  static constexpr const char* kind = "real";
  static constexpr const char* json_unit = "";
  static Parsed<double> parse(std::string_view s) { return parse_real(s); }
  static std::string format(double v) { return format_real(v); }
  static nlohmann::ordered_json json(double v) { return v; }
};
template <>
struct ParamTraits<bool> {
  static constexpr const char* kind = "bool";
  static constexpr const char* json_unit = "";
  static Parsed<bool> parse(std::string_view s) { return parse_bool(s); }
  static std::string format(bool v) { return v ? "true" : "false"; }
  static nlohmann::ordered_json json(bool v) { return v; }
};
template <>
struct ParamTraits<std::string> {
  static constexpr const char* kind = "string";
  static constexpr const char* json_unit = "";
  static Parsed<std::string> parse(std::string_view s) { return Parsed<std::string>::ok(std::string(s)); }
  static std::string format(const std::string& v) { return v; }
  static nlohmann::ordered_json json(const std::string& v) { return v; }
};
template <>
struct ParamTraits<NodeRef> {
  static constexpr const char* kind = "node";
  static constexpr const char* json_unit = "";
  static Parsed<NodeRef> parse(std::string_view s) {
    if (s.empty()) return Parsed<NodeRef>::fail("a node name cannot be empty");
    return Parsed<NodeRef>::ok(NodeRef{std::string(s), {}});
  }
  static std::string format(const NodeRef& v) { return v.name; }
  static nlohmann::ordered_json json(const NodeRef& v) { return v.name; }
};

// ---- ranges ----------------------------------------------------------------------------------
template <class T>
struct Range {
  std::optional<T> min;
  std::optional<T> max;
  bool contains(const T& v) const { return (!min || !(v < *min)) && (!max || !(*max < v)); }
};
template <class T>
Range<T> at_least(T v) {
  return Range<T>{v, std::nullopt};
}
template <class T>
Range<T> between(T lo, T hi) {
  return Range<T>{lo, hi};
}

// A hardware latency or timing: 0 to 10 us. Beyond, nothing the model describes is meant, and a
// run would crawl through events a microsecond apart without saying why (issue 18).
inline Range<Time> latency_range() { return between(Time::from_ps(0), Time::from_ps(10'000'000)); }
// A link's or bus's bandwidth: 10 MB/s to 100 TB/s (below, a run crawls; above, no hardware).
inline Range<Bandwidth> bandwidth_range() {
  return between(Bandwidth::from_bytes_per_s(1e7), Bandwidth::from_bytes_per_s(1e14));
}

struct Required {};  // tag: the parameter has no default and must be given
inline constexpr Required required{};

// ---- the type-erased face every parameter shows to scopes, `list` and `describe` ------------
class ParamBase {
 public:
  ParamBase(const ParamBase&) = delete;
  ParamBase& operator=(const ParamBase&) = delete;
  virtual ~ParamBase() = default;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  bool required() const { return required_; }
  const Location& source() const { return source_; }  // unknown when the default is in use
  bool is_default() const { return !source_.known(); }

  virtual const char* kind() const = 0;
  virtual const char* json_unit() const = 0;
  virtual std::string value_text() const = 0;
  virtual nlohmann::ordered_json value_json() const = 0;
  virtual std::string default_text() const = 0;  // empty when required
  virtual std::string range_text() const = 0;    // e.g. "[1, 16]", ">= 0ns"; empty when unbounded
  virtual std::vector<std::string> choices() const { return {}; }
  nlohmann::ordered_json schema_json() const;

 protected:
  ParamBase(ParamScope& owner, std::string name, std::string description, bool required);
  // Finds this parameter's YAML node in the owner's map, reporting a missing required key.
  const ConfigNode* lookup();
  void report(const ConfigNode& at, const std::string& message);

  ParamScope& owner_;
  std::string name_;
  std::string description_;
  bool required_;
  Location source_;
};

template <class T>
class Param : public ParamBase {
  using Traits = ParamTraits<T>;

 public:
  Param(ParamScope& owner, std::string name, T default_value, std::string description, Range<T> range = {})
      : ParamBase(owner, std::move(name), std::move(description), false),
        value_(default_value),
        default_(std::move(default_value)),
        range_(std::move(range)) {
    read();
  }
  Param(ParamScope& owner, std::string name, Required, std::string description, Range<T> range = {})
      : ParamBase(owner, std::move(name), std::move(description), true),
        value_(range.min ? *range.min : T{}),
        range_(std::move(range)) {
    read();
  }
  // A string parameter restricted to a fixed set of words.
  Param(ParamScope& owner, std::string name, T default_value, std::string description, std::vector<std::string> choices)
      : ParamBase(owner, std::move(name), std::move(description), false),
        value_(default_value),
        default_(std::move(default_value)),
        choices_(std::move(choices)) {
    static_assert(std::is_same_v<T, std::string>, "choices apply to string parameters");
    read();
  }

  const T& get() const { return value_; }
  operator const T&() const { return value_; }
  const T* operator->() const { return &value_; }

  const char* kind() const override { return choices_.empty() ? Traits::kind : "choice"; }
  const char* json_unit() const override { return Traits::json_unit; }
  std::string value_text() const override { return Traits::format(value_); }
  nlohmann::ordered_json value_json() const override { return Traits::json(value_); }
  std::string default_text() const override { return default_ ? Traits::format(*default_) : ""; }
  std::string range_text() const override {
    if (range_.min && range_.max) return "[" + Traits::format(*range_.min) + ", " + Traits::format(*range_.max) + "]";
    if (range_.min) return ">= " + Traits::format(*range_.min);
    if (range_.max) return "<= " + Traits::format(*range_.max);
    return "";
  }
  std::vector<std::string> choices() const override { return choices_; }

 private:
  void read() {
    const ConfigNode* node = lookup();
    if (!node) return;
    if (!node->is_scalar()) {
      report(*node, std::string("expected ") + article(kind()) + ", got " + ConfigNode::kind_name(node->kind()));
      return;
    }
    Parsed<T> parsed = Traits::parse(node->value());
    if (!parsed) {
      report(*node, parsed.error);
      return;
    }
    if (!range_.contains(*parsed.value)) {
      std::string v = "value " + Traits::format(*parsed.value);
      if (range_.min && range_.max) report(*node, v + " is out of range " + range_text());
      else
        report(*node, v + (range_.min ? " is below the minimum " + Traits::format(*range_.min)
                                      : " is above the maximum " + Traits::format(*range_.max)));
      return;
    }
    if (!choices_.empty() && !is_choice(Traits::format(*parsed.value))) {
      report(*node, "'" + node->value() + "' is not one of " + choice_list());
      return;
    }
    value_ = std::move(*parsed.value);
    if constexpr (std::is_same_v<T, NodeRef>) value_.location = node->location();
    source_ = node->location();
  }
  static std::string article(const char* kind) { return std::string(kind[0] == 'i' ? "an " : "a ") + kind; }
  bool is_choice(const std::string& v) const {
    for (const auto& c : choices_)
      if (c == v) return true;
    return false;
  }
  std::string choice_list() const {
    std::string s;
    for (const auto& c : choices_) s += (s.empty() ? "" : ", ") + c;
    return s;
  }

  T value_;
  std::optional<T> default_;
  Range<T> range_;
  std::vector<std::string> choices_;
};

// A parameter whose value is a whole map kept as written, e.g. a generator's template for the
// components it creates. Its contents are validated by whatever the map configures.
class MapParam : public ParamBase {
 public:
  MapParam(ParamScope& owner, std::string name, std::string description, bool is_required = false);
  const ConfigNode* get() const { return node_; }  // null when not given
  bool given() const { return node_ != nullptr; }
  const char* kind() const override { return "map"; }
  const char* json_unit() const override { return ""; }
  std::string value_text() const override { return node_ ? "{...}" : ""; }
  nlohmann::ordered_json value_json() const override;
  std::string default_text() const override { return ""; }
  std::string range_text() const override { return ""; }

 private:
  const ConfigNode* node_ = nullptr;
};

}  // namespace starnuma
