#include "sweep/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <systemc>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "common/units.hpp"
#include "option_limits.hpp"
#include "os/os_settings.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma::cli {
namespace fs = std::filesystem;

const char* kind_name(RunKind k) {
  switch (k) {
    case RunKind::Run: return "run";
    case RunKind::Sampled: return "sampled";
    case RunKind::Profile: return "profile";
  }
  return "?";
}

namespace {

enum class ValueType { Text, Count, Fraction, Path, Placement, Kind, Switch };
constexpr unsigned kRun = 1, kSampled = 2, kProfile = 4, kAll = 7;

// Every option a run may take (docs/sweeps.md): its value's type, the kinds it applies to, and the
// command-line flag it becomes (empty: handled by SweepRun::commands itself).
struct OptionInfo {
  const char* name;
  ValueType type;
  unsigned kinds;
  const char* flag;
};
constexpr OptionInfo kOptions[] = {
    {"kind", ValueType::Kind, kAll, ""},
    {"platform", ValueType::Path, kRun | kSampled, ""},
    {"workload", ValueType::Text, kAll, "--workload"},
    {"placement", ValueType::Placement, kRun, "--placement"},
    {"pool_fraction", ValueType::Fraction, kRun, "--pool-fraction"},
    {"oracle_region", ValueType::Text, kRun, "--oracle-region"},
    {"seed", ValueType::Count, kAll, "--seed"},
    {"instructions", ValueType::Count, kAll, "--instructions"},
    {"warmup", ValueType::Count, kRun | kSampled, "--warmup"},
    {"detailed_sockets", ValueType::Count, kRun | kSampled, "--detailed-sockets"},
    {"trace", ValueType::Path, kRun, "--trace-in"},
    {"trace_space", ValueType::Text, kRun, "--trace-space"},
    {"timeline", ValueType::Text, kRun, "--timeline"},
    {"checkpoints", ValueType::Count, kSampled, ""},
    {"jobs", ValueType::Count, kSampled, ""},
    // The units' method is the commands' default (docs/sampling.md, "The defaults"): these set its
    // choices, the pass's options, then the windows'.
    {"unit_every", ValueType::Count, kSampled, ""},
    {"boundaries_only", ValueType::Switch, kSampled, ""},
    {"unit_jitter", ValueType::Switch, kSampled, ""},
    {"timed_start", ValueType::Count, kSampled, ""},
    {"pace", ValueType::Text, kSampled, ""},
    {"warm_llcs", ValueType::Switch, kSampled, ""},
    {"common_span", ValueType::Switch, kSampled, ""},
    {"warm_tlbs", ValueType::Switch, kSampled, ""},
    {"sockets", ValueType::Count, kProfile, "--sockets"},
    {"cores_per_socket", ValueType::Count, kProfile, "--cores-per-socket"},
};
constexpr const char* kSetPrefix = "set:";
// More runs than any cluster study needs: a larger cross product is a mistake, refused before it
// is built (docs/sweeps.md).
constexpr size_t kMaxRuns = 100000;
// A label axis only names runs (and is a column of the database): it becomes no option.
constexpr const char* kLabelPrefix = "label:";

const OptionInfo* find_option(const std::string& name) {
  for (const OptionInfo& o : kOptions)
    if (name == o.name) return &o;
  return nullptr;
}
std::vector<std::string> option_names() {
  std::vector<std::string> names;
  for (const OptionInfo& o : kOptions) names.push_back(o.name);
  names.push_back("set:KEY");
  names.push_back("label:NAME");
  return names;
}

// One value an axis or `fixed:` gives an option, with where it was written.
struct Value {
  std::string text;
  Location where;
};

class SpecReader {
 public:
  explicit SpecReader(const std::string& path) : path_(path), dir_(fs::absolute(path).parent_path()) {}

