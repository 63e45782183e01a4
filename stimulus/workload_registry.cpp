#include "stimulus/workload_registry.hpp"

#include "common/text.hpp"

namespace starnuma {

uint64_t thread_seed(uint64_t seed, unsigned thread) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (thread + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool is_yaml_path(const std::string& name) {
  auto ends_with = [&](const char* suffix) {
    const std::string x(suffix);
    return name.size() > x.size() && name.compare(name.size() - x.size(), x.size(), x) == 0;
  };
  return ends_with(".yaml") || ends_with(".yml");
}

namespace {

const WorkloadType& find_workload(const std::string& name, const Location& where) {
  const WorkloadType* type = WorkloadRegistry::instance().find(name);
  if (!type) {
    std::vector<std::string> known = WorkloadRegistry::instance().names([](const WorkloadType&) { return true; });
    std::string near = nearest_word(name, known);
    throw_config_error({where, "",
                        "unknown workload '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                            "; known workloads: " + join(known)});
  }
  return *type;
}

// Parses and checks "name:key=value,..." and hands the checked parameters to `use`.
template <class Use>
auto with_workload_spec(const std::string& text, Use use) {
  auto origin = std::make_shared<const std::string>("--workload " + text);
  const Location where{origin, 0, 0};
  const size_t colon = text.find(':');
  std::string name = text.substr(0, colon);
  // A workload file: `workload: NAME` and the parameters, as keys of one map.
  ConfigNode params = ConfigNode::map(where);
  if (is_yaml_path(name)) {
    params = load_yaml_file(name);
    if (!params.is_map()) throw_config_error({params.location(), "", "a workload file is a map with a 'workload' key"});
    const ConfigNode* type_key = params.find("workload");
    if (!type_key || !type_key->is_scalar())
      throw_config_error({params.location(), "workload", "a workload file names its workload: 'workload: NAME'"});
    const Location type_location = type_key->location();
    name = type_key->value();
    find_workload(name, type_location);
    params.erase("workload");
  }
  const WorkloadType& type = find_workload(name, where);
  if (colon != std::string::npos) {
    const std::string list = text.substr(colon + 1);
    for (size_t start = 0; start <= list.size();) {
      size_t comma = list.find(',', start);
      std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        throw_config_error({where, name, "expected key=value, got '" + item + "'"});
      params.set(item.substr(0, eq), where, ConfigNode::scalar(item.substr(eq + 1), where));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  Elaboration elab;
  auto spec = type.create(ScopeContext{&elab, &params, name, params.location(), nullptr, name, false});
  spec->check_unused_keys();
  elab.diagnostics().raise_if_any();
  return use(*spec);
}

struct KeptWorkload {
  std::string text;
  unsigned threads = 0, sockets = 0;
  uint64_t seed = 0;
  std::unique_ptr<Workload> workload;
  bool used = false;
};

KeptWorkload& kept() {
  static KeptWorkload k;
  return k;
}

}  // namespace

void keep_workload(const std::string& text, unsigned threads, unsigned sockets, uint64_t seed,
                   std::unique_ptr<Workload> workload) {
  kept() = KeptWorkload{text, threads, sockets, seed, std::move(workload), false};
}

bool kept_workload_used() { return kept().used; }

std::unique_ptr<Workload> make_workload(const std::string& text, unsigned threads, unsigned sockets, uint64_t seed) {
  KeptWorkload& k = kept();
  if (k.workload && k.text == text && k.threads == threads && k.sockets == sockets && k.seed == seed) {
    k.used = true;
    return std::move(k.workload);
  }
  return with_workload_spec(text, [&](const WorkloadSpec& spec) { return spec.create(threads, sockets, seed); });
}

void check_workload(const std::string& text) {
  with_workload_spec(text, [](const WorkloadSpec&) { return 0; });
}

}  // namespace starnuma
