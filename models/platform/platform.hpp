// A platform: the components a YAML platform file describes, elaborated as SystemC modules.
//
//   description: ...                text shown by `describe`
//   platform: {quantum: 1us}        global settings (the "platform" component)
//   topology: {generator: ..., ...} optional generator of nodes and links
//   nodes:  {NAME: {type: T, ...}}  topology vertices, merged over generated ones by name
//   links:  {NAME: {type: T, a: NODE, b: NODE, ...}}
//   initiators: {NAME: {type: T, at: SOCKET, ...}}  plug-ins' TLM-2.0 initiators (docs/plugins.md)
//
// Building one checks everything a user can get wrong and raises a single configuration error
// (an sc_report) listing every problem with its file, line, column and key.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/component.hpp"
#include "coherence/coherence.hpp"
#include "fabric/fabric.hpp"
#include "fabric/fabric_node.hpp"
#include "fabric/link.hpp"
#include "os/os_settings.hpp"
#include "platform/topology_generator.hpp"

namespace starnuma {

class TlmInitiator;

// Settings that apply to the whole platform.
class PlatformSettings : public Component {
 public:
  PlatformSettings(sc_core::sc_module_name name, const ScopeContext& ctx) : Component(name, ctx) {}
  Time quantum() const { return quantum_; }
  Time start_skew() const { return start_skew_; }
  unsigned start_skew_draw() const { return start_skew_draw_; }
  bool separate_hosts() const { return separate_hosts_; }
  bool functional_memory() const { return functional_memory_; }
  Time initiator_time_limit() const { return initiator_time_limit_; }

 private:
  // 100 ns: every case of the convergence property test stays within 2 % of a 1 ns quantum
  // (Cases/Convergence.*, docs/validation.md).
  Param<Time> quantum_{*this, "quantum", Time::from_ns(100),
                       "Global quantum of temporal decoupling: how far an initiator may run ahead",
                       between(Time::from_ps(1000), Time::from_ns(1000000))};
  // A tie-breaker, not a model of thread creation: cores that start at the same femtosecond, in
  // step, send their first accesses in exact ties that SystemC's process order decides (which
  // socket's first touches win, whose walks the memories serve first), and any process added to
  // the simulation reorders them (sharing at 2 048 pages, 20 K instructions: IPC 0.0100 or 0.0137
  // by whether the OS thread exists; Run.TheStartsRacesGoToTheSkewNotToTheProcesses). Each thread
  // starts at a seeded offset below this (docs/decisions.md).
  Param<Time> start_skew_{*this, "start_skew", Time::from_ps(1000),
                          "Each core's thread starts at an offset drawn from the seed below this: breaks the exact "
                          "ties of a start in step, which SystemC's process order would decide (0: all at once)",
                          between(Time::from_ps(0), Time::from_ns(1000))};
  // The same workload and seed with its start races decided by another draw: how much a result
  // owes to them (the coverage study's references, docs/sampling.md).
  Param<unsigned> start_skew_draw_{*this, "start_skew_draw", 0u,
                                   "Which draw of the start offsets (0: the seed's own); another draw runs the same "
                                   "workload with its start's races decided differently",
                                   between(0u, 1000000u)};
  Param<bool> separate_hosts_{*this, "separate_hosts", false,
                              "Each socket is a host of its own (servers on a CXL fabric, not one NUMA machine): a "
                              "host needs no route to another's memory and never places pages there unless that "
                              "host lends it (socket lend > 0) (docs/fabric.md)"};
  Param<bool> functional_memory_{*this, "functional_memory", false,
                                 "Keep the bytes written to memory: TLM transactions on fabric.target move data, "
                                 "pages keep their bytes when they migrate, debug transport and DMI work "
                                 "(docs/fabric.md, TLM-2.0 interface)"};
  Param<Time> initiator_time_limit_{
      *this, "initiator_time_limit", Time::from_ns(1000000000),
      "A run with initiators (plug-ins) lasts until they are done, or this much simulated time, when it stops and "
      "says so: the bound on an initiator that never finishes (docs/plugins.md)",
      between(Time::from_ns(1000), Time::from_ns(int64_t{1000} * 1000000000))};
};

class Platform {
 public:
  // Loads `path` (with its extends chain), applies `overrides` ("a.b.c=value") and elaborates.
  static std::unique_ptr<Platform> build(const std::string& path, const std::vector<std::string>& overrides = {});
  ~Platform();

  const std::string& source() const { return source_; }
  const std::string& description() const { return description_; }
  const PlatformSettings& settings() const { return *settings_; }
  const std::vector<FabricNode*>& nodes() const { return nodes_; }
  const std::vector<Link*>& links() const { return links_; }
  const std::vector<TlmInitiator*>& initiators() const { return initiators_; }
  FabricNode* find_node(const std::string& name) const;
  Fabric& fabric() const { return *fabric_; }
  Coherence& coherence() const { return *coherence_; }
  const OsSettings& os() const { return *os_; }
  // The top-level components ("platform", "nodes", "links", "fabric", "coherence", "os",
  // "initiators"), for walkers.
  std::vector<const Component*> roots() const;

 private:
  Platform() = default;
  void elaborate(Elaboration& elab, const ConfigNode& document);
  void check_host_memory(Elaboration& elab);
  void build_members(Container& container, const ConfigNode& members, Role role, const char* section);
  void resolve_links(Elaboration& elab);
  void check_connected(Elaboration& elab);
  void build_initiators(Elaboration& elab, ParamScope& root);

  std::string source_;
  std::string description_;
  ConfigNode document_;  // the merged file; scopes point into it
  ConfigNode nodes_doc_, links_doc_;
  std::unique_ptr<TopologyGenerator> generator_;
  std::unique_ptr<PlatformSettings> settings_;
  std::unique_ptr<OsSettings> os_;
  std::unique_ptr<Container> node_container_, link_container_, initiator_container_;
  std::unique_ptr<Fabric> fabric_;
  std::unique_ptr<Coherence> coherence_;  // after fabric_: destroyed first
  std::vector<FabricNode*> nodes_;
  std::vector<Link*> links_;
  std::vector<TlmInitiator*> initiators_;
};

}  // namespace starnuma