  SweepSpec read() {
    const ConfigNode doc = load_yaml_file(path_);
    SweepSpec spec;
    spec.path = path_;
    if (!doc.is_map()) {
      issue(doc.location(), "", "a sweep file is a map with 'sweep:', 'fixed:', 'axes:' and 'name:' keys");
      diagnostics_.raise_if_any();
    }
    static const std::vector<std::string> top{"sweep", "description", "baseline", "fixed", "axes", "name", "parts"};
    for (const MapEntry& e : doc.entries())
      if (std::find(top.begin(), top.end(), e.key) == top.end()) unknown(e, "", top);
    spec.name = scalar(doc, "sweep", "", true);
    if (doc.find("sweep") && doc.find("sweep")->is_scalar() && !is_name(spec.name))
      issue(doc.find("sweep")->location(), "sweep",
            "'" + spec.name + "' is not a name (letters, digits, '_', '-', '.')");
    spec.description = scalar(doc, "description", "", false);
    spec.baseline = scalar(doc, "baseline", "", false);

    // The whole file is one part, or each of `parts:` is one, on top of the file's own fixed
    // options and axes: the runs are the union of the parts' cross products.
    Part shared = read_part(doc, "", {}, {});
    std::vector<Part> parts;
    std::set<std::string> part_names;
    if (const ConfigNode* list = doc.find("parts")) {
      if (list->kind() != ConfigNode::Kind::Sequence || list->items().empty()) {
        issue(list->location(), "parts",
              "expected a list of parts, each a map with 'part:', 'fixed:', 'axes:', 'name:'");
      } else {
        for (size_t i = 0; i < list->items().size(); ++i) {
          const ConfigNode& p = list->items()[i];
          const std::string path = "parts[" + std::to_string(i) + "]";
          if (!p.is_map()) {
            issue(p.location(), path, "expected a map with 'part:', 'fixed:', 'axes:', 'name:'");
            continue;
          }
          static const std::vector<std::string> keys{"part", "fixed", "axes", "name"};
          for (const MapEntry& e : p.entries())
            if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) unknown(e, path, keys);
          parts.push_back(read_part(p, path, shared.fixed, shared.groups));
          parts.back().name = scalar(p, "part", path, true);
          if (!parts.back().name.empty() && !is_name(parts.back().name))
            issue(p.find("part")->location(), path + ".part",
                  "'" + parts.back().name + "' is not a name (letters, digits, '_', '-', '.')");
          else if (!parts.back().name.empty() && !part_names.insert(parts.back().name).second)
            issue(p.find("part")->location(), path + ".part", "two parts are both named '" + parts.back().name + "'");
          if (parts.back().name_template.empty()) parts.back().name_template = shared.name_template;
        }
      }
    } else {
      parts.push_back(shared);
    }
    const bool named_parts = doc.find("parts") != nullptr;
    if (named_parts) spec.axes.push_back("part");
    for (const Part& part : parts)
      for (const Group& g : part.groups)
        for (const auto& [axis, values] : g.axes)
          if (std::find(spec.axes.begin(), spec.axes.end(), axis) == spec.axes.end()) spec.axes.push_back(axis);
    // The cross product's size before it is built: a mistyped axis must not exhaust the host.
    double total = 0;
    for (const Part& part : parts) {
      double n = 1;
      for (const Group& g : part.groups) n *= static_cast<double>(g.size);
      total += n;
    }
    if (total > kMaxRuns)
      issue(doc.location(), "axes",
            "the axes make " + std::to_string(static_cast<unsigned long long>(total)) + " runs, more than the " +
                std::to_string(kMaxRuns) + " a sweep may have: split it or shorten an axis");
    diagnostics_.raise_if_any();

