// The minimal registration header for starnuma plug-ins: a plug-in includes only this, SystemC and
// TLM-2.0. A TLM-2.0 target module registered here becomes a node type (the tlm_target kind): its
// memory range is served by the module's b_transport behind the fabric's links, its annotated
// delay being the service time. docs/plugins.md.
#pragma once

#include <cstdint>
#include <tlm>

namespace starnuma::plugin {

// The parameters a plug-in module reads from its node's YAML map. Each call declares one (it
// appears in `starnuma list` with its default and description) and returns its value.
class Params {
 public:
  virtual ~Params() = default;
  // A time ("80ns"); the default is in nanoseconds.
  virtual sc_core::sc_time time(const char* name, double default_ns, const char* description) = 0;
  // A bandwidth ("64GB/s"), returned in bytes per second; the default is in GB/s.
  virtual double bandwidth(const char* name, double default_gb_per_s, const char* description) = 0;
  virtual double real(const char* name, double default_value, const char* description) = 0;
  virtual int64_t integer(const char* name, int64_t default_value, const char* description) = 0;
};

// Builds the module as a child of the node (`name` is its basename) and returns its target socket.
using TargetFactory = tlm::tlm_target_socket<>& (*)(const char* name, Params& params);

// Registers a node type `name` whose memory is served by the module the factory builds.
bool register_tlm_target(const char* name, const char* description, TargetFactory factory);

}  // namespace starnuma::plugin

#define STARNUMA_PLUGIN_CONCAT_INNER(a, b) a##b
#define STARNUMA_PLUGIN_CONCAT(a, b) STARNUMA_PLUGIN_CONCAT_INNER(a, b)
// CLASS: an sc_module with a constructor (sc_module_name, starnuma::plugin::Params&) and a public
// target socket `socket` (any socket derived from tlm::tlm_target_socket<>, e.g.
// tlm_utils::simple_target_socket). The module belongs to the node that built it.
#define STARNUMA_REGISTER_TLM_TARGET(CLASS, NAME, DESCRIPTION)                                               \
  static const bool STARNUMA_PLUGIN_CONCAT(starnuma_registered_tlm_target_, __LINE__) =                      \
      ::starnuma::plugin::register_tlm_target(                                                               \
          NAME, DESCRIPTION, [](const char* n, ::starnuma::plugin::Params& p) -> tlm::tlm_target_socket<>& { \
            return (new CLASS(n, p))->socket;                                                                \
          })
