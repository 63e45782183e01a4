#include "platform/describe.hpp"

#include <iomanip>
#include <sstream>

#include "common/param.hpp"
#include "os/phase_policy.hpp"
#include "paging/allocation_policy.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

namespace {

using ojson = nlohmann::ordered_json;

// Parameters of a scope and its parts, flattened as "part.param".
void collect_params(const ParamScope& scope, const std::string& prefix,
                    std::vector<std::pair<std::string, const ParamBase*>>& out) {
  for (const ParamBase* p : scope.params()) out.emplace_back(prefix + p->name(), p);
  for (const ParamScope* c : scope.child_scopes()) {
    std::string key = c->path().substr(c->path().rfind('.') + 1);
    collect_params(*c, prefix + key + ".", out);
  }
}

ojson params_json(const ParamScope& scope) {
  std::vector<std::pair<std::string, const ParamBase*>> params;
  collect_params(scope, "", params);
  ojson out = ojson::object();
  for (const auto& [name, p] : params) {
    ojson j;
    j["value"] = p->value_json();
    if (*p->json_unit()) j["unit"] = p->json_unit();
    j["text"] = p->value_text();
    j["source"] = p->is_default() ? "default" : p->source().str();
    out[name] = j;
  }
  return out;
}

void params_text(std::ostream& os, const ParamScope& scope, const char* indent) {
  std::vector<std::pair<std::string, const ParamBase*>> params;
  collect_params(scope, "", params);
  size_t width = 0;
  for (const auto& pr : params)
    if (pr.second->kind() != std::string("node")) width = std::max(width, pr.first.size());
  for (const auto& [name, p] : params) {
    if (p->kind() == std::string("node")) continue;  // link ends are shown on the link's line
    os << indent << std::left << std::setw(static_cast<int>(width)) << name << " = " << p->value_text();
    if (!p->is_default()) os << "    (" << p->source().str() << ")";
    os << '\n';
  }
}

ojson schema_of(const ParamScope& scope) {
  std::vector<std::pair<std::string, const ParamBase*>> params;
  collect_params(scope, "", params);
  ojson list = ojson::array();
  for (const auto& [name, p] : params) {
    ojson j = p->schema_json();
    j["name"] = name;
    list.push_back(j);
  }
  return list;
}

}  // namespace

ojson describe_json(const Platform& platform) {
  ojson out;
  out["source"] = platform.source();
  out["description"] = platform.description();
  out["platform"] = params_json(platform.settings());
  ojson nodes = ojson::array();
  for (const FabricNode* n : platform.nodes())
    nodes.push_back(
        {{"name", n->basename()}, {"path", n->path()}, {"type", n->type_name()}, {"params", params_json(*n)}});
  out["nodes"] = nodes;
  ojson links = ojson::array();
  for (const Link* l : platform.links())
    links.push_back({{"name", l->basename()},
                     {"path", l->path()},
                     {"type", l->type_name()},
                     {"a", l->end_a().name},
                     {"b", l->end_b().name},
                     {"bandwidth_GBps", l->bandwidth().gb_per_s()},
                     {"latency_ns", l->latency().ns()},
                     {"params", params_json(*l)}});
  out["links"] = links;
  return out;
}

std::string describe_text(const Platform& platform) {
  std::ostringstream os;
  os << "platform " << platform.source() << '\n';
  if (!platform.description().empty()) os << "  " << platform.description() << '\n';
  os << "\nsettings (platform.*)\n";
  params_text(os, platform.settings(), "  ");
  os << "\nnodes (" << platform.nodes().size() << ")\n";
  for (const FabricNode* n : platform.nodes()) {
    os << "  " << n->basename() << "  [" << n->type_name() << "]  " << n->links().size() << " links\n";
    params_text(os, *n, "      ");
  }
  os << "\nlinks (" << platform.links().size() << ")\n";
  size_t name_w = 0, ends_w = 0;
  for (const Link* l : platform.links()) {
    name_w = std::max(name_w, std::string(l->basename()).size());
    ends_w = std::max(ends_w, l->end_a().name.size() + l->end_b().name.size() + 5);
  }
  for (const Link* l : platform.links()) {
    os << "  " << std::left << std::setw(static_cast<int>(name_w)) << l->basename() << "  " << std::setw(9)
       << ("[" + l->type_name() + "]") << "  " << std::setw(static_cast<int>(ends_w))
       << (l->end_a().name + " <-> " + l->end_b().name) << "  " << std::setw(10) << format_bandwidth(l->bandwidth())
       << "  " << format_time(l->latency()) << '\n';
  }
  return os.str();
}

