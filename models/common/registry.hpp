// Registries of component types and topology generators by name. Types register themselves from
// their own .cpp file with STARNUMA_REGISTER_COMPONENT; the models are linked as an object
// library so that no registration is dropped by the linker.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "component.hpp"

namespace starnuma {

template <class Entry>
class Registry {
 public:
  static Registry& instance() {
    static Registry r;
    return r;
  }
  bool add(Entry e) {
    if (find(e.name)) duplicate_ = e.name;  // reported by check_consistency(): too early to throw
    entries_.push_back(std::move(e));
    return true;
  }
  const Entry* find(std::string_view name) const {
    for (const Entry& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  // All entries sorted by name (registration order depends on link order).
  std::vector<const Entry*> all() const {
    std::vector<const Entry*> v;
    for (const Entry& e : entries_) v.push_back(&e);
    std::sort(v.begin(), v.end(), [](const Entry* a, const Entry* b) { return a->name < b->name; });
    return v;
  }
  template <class Pred>
  std::vector<std::string> names(Pred pred) const {
    std::vector<std::string> v;
    for (const Entry* e : all())
      if (pred(*e)) v.push_back(e->name);
    return v;
  }
  const std::string& duplicate() const { return duplicate_; }

 private:
  std::vector<Entry> entries_;
  std::string duplicate_;
};

// Where a component type may appear in a platform file.
enum class Role {
  Node,       // under `nodes:`: a vertex of the topology (socket, FLEX ASIC, switch, pool)
  Link,       // under `links:`: an edge between two nodes
  Part,       // inside another component (a memory controller inside a socket)
  Initiator,  // under `initiators:`: a plug-in that drives the platform from a socket
};
const char* role_name(Role r);

struct ComponentType {
  using Factory = std::function<std::unique_ptr<Component>(const char* basename, const ScopeContext&)>;
  std::string name;
  Role role;
  std::string description;
  Factory create;
};
using ComponentRegistry = Registry<ComponentType>;

#define STARNUMA_CONCAT_INNER(a, b) a##b
#define STARNUMA_CONCAT(a, b) STARNUMA_CONCAT_INNER(a, b)
#define STARNUMA_REGISTER_COMPONENT(CLASS, NAME, ROLE, DESCRIPTION)                                        \
  static const bool STARNUMA_CONCAT(starnuma_registered_component_, __COUNTER__) =                         \
      ::starnuma::ComponentRegistry::instance().add(::starnuma::ComponentType{                             \
          NAME, ROLE, DESCRIPTION,                                                                         \
          [](const char* n, const ::starnuma::ScopeContext& c) -> std::unique_ptr<::starnuma::Component> { \
            return std::make_unique<CLASS>(n, c);                                                          \
          }})

// A registered kind of parameter scope that is not a component (topology generators, workloads):
// a name, a description and a factory building it from its YAML map.
template <class Base>
struct ScopedType {
  using Factory = std::function<std::unique_ptr<Base>(const ScopeContext&)>;
  std::string name;
  std::string description;
  Factory create;
};

#define STARNUMA_REGISTER_SCOPED(BASE, CLASS, NAME, DESCRIPTION)                                       \
  static const bool STARNUMA_CONCAT(starnuma_registered_scoped_, __COUNTER__) =                        \
      ::starnuma::Registry<::starnuma::ScopedType<BASE>>::instance().add(::starnuma::ScopedType<BASE>{ \
          NAME, DESCRIPTION,                                                                           \
          [](const ::starnuma::ScopeContext& c) -> std::unique_ptr<BASE> { return std::make_unique<CLASS>(c); }})

// Reports (as an internal error) a type name registered twice.
void check_registries();

}  // namespace starnuma
