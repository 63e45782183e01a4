#include "platform/platform.hpp"

#include <algorithm>
#include <numeric>

#include "common/host_memory_limit.hpp"
#include "common/text.hpp"
#include "platform/document.hpp"
#include "plugin/tlm_initiator.hpp"
#include "socket/socket.hpp"
#include "tracking/socket_tracking.hpp"

namespace starnuma {

namespace {

// A generated component the user gives another type (`nodes: {socket3: {type: cxl_pool}}`, or by
// --set) starts from the new type's defaults: its generator's template was written for the old
// type, and its keys would each be an error at the template's line, never at the change. A link
// keeps the ends its generator gave it.
void forget_template_of_retyped(ConfigNode& generated, const ConfigNode& written) {
  if (!written.is_map()) return;
  for (const MapEntry& e : written.entries()) {
    ConfigNode* old = generated.find(e.key);
    const ConfigNode* new_type = e.value.is_map() ? e.value.find("type") : nullptr;
    const ConfigNode* old_type = old && old->is_map() ? old->find("type") : nullptr;
    if (!new_type || !old_type || !new_type->is_scalar() || !old_type->is_scalar() ||
        new_type->value() == old_type->value())
      continue;
    ConfigNode fresh = ConfigNode::map(old->location());
    for (const char* end : {"a", "b"})
      if (const MapEntry* kept = old->find_entry(end)) fresh.set(end, kept->key_location, kept->value);
    *old = std::move(fresh);
  }
}

// The document root: accepts the top-level keys and reports the unknown ones.
class DocumentScope : public ParamScope {
 public:
  explicit DocumentScope(const ScopeContext& c) : ParamScope(c) {}
  Param<std::string> description{*this, "description", "", "What the platform models"};
};

std::vector<std::string> type_names(Role role) {
  return ComponentRegistry::instance().names([role](const ComponentType& t) { return t.role == role; });
}

}  // namespace

Platform::~Platform() = default;

std::unique_ptr<Platform> Platform::build(const std::string& path, const std::vector<std::string>& overrides) {
  check_registries();
  std::unique_ptr<Platform> p(new Platform());
  p->source_ = path;
  p->document_ = load_platform_document(path, overrides);
  Elaboration elab;
  p->elaborate(elab, p->document_);
  elab.diagnostics().raise_if_any();
  return p;
}

void Platform::elaborate(Elaboration& elab, const ConfigNode& document) {
  DocumentScope root(ScopeContext{&elab, &document, "", document.location(), nullptr, ""});
  description_ = root.description;
  settings_ = std::make_unique<PlatformSettings>("platform", root.child_context("platform", "platform"));
  // Plug-in initiators follow TLM's global quantum (tlm_quantumkeeper): the platform's.
  tlm::tlm_global_quantum::instance().set(settings_->quantum().to_sc());
  os_ = std::make_unique<OsSettings>("os", root.child_context("os", "os"));

  // Generated entries first, then the explicit maps merged over them by name.
  nodes_doc_ = ConfigNode::map(document.location());
  links_doc_ = ConfigNode::map(document.location());
  ScopeContext topo = root.child_context("topology");
  if (topo.config) {
    const ConfigNode* gen = topo.config->is_map() ? topo.config->find("generator") : nullptr;
    std::vector<std::string> known = GeneratorRegistry::instance().names([](const GeneratorType&) { return true; });
    if (!topo.config->is_map()) {
      root.error(topo.config, "topology", "expected a map with a 'generator:' key");
    } else if (!gen || !gen->is_scalar()) {
      root.error(gen ? gen : topo.config, gen ? "topology.generator" : "topology",
                 "missing required key 'generator' (one of: " + join(known) + ")");
    } else if (const GeneratorType* g = GeneratorRegistry::instance().find(gen->value())) {
      topo.type = g->name;
      generator_ = g->create(topo);
      generator_->accept("generator");
      generator_->generate(nodes_doc_, links_doc_);
    } else {
      std::string near = nearest_word(gen->value(), known);
      root.error(gen, "topology.generator",
                 "unknown topology generator '" + gen->value() + "'" +
                     (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; known generators: " + join(known));
    }
  }
  for (const char* section : {"nodes", "links"}) {
    const MapEntry* e = document.find_entry(section);
    if (!e) continue;
    if (!e->value.is_map()) {
      root.error(&e->value, section,
                 std::string("expected a map of names to components, got ") + ConfigNode::kind_name(e->value.kind()));
      continue;
    }
    ConfigNode& generated = section == std::string("nodes") ? nodes_doc_ : links_doc_;
    forget_template_of_retyped(generated, e->value);
    merge_config(generated, e->value);
  }

  // The sections' YAML paths are "nodes" and "links" whether written or generated.
  root.accept("nodes");
  root.accept("links");
  node_container_ =
      std::make_unique<Container>("nodes", ScopeContext{&elab, &nodes_doc_, "nodes", nodes_doc_.location(), &root, ""});
  link_container_ =
      std::make_unique<Container>("links", ScopeContext{&elab, &links_doc_, "links", links_doc_.location(), &root, ""});
  build_members(*node_container_, nodes_doc_, Role::Node, "nodes");
  build_members(*link_container_, links_doc_, Role::Link, "links");

  resolve_links(elab);
  check_connected(elab);
  if (elab.diagnostics().empty())
    for (FabricNode* n : nodes_) n->check_attachments();
  if (elab.diagnostics().empty() && !nodes_.empty())
    fabric_ = std::make_unique<Fabric>("fabric", root.child_context("fabric", "fabric"), nodes_,
                                       settings_->separate_hosts(), settings_->functional_memory());
  if (fabric_) {
    // The tracking metadata's home must name a node with memory: known only now, and checked now,
    // so `check` reports it at the line that set it rather than `run` without a location.
    for (const Socket* sock : fabric_->requesters()) {
      const SocketTracking& t = sock->tracking();
      if (t.impl() == TrackingImpl::None || t.metadata_home() == "auto") continue;
      bool found = false;
      for (const Fabric::Range& r : fabric_->address_map()) found = found || r.name == t.metadata_home();
      if (!found) {
        std::string names;
        for (const Fabric::Range& r : fabric_->address_map()) names += (names.empty() ? "" : ", ") + r.name;
        const ParamBase* home = t.find_param("metadata_home");
        elab.diagnostics().error(home->source(), t.path() + ".metadata_home",
                                 "no node '" + t.metadata_home() + "' with memory (auto or one of " + names + ")");
        break;  // every socket shares the setting: once is enough
      }
    }
    check_host_memory(elab);
    coherence_ = std::make_unique<Coherence>("coherence", root.child_context("coherence", "coherence"), fabric_.get());
    if (coherence_->enabled())
      for (Socket* sock : fabric_->requesters()) sock->bind_coherence(*coherence_);
    build_initiators(elab, root);
  } else {  // not built for the errors above: their sections are not unknown keys
    root.accept("fabric");
    root.accept("coherence");
    root.accept("initiators");
  }
  root.check_unused_keys();
  // Only when nothing else explains it (a misspelt 'nodes:' is reported as such).
  if (nodes_.empty() && elab.diagnostics().empty())
    root.error(nullptr, "nodes", "the platform has no nodes: give a 'topology:' generator or a 'nodes:' map",
               msg::kTopology);
}

// The cache and TLB arrays are the platform's own host memory, known before anything is built: 4
// bytes of tag per line, 12 per TLB entry. Refused up front when they alone exceed the host memory
// limit, at the cache whose size weighs most.
void Platform::check_host_memory(Elaboration& elab) {
  struct Cost {
    uint64_t bytes = 0;
    Location where;  // the size's, or the socket's when the size is the default
    std::string what;
  };
  std::vector<Cost> costs;
  uint64_t total = 0;
  for (const Socket* sock : fabric_->requesters()) {
    const CoreConfig& c = sock->core_config();
    const uint64_t cores = sock->cores();
    const auto add = [&](const CacheConfig& cache, uint64_t lines, uint64_t copies, const char* key, const char* path) {
      const uint64_t bytes = lines * 4 * copies;
      total += bytes;
      const ParamBase* size = cache.find_param(key);
      costs.push_back({bytes, size && !size->is_default() ? size->source() : sock->location(), sock->path() + path});
    };
    add(c.l1d, c.l1d.lines(), cores, "size", ".core.l1d.size");
    add(c.l2, c.l2.lines(), cores, "size", ".core.l2.size");
    add(sock->llc_config(), sock->llc_config().lines(sock->cores()), 1, "size_per_core", ".llc.size_per_core");
    total += cores * (uint64_t{c.dtlb.entries()} + c.stlb.entries()) * 12;
  }
  // Each array keeps a line's tag (its line number over the number of sets) in 31 bits: the
  // highest physical line must fit, or a run fails at its first access there.
  uint64_t end = 0;
  for (const Fabric::Range& r : fabric_->address_map()) end = std::max(end, r.base + r.size);
  for (const Socket* sock : fabric_->requesters()) {
    const CoreConfig& c = sock->core_config();
    const auto fits = [&](const CacheConfig& cache, uint64_t lines, const char* key, const char* path) {
      const uint64_t sets = std::max<uint64_t>(1, lines / cache.ways());
      const uint64_t reach = ((uint64_t{1} << 31) - 1) * sets * 64;  // bytes of address space it can name
      if (end <= reach) return true;
      const ParamBase* size = cache.find_param(key);
      elab.diagnostics().error(size && !size->is_default() ? size->source() : sock->location(), sock->path() + path,
                               "the platform's memory ends at " + approximate_size(end) +
                                   ", beyond what this cache's tags can name (" + approximate_size(reach) + " with " +
                                   std::to_string(sets) +
                                   " sets): give it more sets (a larger size or fewer ways) or "
                                   "the platform less memory");
      return false;
    };
    if (!fits(c.l1d, c.l1d.lines(), "size", ".core.l1d.size") || !fits(c.l2, c.l2.lines(), "size", ".core.l2.size") ||
        !fits(sock->llc_config(), sock->llc_config().lines(sock->cores()), "size_per_core", ".llc.size_per_core"))
      return;  // the same for every socket of a generated platform: once is enough
  }
  if (total <= host_memory_limit()) return;
  const auto worst =
      std::max_element(costs.begin(), costs.end(), [](const Cost& a, const Cost& b) { return a.bytes < b.bytes; });
  elab.diagnostics().error(worst->where, worst->what,
                           "the caches' tag arrays need " + approximate_size(total) +
                               " of host memory, more than the " + approximate_size(host_memory_limit()) +
                               " allowed (starnuma --max-host-memory); this cache's size weighs most");
}

void Platform::build_members(Container& container, const ConfigNode& members, Role role, const char* section) {
  ParamScope& scope = container;
  std::vector<std::string> known = type_names(role);
  const std::string choices = known.empty() ? std::string(section) +
                                                  " take a plug-in's type and no plug-in loaded registers one "
                                                  "(plugins: [...], docs/plugins.md)"
                                            : std::string(section) + " take one of: " + join(known);
  for (const MapEntry& e : members.entries()) {
    ScopeContext ctx = scope.child_context(e.key);
    if (!is_identifier(e.key)) {
      scope.error(&e.value, e.key,
                  "'" + e.key + "' is not a valid name (letters, digits and _, not starting with a digit)");
      continue;
    }
    if (!e.value.is_map()) {
      scope.error(&e.value, e.key,
                  std::string("expected a map with a 'type:' key, got ") + ConfigNode::kind_name(e.value.kind()));
      continue;
    }
    const ConfigNode* type = e.value.find("type");
    if (!type || !type->is_scalar()) {
      std::string hint = role == Role::Node ? " (no generated node has this name)" : "";
      scope.error(type ? type : &e.value, type ? e.key + ".type" : e.key,
                  "missing required key 'type'" + hint + "; " + choices);
      continue;
    }
    const ComponentType* t = ComponentRegistry::instance().find(type->value());
    if (!t || t->role != role) {
      std::string message = "unknown component type '" + type->value() + "'";
      if (t) {
        message = "'" + type->value() + "' is a " + role_name(t->role) + " type, not allowed under '" + section + "'";
      } else if (std::string near = nearest_word(type->value(), known); !near.empty()) {
        message += " (did you mean '" + near + "'?)";
      }
      scope.error(type, e.key + ".type", message + "; " + choices);
      continue;
    }
    ctx.type = t->name;
    ctx.type_key = true;
    Component& c = container.build_child([&] { return t->create(e.key.c_str(), ctx); });
    if (role == Role::Node) nodes_.push_back(&dynamic_cast<FabricNode&>(c));
    else if (role == Role::Link) links_.push_back(&dynamic_cast<Link&>(c));
    else initiators_.push_back(&dynamic_cast<TlmInitiator&>(c));
  }
}

// Initiators are built once the fabric is: they may name memory nodes by their addresses, and
// they bind to the fabric as the socket they sit at.
void Platform::build_initiators(Elaboration& elab, ParamScope& root) {
  ScopeContext ctx = root.child_context("initiators");
  if (!ctx.config) return;
  if (!ctx.config->is_map()) {
    root.error(ctx.config, "initiators",
               std::string("expected a map of names to initiators, got ") + ConfigNode::kind_name(ctx.config->kind()));
    return;
  }
  std::vector<NamedRange> map;
  for (const Fabric::Range& r : fabric_->address_map()) map.push_back({r.name, r.base, r.size});
  elab.set_address_map(std::move(map));
  initiator_container_ = std::make_unique<Container>("initiators", ctx);
  build_members(*initiator_container_, *ctx.config, Role::Initiator, "initiators");
  for (TlmInitiator* i : initiators_) i->bind_fabric(*fabric_);
}

FabricNode* Platform::find_node(const std::string& name) const {
  for (FabricNode* n : nodes_)
    if (n->basename() == name) return n;
  return nullptr;
}

void Platform::resolve_links(Elaboration& elab) {
  // Names of nodes that were declared but failed to build: not dangling, already reported.
  std::vector<std::string> declared;
  for (const MapEntry& e : nodes_doc_.entries()) declared.push_back(e.key);
  std::vector<std::string> built;
  for (const FabricNode* n : nodes_) built.push_back(n->basename());

  for (Link* l : links_) {
    FabricNode* ends[2] = {nullptr, nullptr};
    const NodeRef* refs[2] = {&l->end_a(), &l->end_b()};
    for (int i = 0; i < 2; ++i) {
      if (refs[i]->name.empty()) continue;  // missing: already reported
      ends[i] = find_node(refs[i]->name);
      if (ends[i] || std::find(declared.begin(), declared.end(), refs[i]->name) != declared.end()) continue;
      std::string near = nearest_word(refs[i]->name, built);
      elab.diagnostics().error(
          refs[i]->location, l->path() + (i == 0 ? ".a" : ".b"),
          "no node named '" + refs[i]->name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"),
          msg::kTopology);
    }
    if (ends[0] && ends[0] == ends[1]) {
      elab.diagnostics().error(refs[1]->location, l->path() + ".b",
                               "the link joins node '" + refs[0]->name + "' to itself", msg::kTopology);
      continue;
    }
    if (ends[0] && ends[1]) l->connect(*ends[0], *ends[1]);
  }
}

void Platform::check_connected(Elaboration& elab) {
  if (nodes_.size() < 2 || !elab.diagnostics().empty()) return;
  std::vector<size_t> parent(nodes_.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto index = [&](const FabricNode* n) {
    return static_cast<size_t>(std::find(nodes_.begin(), nodes_.end(), n) - nodes_.begin());
  };
  auto root_of = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const Link* l : links_)
    if (l->node_a() && l->node_b()) parent[root_of(index(l->node_a()))] = root_of(index(l->node_b()));
  size_t reported = 0, unreachable = 0;
  for (size_t i = 1; i < nodes_.size(); ++i) {
    if (root_of(i) == root_of(0)) continue;
    ++unreachable;
    if (reported++ < 8)
      elab.diagnostics().error(nodes_[i]->location(), nodes_[i]->path(),
                               std::string("node '") + nodes_[i]->basename() + "' is not connected to '" +
                                   nodes_[0]->basename() + "': no chain of links joins them",
                               msg::kTopology);
  }
  if (unreachable > reported)
    elab.diagnostics().error(nodes_[0]->location(), "nodes",
                             std::to_string(unreachable - reported) + " more nodes are not connected", msg::kTopology);
}

std::vector<const Component*> Platform::roots() const {
  std::vector<const Component*> r{settings_.get(), node_container_.get(), link_container_.get()};
  if (fabric_) r.push_back(fabric_.get());
  if (coherence_) r.push_back(coherence_.get());
  r.push_back(os_.get());
  if (initiator_container_) r.push_back(initiator_container_.get());
  return r;
}

}  // namespace starnuma