    std::set<std::string> names;
    for (const Part& part : parts) {
      // The cross product, the first axis varying slowest.
      std::vector<size_t> at(part.groups.size(), 0);
      for (bool more = true; more;) {
        std::map<std::string, Value> chosen = part.fixed;
        std::vector<std::pair<std::string, std::string>> params;
        if (named_parts) params.emplace_back("part", part.name);
        Location where = part.groups.empty() ? part.where : Location{};
        for (size_t g = 0; g < part.groups.size(); ++g)
          for (const auto& [axis, values] : part.groups[g].axes) {
            chosen[axis] = values[at[g]];
            params.emplace_back(axis, values[at[g]].text);
            if (!where.known()) where = values[at[g]].where;
          }
        SweepRun run = make_run(chosen, params, where);
        run.name =
            part.name_template.empty() ? default_name(run) : expand_name(part.name_template, run, part.name_where);
        if (run.name.find_first_not_of('.') == std::string::npos)  // "", "." and ".." are not folders of runs/
          issue(part.name_template.empty() ? where : part.name_where, "name",
                "a run named '" + run.name +
                    "' (what remains of its name as a file name): name: needs letters or digits");
        else if (!names.insert(run.name).second)
          issue(part.name_template.empty() ? where : part.name_where, "name",
                "two runs are both named '" + run.name + "': give 'name:' a template with every varying axis, e.g. {" +
                    (spec.axes.empty() ? std::string("workload") : spec.axes.back()) + "}");
        spec.runs.push_back(std::move(run));
        more = false;
        for (size_t g = part.groups.size(); g-- > 0;) {
          if (++at[g] < part.groups[g].size) {
            more = true;
            break;
          }
          at[g] = 0;
        }
        if (diagnostics_.count() > 20) break;  // enough to fix first
      }
    }
    if (!spec.baseline.empty() && std::none_of(spec.runs.begin(), spec.runs.end(),
                                               [&](const SweepRun& r) { return r.platform_name == spec.baseline; }))
      issue(doc.find("baseline")->location(), "baseline",
            "no run is on a platform named '" + spec.baseline + "' (a platform file's stem, e.g. baseline16-scaled)");
    if (spec.baseline.empty())
      for (const SweepRun& r : spec.runs)
        if (!r.platform_name.empty()) {
          spec.baseline = r.platform_name;
          break;
        }
    diagnostics_.raise_if_any();
    return spec;
  }

 private:
  struct Group {
    std::vector<std::pair<std::string, std::vector<Value>>> axes;  // zipped: equal lengths
    size_t size = 0;
  };
  struct Part {
    std::string name;  // empty: the file is one part
    std::map<std::string, Value> fixed;
    std::vector<Group> groups;
    std::string name_template;
    Location name_where, where;
  };

  // A part's fixed options over `fixed` (the file's), its axes after `groups` (the file's).
  Part read_part(const ConfigNode& node, const std::string& path, std::map<std::string, Value> fixed,
                 std::vector<Group> groups) {
    Part part;
    const std::string prefix = path.empty() ? "" : path + ".";
    if (const ConfigNode* f = node.find("fixed")) read_fixed(*f, fixed, prefix);
    if (const ConfigNode* a = node.find("axes")) read_axes(*a, fixed, groups, prefix);
    part.fixed = std::move(fixed);
    part.groups = std::move(groups);
    part.name_template = scalar(node, "name", path, false);
    part.name_where = node.find("name") ? node.find("name")->location() : node.location();
    part.where = node.location();
    return part;
  }

  void issue(const Location& where, const std::string& key, const std::string& message) {
    diagnostics_.error(where, key, message);
  }
  void unknown(const MapEntry& e, const std::string& section, const std::vector<std::string>& valid) {
    const std::string near = nearest_word(e.key, valid);
    issue(e.key_location, section.empty() ? e.key : section + "." + e.key,
          "unknown key '" + e.key + "'" +
              (near.empty() ? " (valid keys: " + join(valid) + ")" : " (did you mean '" + near + "'?)"));
  }
  static bool is_name(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
  }
  std::string scalar(const ConfigNode& doc, const char* key, const std::string& path, bool required) {
    const ConfigNode* n = doc.find(key);
    const std::string full = path.empty() ? key : path + "." + key;
    if (!n) {
      if (required) issue(doc.location(), full, std::string("missing '") + key + "': a name");
      return "";
    }
    if (!n->is_scalar()) {
      issue(n->location(), full, std::string("expected a single value, got ") + ConfigNode::kind_name(n->kind()));
      return "";
    }
    return n->value();
  }

