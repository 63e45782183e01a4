// The base of every model: an sc_module that is also a parameter scope and a statistics owner.
// Its SystemC hierarchical name equals its YAML path ("nodes.socket0.memory"), so the name in a
// log, in stats.json and in `--set` is the same string.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "param.hpp"
#include "scope.hpp"
#include "stats.hpp"

namespace starnuma {

class Waves;

class Component : public sc_core::sc_module, public ParamScope, public StatOwner {
 public:
  Component(sc_core::sc_module_name name, const ScopeContext& ctx);

  // Context for a fixed part of this component, configured by the map under `key`:
  //   Ddr5Controller memory{"memory", part("memory", "ddr5")};
  ScopeContext part(const char* key, std::string type = "") { return child_context(key, std::move(type)); }
  // Before a run that records waveforms (docs/debugging.md): declare this component's signals and
  // keep `waves` to record their changes. Components without signals do nothing.
  virtual void attach_waves(Waves& waves) {}
};

// A component whose children are created from the entries of its map (e.g. `nodes:`), each by
// the registered type its `type:` key names.
class Container : public Component {
 public:
  using Component::Component;
  // Calls make() with this container as the current SystemC parent and keeps what it builds.
  template <class Make>
  Component& build_child(Make&& make) {
    sc_core::sc_get_curr_simcontext()->hierarchy_push(this);
    struct Pop {
      ~Pop() { sc_core::sc_get_curr_simcontext()->hierarchy_pop(); }
    } pop;
    children_.push_back(make());
    return *children_.back();
  }
  const std::vector<std::unique_ptr<Component>>& children() const { return children_; }

 private:
  std::vector<std::unique_ptr<Component>> children_;
};

}  // namespace starnuma
