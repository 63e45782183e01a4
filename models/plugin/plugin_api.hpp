// The minimal registration header for starnuma plug-ins: a plug-in includes only this, SystemC and
// TLM-2.0. Three kinds of model can be plugged in (docs/plugins.md):
//   - a TLM-2.0 target module serving a node's memory behind the fabric's links (tlm_target kind);
//   - a TLM-2.0 initiator module driving the platform as one of its requesters (tlm_initiator);
//   - a switch model deciding when each message crossing a forwarding node leaves it (switch_model).
#pragma once

#include <cstdint>
#include <string>
#include <tlm>

// The version of this interface. A plug-in passes the version it was built against when it
// registers (the macros below do), and starnuma refuses one built against another version with a
// clear error rather than calling into code whose classes or calls no longer match. Raised with
// any change to this header that an already-built plug-in would not survive (docs/plugins.md,
// "Versions").
#define STARNUMA_PLUGIN_API_VERSION 1

namespace starnuma::plugin {

// A memory node's place in the platform's physical address map.
struct AddressRange {
  uint64_t base = 0;
  uint64_t size = 0;
};

// The parameters a plug-in module reads from its YAML map. Each call declares one (it appears in
// `starnuma list` with its default and description, is checked and settable with --set) and
// returns its value.
class Params {
 public:
  virtual ~Params() = default;
  // A time ("80ns"); the default is in nanoseconds.
  virtual sc_core::sc_time time(const char* name, double default_ns, const char* description) = 0;
  // A bandwidth ("64GB/s"), returned in bytes per second; the default is in GB/s.
  virtual double bandwidth(const char* name, double default_gb_per_s, const char* description) = 0;
  // A size ("64MiB"), returned in bytes.
  virtual uint64_t size(const char* name, uint64_t default_bytes, const char* description) = 0;
  virtual double real(const char* name, double default_value, const char* description) = 0;
  virtual int64_t integer(const char* name, int64_t default_value, const char* description) = 0;
  virtual bool flag(const char* name, bool default_value, const char* description) = 0;
  // One of `choices` (a '|'-separated list, e.g. "read|write"); the default is the first.
  virtual std::string choice(const char* name, const char* choices, const char* description) = 0;
  // A memory node of the platform by name (e.g. "pool"), as its range of physical addresses.
  // Initiators only: the address map exists once the nodes are built. While `starnuma list`
  // describes the parameters, the range is empty.
  virtual AddressRange memory_node(const char* name, const char* default_node, const char* description) = 0;
};

// Builds the module as a child of its component (`name` is its basename); returns its socket.
using TargetFactory = tlm::tlm_target_socket<>& (*)(const char* name, Params& params);
using InitiatorFactory = tlm::tlm_initiator_socket<>& (*)(const char* name, Params& params);

// Registers a node type `name` whose memory is served by the module the factory builds.
// `api_version`: STARNUMA_PLUGIN_API_VERSION as the plug-in was built.
bool register_tlm_target(unsigned api_version, const char* name, const char* description, TargetFactory factory);
// Registers an initiator type `name` (under `initiators:`, placed `at:` a socket).
bool register_tlm_initiator(unsigned api_version, const char* name, const char* description, InitiatorFactory factory);

// One message crossing a switch: a request (a read's command, a write's data) or its response.
struct Message {
  unsigned in_port = 0, out_port = 0;  // the node's links in the order the platform lists them
  uint32_t bytes = 0;                  // on the wire, headers included
  bool response = false;
};

// A user's switch: decides when each message that crossed an input link leaves toward its output
// link. `arrival` is the simulated time the message is at the input port; the result must not be
// earlier. Called in the order the platform's initiators issue (within a quantum, not always in
// time order: keep queues by time, as the example does).
class SwitchModel {
 public:
  virtual ~SwitchModel() = default;
  virtual sc_core::sc_time transit(const Message& message, const sc_core::sc_time& arrival) = 0;
};

using SwitchFactory = SwitchModel& (*)(const char* name, Params& params);
// Registers a forwarding node type `name` whose crossing the model the factory builds times.
bool register_switch_model(unsigned api_version, const char* name, const char* description, SwitchFactory factory);

}  // namespace starnuma::plugin

#define STARNUMA_PLUGIN_CONCAT_INNER(a, b) a##b
#define STARNUMA_PLUGIN_CONCAT(a, b) STARNUMA_PLUGIN_CONCAT_INNER(a, b)
// CLASS: an sc_module with a constructor (sc_module_name, starnuma::plugin::Params&) and a public
// target socket `socket` (any socket derived from tlm::tlm_target_socket<>, e.g.
// tlm_utils::simple_target_socket). The module belongs to the node that built it.
#define STARNUMA_REGISTER_TLM_TARGET(CLASS, NAME, DESCRIPTION)                             \
  static const bool STARNUMA_PLUGIN_CONCAT(starnuma_registered_tlm_target_, __COUNTER__) = \
      ::starnuma::plugin::register_tlm_target(                                             \
          STARNUMA_PLUGIN_API_VERSION, NAME, DESCRIPTION,                                  \
          [](const char* n, ::starnuma::plugin::Params& p) -> tlm::tlm_target_socket<>& {  \
            return (new CLASS(n, p))->socket;                                              \
          })
// CLASS: an sc_module with a constructor (sc_module_name, starnuma::plugin::Params&) and a public
// initiator socket `socket` (e.g. tlm_utils::simple_initiator_socket). Its processes drive the
// platform from time 0; the module belongs to the initiator that built it.
#define STARNUMA_REGISTER_TLM_INITIATOR(CLASS, NAME, DESCRIPTION)                             \
  static const bool STARNUMA_PLUGIN_CONCAT(starnuma_registered_tlm_initiator_, __COUNTER__) = \
      ::starnuma::plugin::register_tlm_initiator(                                             \
          STARNUMA_PLUGIN_API_VERSION, NAME, DESCRIPTION,                                     \
          [](const char* n, ::starnuma::plugin::Params& p) -> tlm::tlm_initiator_socket<>& {  \
            return (new CLASS(n, p))->socket;                                                 \
          })
// CLASS: an sc_module and a starnuma::plugin::SwitchModel with a constructor (sc_module_name,
// starnuma::plugin::Params&). The model belongs to the node that built it.
#define STARNUMA_REGISTER_SWITCH_MODEL(CLASS, NAME, DESCRIPTION)                                 \
  static const bool STARNUMA_PLUGIN_CONCAT(starnuma_registered_switch_model_, __COUNTER__) =     \
      ::starnuma::plugin::register_switch_model(                                                 \
          STARNUMA_PLUGIN_API_VERSION, NAME, DESCRIPTION,                                        \
          [](const char* n, ::starnuma::plugin::Params& p) -> ::starnuma::plugin::SwitchModel& { \
            return *new CLASS(n, p);                                                             \
          })