  // Checks an option's name and value; false after reporting a problem.
  bool check_option(const std::string& key, const ConfigNode& value, const Location& key_where,
                    const std::string& path) {
    if (key.rfind(kSetPrefix, 0) == 0) {
      if (key.size() == std::string(kSetPrefix).size()) {
        issue(key_where, path, "'set:' needs a parameter's key, e.g. set:topology.cxl.latency");
        return false;
      }
    } else if (key.rfind(kLabelPrefix, 0) == 0) {
      if (key.size() == std::string(kLabelPrefix).size()) {
        issue(key_where, path, "'label:' needs a name, e.g. label:variant");
        return false;
      }
    } else if (!find_option(key)) {
      const std::vector<std::string> valid = option_names();
      const std::string near = nearest_word(key, valid);
      issue(key_where, path,
            "unknown option '" + key + "'" +
                (near.empty() ? " (options: " + join(valid) + ")" : " (did you mean '" + near + "'?)"));
      return false;
    }
    if (!value.is_scalar()) {
      issue(value.location(), path, std::string("expected a single value, got ") + ConfigNode::kind_name(value.kind()));
      return false;
    }
    const OptionInfo* info = find_option(key);
    if (!info) return true;
    const std::string& v = value.value();
    std::string problem;
    switch (info->type) {
      case ValueType::Count: {
        const Parsed<int64_t> n = parse_integer(v);
        if (!n || *n.value < 0) problem = "'" + v + "' is not a count (a whole number from 0)";
        break;
      }
      case ValueType::Fraction: {
        const Parsed<double> x = parse_real(v);
        if (!x || !(*x.value >= 0 && *x.value <= 1)) problem = "'" + v + "' is not a fraction from 0 to 1";
        break;
      }
      case ValueType::Placement:
        if (!listed(names_of<Placement>(), v)) problem = "'" + v + "' is not one of " + join(names_of<Placement>());
        break;
      case ValueType::Kind:
        if (v != "run" && v != "sampled" && v != "profile") problem = "'" + v + "' is not run, sampled or profile";
        break;
      case ValueType::Switch:
        if (v != "true" && v != "false") problem = "'" + v + "' is not true or false";
        break;
      case ValueType::Path:
        if (!fs::is_regular_file(resolve(v)))
          problem = "no file '" + resolve(v) + "' (paths are relative to the sweep file)";
        break;
      case ValueType::Text:
        if (key == "workload") problem = workload_problem(v);
        break;
    }
    if (problem.empty()) problem = range_problem(key, v);
    if (!problem.empty()) issue(value.location(), path, problem);
    return problem.empty();
  }

  static bool listed(const std::vector<std::string>& words, const std::string& v) {
    return std::find(words.begin(), words.end(), v) != words.end();
  }
  // The ranges the commands check, checked here so that no run fails for them after others ran.
  static std::string range_problem(const std::string& key, const std::string& v) {
    const auto count_in = [&](int64_t lo, int64_t hi) -> std::string {
      const Parsed<int64_t> n = parse_integer(v);
      if (n && *n.value >= lo && *n.value <= hi) return "";
      return "'" + v + "' is not from " + std::to_string(lo) + " to " + std::to_string(hi);
    };
    const auto max_instructions = static_cast<int64_t>(limits::kMaxInstructions);
    if (key == "instructions") return count_in(1, max_instructions);
    if (key == "warmup") return count_in(0, max_instructions);
    if (key == "checkpoints") return count_in(1, limits::kMaxCheckpoints);
    if (key == "unit_every") return count_in(1000, max_instructions);
    if (key == "timed_start") return count_in(0, max_instructions);
    if (key == "jobs") return count_in(0, limits::kMaxJobs);
    if (key == "detailed_sockets") return count_in(0, limits::kMaxDetailedSockets);
    if (key == "sockets") return count_in(1, limits::kMaxProfileSockets);
    if (key == "cores_per_socket") return count_in(1, limits::kMaxProfileCores);
    if (key == "pace" && !listed(limits::kPaces, v)) return "'" + v + "' is not one of " + join(limits::kPaces);
    if (key == "trace_space" && !listed(limits::kTraceSpaces, v))
      return "'" + v + "' is not one of " + join(limits::kTraceSpaces);
    if (key == "timeline") {
      const Parsed<Time> t = parse_time(v);
      if (!t || t.value->ps() <= 0) return "'" + v + "' is not a positive time (e.g. 1us)";
    }
    if (key == "oracle_region") {
      const Parsed<Size> size = parse_size(v);
      const uint64_t b = size ? size.value->bytes() : 0;
      if (b < 4096 || b > 512 * 1024 || (b & (b - 1)) != 0)
        return "'" + v + "' is not a power of two from 4KiB to 512KiB";
    }
    return "";
  }