ojson catalog_json() {
  check_registries();
  Elaboration schema(true);
  ojson components = ojson::array();
  std::vector<std::unique_ptr<Component>> keep;  // alive until the schemas are read
  for (const ComponentType* t : ComponentRegistry::instance().all()) {
    keep.push_back(t->create(t->name.c_str(), ScopeContext{&schema, nullptr, t->name, {}, nullptr, t->name, true}));
    components.push_back({{"type", t->name},
                          {"role", role_name(t->role)},
                          {"description", t->description},
                          {"params", schema_of(*keep.back())},
                          {"stats", stats_schema_json(*keep.back())}});
  }
  ojson generators = ojson::array();
  for (const GeneratorType* g : GeneratorRegistry::instance().all()) {
    auto gen = g->create(ScopeContext{&schema, nullptr, "topology", {}, nullptr, g->name, false});
    generators.push_back({{"generator", g->name}, {"description", g->description}, {"params", schema_of(*gen)}});
  }
  ojson workloads = ojson::array();
  for (const WorkloadType* w : WorkloadRegistry::instance().all()) {
    auto spec = w->create(ScopeContext{&schema, nullptr, w->name, {}, nullptr, w->name, false});
    workloads.push_back({{"workload", w->name}, {"description", w->description}, {"params", schema_of(*spec)}});
  }
  ojson policies = ojson::array();
  for (const PhasePolicyType* t : PhasePolicyRegistry::instance().all())
    policies.push_back({{"migration", t->name},
                        {"description", t->description},
                        {"knowledge", t->reads_regions ? "regions (trackers or per-page counts)" : "per-page counts"}});
  ojson allocations = ojson::array();
  for (const AllocationPolicyType* t : AllocationPolicyRegistry::instance().all())
    allocations.push_back(
        {{"allocation", t->name}, {"description", t->description}, {"needs_cpuless_nodes", t->needs_cpuless_nodes}});
  // The platform file's own keys.
  Elaboration settings_schema(true);
  PlatformSettings settings("platform",
                            ScopeContext{&settings_schema, nullptr, "platform", {}, nullptr, "platform", false});
  Coherence coherence("coherence",
                      ScopeContext{&settings_schema, nullptr, "coherence", {}, nullptr, "coherence", false}, nullptr);
  OsSettings os("os", ScopeContext{&settings_schema, nullptr, "os", {}, nullptr, "os", false});
  return {{"components", components},
          {"generators", generators},
          {"workloads", workloads},
          {"migration_policies", policies},
          {"allocation_policies", allocations},
          {"platform", schema_of(settings)},
          {"coherence", schema_of(coherence)},
          {"os", schema_of(os)}};
}

namespace {

void schema_lines(std::ostream& os, const ojson& params, bool markdown) {
  for (const auto& p : params) {
    std::string def = p.contains("required") ? "required" : p.value("default", std::string());
    std::string range = p.value("range", std::string());
    if (p.contains("choices")) {
      range.clear();
      for (const auto& c : p["choices"]) range += (range.empty() ? "" : ", ") + c.get<std::string>();
    }
    if (markdown) {
      os << "| `" << p["name"].get<std::string>() << "` | " << p["kind"].get<std::string>() << " | "
         << (def.empty() ? "" : "`" + def + "`") << " | " << range << " | " << p["description"].get<std::string>()
         << " |\n";
    } else {
      // Each column at least one space wide apart, however long its value.
      os << "    " << std::left << std::setw(23) << p["name"].get<std::string>() << ' ' << std::setw(9)
         << p["kind"].get<std::string>() << ' ' << std::setw(11) << def << ' ' << std::setw(21) << range << ' '
         << p["description"].get<std::string>() << '\n';
    }
  }
}

void workload_lines(std::ostream& os, const ojson& workloads) {
  for (const auto& w : workloads) {
    os << "\nworkload " << w["workload"].get<std::string>() << " (--workload " << w["workload"].get<std::string>()
       << ":key=value,...)\n  " << w["description"].get<std::string>() << '\n';
    schema_lines(os, w["params"], false);
  }
}

}  // namespace

std::string workloads_text() {
  std::ostringstream os;
  os << "Workloads: --workload NAME or NAME:key=value,... Parameters: name, kind, default, range, description.\n";
  workload_lines(os, catalog_json()["workloads"]);
  return os.str();
}