  std::string workload_problem(const std::string& text) {
    if (auto it = workloads_checked_.find(text); it != workloads_checked_.end()) return it->second;
    std::string problem;
    try {
      const std::string resolved = resolve_workload(text);
      if (is_program_mix(resolved)) parse_program_mix(resolved);  // checks every program's workload
      else check_workload(resolved);
    } catch (const sc_core::sc_report& r) {
      problem = r.get_msg();
    }
    return workloads_checked_[text] = problem;
  }

  void read_fixed(const ConfigNode& f, std::map<std::string, Value>& fixed, const std::string& prefix) {
    if (!f.is_map()) {
      issue(f.location(), prefix + "fixed", "expected a map of options to values");
      return;
    }
    for (const MapEntry& e : f.entries()) {
      if (e.key == "set" && e.value.is_map()) {
        for (const MapEntry& s : e.value.entries())
          if (check_option(kSetPrefix + s.key, s.value, s.key_location, prefix + "fixed.set." + s.key))
            fixed[kSetPrefix + s.key] = {s.value.value(), s.value.location()};
        continue;
      }
      if (check_option(e.key, e.value, e.key_location, prefix + "fixed." + e.key))
        fixed[e.key] = {e.value.value(), e.value.location()};
    }
  }

  bool read_axis(const std::string& key, const ConfigNode& list, const Location& key_where, const std::string& path,
                 const std::map<std::string, Value>& fixed, std::vector<Value>& values) {
    if (fixed.count(key)) {
      issue(key_where, path, "'" + key + "' is both in 'fixed:' and an axis");
      return false;
    }
    if (list.kind() != ConfigNode::Kind::Sequence || list.items().empty()) {
      issue(list.location(), path, "an axis is a non-empty list of values, e.g. [a, b]");
      return false;
    }
    bool ok = true;
    for (const ConfigNode& item : list.items()) {
      if (check_option(key, item, key_where, path)) values.push_back({item.value(), item.location()});
      else ok = false;
    }
    return ok;
  }

  void read_axes(const ConfigNode& a, const std::map<std::string, Value>& fixed, std::vector<Group>& groups,
                 const std::string& prefix) {
    if (!a.is_map()) {
      issue(a.location(), prefix + "axes",
            "expected a map of axes: OPTION: [values], or GROUP: {OPTION: [values], ...} zipped");
      return;
    }
    std::set<std::string> seen;
    for (const Group& g : groups)
      for (const auto& [axis, values] : g.axes) seen.insert(axis);
    const std::string axes = prefix + "axes.";
    for (const MapEntry& e : a.entries()) {
      Group g;
      if (e.value.is_map()) {  // a zipped group: its lists vary together
        if (e.value.entries().empty())
          issue(e.value.location(), axes + e.key, "an empty zipped group: give it OPTION: [values] lists");
        for (const MapEntry& z : e.value.entries()) {
          std::vector<Value> values;
          if (!seen.insert(z.key).second)
            issue(z.key_location, axes + e.key + "." + z.key, "'" + z.key + "' is already an axis");
          if (!read_axis(z.key, z.value, z.key_location, axes + e.key + "." + z.key, fixed, values)) continue;
          if (!g.axes.empty() && values.size() != g.size) {
            issue(z.value.location(), axes + e.key + "." + z.key,
                  "a zipped group's lists vary together and need the same length: " + std::to_string(values.size()) +
                      " values here, " + std::to_string(g.size) + " in '" + g.axes.front().first + "'");
            continue;
          }
          g.size = values.size();
          g.axes.emplace_back(z.key, std::move(values));
        }
      } else {
        std::vector<Value> values;
        if (!seen.insert(e.key).second) issue(e.key_location, axes + e.key, "'" + e.key + "' is already an axis");
        if (!read_axis(e.key, e.value, e.key_location, axes + e.key, fixed, values)) continue;
        g.size = values.size();
        g.axes.emplace_back(e.key, std::move(values));
      }
      if (!g.axes.empty()) groups.push_back(std::move(g));
    }
  }

  std::string resolve(const std::string& p) const {
    return fs::path(p).is_absolute() || dir_.empty() ? p : (dir_ / p).lexically_normal().string();
  }
  // A workload file (name ending .yaml) is relative to the sweep file too.
  std::string resolve_workload(const std::string& text) const {
    const size_t colon = text.find(':');
    const std::string name = text.substr(0, colon);
    if (is_yaml_path(name)) return resolve(name) + (colon == std::string::npos ? "" : text.substr(colon));
    return text;
  }

  SweepRun make_run(const std::map<std::string, Value>& chosen, std::vector<std::pair<std::string, std::string>> params,
                    const Location& where) {
    SweepRun run;
    run.where = where;
    run.params = std::move(params);
    if (auto k = chosen.find("kind"); k != chosen.end())
      run.kind = k->second.text == "sampled"   ? RunKind::Sampled
                 : k->second.text == "profile" ? RunKind::Profile
                                               : RunKind::Run;
    const unsigned kind_bit = run.kind == RunKind::Run ? kRun : run.kind == RunKind::Sampled ? kSampled : kProfile;
    for (const auto& [key, value] : chosen) {
      if (key.rfind(kSetPrefix, 0) == 0) {
        if (run.kind == RunKind::Profile) issue(value.where, key, "a profile run has no platform to --set");
        run.sets.emplace_back(key.substr(std::string(kSetPrefix).size()), value.text);
        continue;
      }
      if (key.rfind(kLabelPrefix, 0) == 0) continue;
      const OptionInfo* info = find_option(key);
      if (!(info->kinds & kind_bit)) {
        issue(value.where, key, "'" + key + "' does not apply to a " + kind_name(run.kind) + " run");
        continue;
      }
      if (key == "platform") {
        run.platform = resolve(value.text);
        run.platform_written = value.text;
        run.platform_name = fs::path(value.text).stem().string();
      } else if (key == "trace") {
        run.options[key] = resolve(value.text);
      } else if (key == "workload") {
        run.options[key] = resolve_workload(value.text);
      } else if (key != "kind") {
        run.options[key] = value.text;
      }
    }
    if (run.kind != RunKind::Profile && run.platform.empty()) issue(where, "platform", "this run has no 'platform'");
    if (!run.options.count("workload") && !run.options.count("trace"))
      issue(where, "workload", "this run has no 'workload' (or 'trace')");
    if (run.options.count("workload") && run.options.count("trace"))
      issue(where, "trace", "a run reads its 'trace' or runs its 'workload', not both");
    if (run.options.count("unit_every") && chosen.count("boundaries_only") &&
        chosen.at("boundaries_only").text == "true")
      issue(chosen.at("boundaries_only").where, "boundaries_only",
            "a run with 'boundaries_only' has no units: drop 'unit_every'");
    if (chosen.count("boundaries_only") && chosen.at("boundaries_only").text == "true" && chosen.count("unit_jitter") &&
        chosen.at("unit_jitter").text == "true")
      issue(chosen.at("unit_jitter").where, "unit_jitter",
            "a run with 'boundaries_only' has no units to place: drop 'unit_jitter'");
    return run;
  }

  // A folder name: "bfs:scale=18,trials=100" becomes "bfs-scale18-trials100".
  static std::string sanitize(const std::string& text) {
    std::string out;
    for (char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') out += c;
      else if (c == ':' || c == ',') out += '-';
      else if (c != '=') out += '_';
    }
    return out;
  }
  // An axis value as a name shows it: a file by its stem.
  static std::string shown(const std::string& axis, const std::string& text) {
    return axis == "platform" || axis == "trace" ? fs::path(text).stem().string() : text;
  }
  std::string default_name(const SweepRun& r) const {
    std::string name;
    for (const auto& [axis, text] : r.params) name += (name.empty() ? "" : "-") + sanitize(shown(axis, text));
    return name.empty() ? "run" : name;
  }
  std::string expand_name(const std::string& tmpl, const SweepRun& r, const Location& where) {
    std::string out;
    for (size_t i = 0; i < tmpl.size();) {
      if (tmpl[i] != '{') {
        out += tmpl[i++];
        continue;
      }
      const size_t close = tmpl.find('}', i);
      if (close == std::string::npos) {
        issue(where, "name", "'{' without '}' in the name template");
        return "";
      }
      const std::string axis = tmpl.substr(i + 1, close - i - 1);
      auto it = std::find_if(r.params.begin(), r.params.end(), [&](const auto& p) { return p.first == axis; });
      if (it == r.params.end()) {
        issue(where, "name", "'{" + axis + "}' is not an axis of this sweep");
        return "";
      }
      out += shown(axis, it->second);
      i = close + 1;
    }
    return sanitize(out);
  }