std::string catalog_text() {
  ojson cat = catalog_json();
  std::ostringstream os;
  os << "Parameters: name, kind, default, range, description. Values of kind time, size, bandwidth\n"
        "and frequency need a unit (25ns, 32KiB, 20.8GB/s, 2.4GHz).\n\n";
  os << "platform settings (key 'platform:')\n";
  schema_lines(os, cat["platform"], false);
  os << "\ncoherence (key 'coherence:', docs/coherence.md)\n";
  schema_lines(os, cat["coherence"], false);
  os << "\nos (key 'os:', docs/os.md)\n";
  schema_lines(os, cat["os"], false);
  os << "\nphase migration policies (os.migration: NAME; os/phase_policy.hpp)\n";
  for (const auto& m : cat["migration_policies"])
    os << "    " << std::left << std::setw(23) << m["migration"].get<std::string>() << ' '
       << m["description"].get<std::string>() << " [" << m["knowledge"].get<std::string>() << "]\n";
  os << "\nallocation policies (os.allocation: NAME; paging/allocation_policy.hpp)\n";
  for (const auto& a : cat["allocation_policies"])
    os << "    " << std::left << std::setw(23) << a["allocation"].get<std::string>() << ' '
       << a["description"].get<std::string>() << "\n";
  for (const auto& g : cat["generators"]) {
    os << "\ngenerator " << g["generator"].get<std::string>()
       << " (topology: {generator: " << g["generator"].get<std::string>() << "})\n  "
       << g["description"].get<std::string>() << '\n';
    schema_lines(os, g["params"], false);
  }
  workload_lines(os, cat["workloads"]);
  for (const auto& c : cat["components"]) {
    os << '\n'
       << c["role"].get<std::string>() << " type " << c["type"].get<std::string>() << "\n  "
       << c["description"].get<std::string>() << '\n';
    schema_lines(os, c["params"], false);
  }
  return os.str();
}

std::string catalog_markdown() {
  ojson cat = catalog_json();
  std::ostringstream os;
  const char* header = "| key | kind | default | range | description |\n|---|---|---|---|---|\n";
  os << "# YAML platform reference\n\n"
        "Generated by `starnuma list --markdown`; do not edit by hand (a test compares it with the\n"
        "program's output). The file format itself is described in [platforms.md](platforms.md).\n\n"
        "Values of kind time, size, bandwidth and frequency need a unit: time `ps ns us ms s`, size\n"
        "`B KiB MiB GiB TiB`, bandwidth `B/s kB/s MB/s GB/s TB/s KiB/s MiB/s GiB/s`, frequency\n"
        "`Hz kHz MHz GHz`.\n\n## Platform settings (`platform:`)\n\n"
     << header;
  schema_lines(os, cat["platform"], true);
  os << "\n## Coherence (`coherence:`)\n\nDirectory MESI between sockets and the pool "
        "([coherence.md](coherence.md)).\n\n"
     << header;
  schema_lines(os, cat["coherence"], true);
  os << "\n## Operating system (`os:`)\n\nPlacement and dynamic page migration ([os.md](os.md)).\n\n" << header;
  schema_lines(os, cat["os"], true);
  os << "\n### Phase migration policies (`os.migration`)\n\nRegistered with "
        "`STARNUMA_REGISTER_PHASE_POLICY` (models/os/phase_policy.hpp); `autonuma` and `lacx` decide at "
        "hinting faults instead.\n\n| name | decides from | description |\n|---|---|---|\n";
  for (const auto& m : cat["migration_policies"])
    os << "| `" << m["migration"].get<std::string>() << "` | " << m["knowledge"].get<std::string>() << " | "
       << m["description"].get<std::string>() << " |\n";
  os << "\n### Allocation policies (`os.allocation`)\n\nRegistered with "
        "`STARNUMA_REGISTER_ALLOCATION_POLICY` (models/paging/allocation_policy.hpp): where a page's first "
        "touch puts it.\n\n| name | description |\n|---|---|\n";
  for (const auto& a : cat["allocation_policies"])
    os << "| `" << a["allocation"].get<std::string>() << "` | " << a["description"].get<std::string>() << " |\n";
  os << "\n## Topology generators (`topology:`)\n";
  for (const auto& g : cat["generators"]) {
    os << "\n### `" << g["generator"].get<std::string>() << "`\n\n"
       << g["description"].get<std::string>() << "\n\n"
       << header;
    schema_lines(os, g["params"], true);
  }
  os << "\n## Workloads (`--workload NAME:key=value,...`)\n";
  for (const auto& w : cat["workloads"]) {
    os << "\n### `" << w["workload"].get<std::string>() << "`\n\n"
       << w["description"].get<std::string>() << "\n\n"
       << header;
    schema_lines(os, w["params"], true);
  }
  for (const char* role : {"node", "link", "initiator", "part"}) {
    bool any = false;
    for (const auto& c : cat["components"]) any = any || c["role"] == role;
    if (!any) continue;  // initiators come from plug-ins only
    os << "\n## "
       << (role == std::string("node")        ? "Node types (`nodes:`)"
           : role == std::string("link")      ? "Link types (`links:`)"
           : role == std::string("initiator") ? "Initiator types (`initiators:`)"
                                              : "Parts (maps inside a component)")
       << "\n";
    for (const auto& c : cat["components"]) {
      if (c["role"] != role) continue;
      os << "\n### `" << c["type"].get<std::string>() << "`\n\n"
         << c["description"].get<std::string>() << "\n\n"
         << header;
      schema_lines(os, c["params"], true);
    }
  }
  return os.str();
}

}  // namespace starnuma