  std::string path_;
  fs::path dir_;
  Diagnostics diagnostics_;
  std::map<std::string, std::string> workloads_checked_;
};

}  // namespace

std::vector<std::vector<std::string>> SweepRun::commands(const std::string& dir) const {
  const auto add_flags = [&](std::vector<std::string>& argv, unsigned kinds) {
    for (const OptionInfo& o : kOptions)
      if (*o.flag && (o.kinds & kinds))
        if (auto it = options.find(o.name); it != options.end()) {
          argv.push_back(o.flag);
          argv.push_back(it->second);
        }
  };
  const auto add_sets = [&](std::vector<std::string>& argv) {
    for (const auto& [key, value] : sets) argv.insert(argv.end(), {"--set", key + "=" + value});
  };
  switch (kind) {
    case RunKind::Run: {
      std::vector<std::string> argv{"starnuma", "run", platform};
      add_flags(argv, kRun);
      add_sets(argv);
      argv.insert(argv.end(), {"--out", dir + "/out", "--json", "--no-progress"});
      return {argv};
    }
    case RunKind::Sampled: {
      std::vector<std::string> pass{"starnuma",
                                    "checkpoint",
                                    platform,
                                    "--workload",
                                    option("workload"),
                                    "--checkpoints",
                                    option("checkpoints", "5"),
                                    "--out",
                                    dir + "/checkpoints",
                                    "--no-progress"};
      if (options.count("seed")) pass.insert(pass.end(), {"--seed", option("seed")});
      if (options.count("unit_every")) pass.insert(pass.end(), {"--unit-every", option("unit_every")});
      if (options.count("timed_start")) pass.insert(pass.end(), {"--timed-start", option("timed_start")});
      if (options.count("pace")) pass.insert(pass.end(), {"--pace", option("pace")});
      if (option("boundaries_only", "false") == "true") pass.push_back("--boundaries-only");
      add_sets(pass);
      std::vector<std::string> windows{
          "starnuma",          "sample", platform,         "--checkpoints", dir + "/checkpoints", "--jobs",
          option("jobs", "1"), "--out",  dir + "/sampled", "--json"};
      for (const char* key : {"instructions", "warmup", "detailed_sockets"})
        if (options.count(key)) windows.insert(windows.end(), {find_option(key)->flag, option(key)});
      // A switch given either way is passed on; absent, the commands' defaults.
      const auto choice = [&](const char* key, const char* on, const char* off, std::vector<std::string>& argv) {
        if (options.count(key)) argv.push_back(option(key) == "true" ? on : off);
      };
      choice("unit_jitter", "--unit-jitter", "--no-unit-jitter", pass);
      choice("warm_llcs", "--warm-llcs", "--no-warm-llcs", pass);
      choice("warm_llcs", "--warm-llcs", "--no-warm-llcs", windows);
      choice("common_span", "--common-span", "--per-thread-budgets", windows);
      choice("warm_tlbs", "--warm-tlbs", "--no-warm-tlbs", windows);
      add_sets(windows);
      return {pass, windows};
    }
    case RunKind::Profile: {
      std::vector<std::string> argv{"starnuma", "profile"};
      add_flags(argv, kProfile);
      argv.push_back("--json");
      return {argv};
    }
  }
  return {};
}

std::string SweepRun::stats_file() const {
  return kind == RunKind::Run ? "out/stats.json" : kind == RunKind::Sampled ? "sampled/sampled.json" : "summary.json";
}

SweepSpec load_sweep_spec(const std::string& path) { return SpecReader(path).read(); }

}  // namespace starnuma::cli
