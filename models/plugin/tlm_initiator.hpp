// The tlm_initiator kind (`initiators:` in a platform file): a plug-in's TLM-2.0 initiator module
// drives the platform as one of its requesters, placed `at:` a socket. Its transactions leave
// through that socket's on-die path and links as the cores' misses do (an accelerator or a DMA
// engine on the socket, a traffic generator, a core model of the user's), uncached and not kept
// coherent, as every transaction on fabric.target. The component sits between the module and the
// fabric: it names the requester and measures what the module got (transactions, latency,
// bandwidth), so every plug-in generator reports the same statistics.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "fabric/fabric.hpp"
#include "plugin/plugin_api.hpp"

namespace starnuma {

class TlmInitiator : public Component {
 public:
  TlmInitiator(sc_core::sc_module_name n, const ScopeContext& c, plugin::InitiatorFactory factory);
  ~TlmInitiator() override;
  // Elaboration: the module joins the fabric as the requester named by `at`; an unknown one is a
  // configuration error at the key.
  void bind_fabric(Fabric& fabric);
  void reset_stats() override;

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& p);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  // The requester extension rides on the payload only while the fabric has it.
  class Tag;
  // A transaction the fabric completed: from `issue`, annotated `done`.
  void count(const tlm::tlm_generic_payload& p, const sc_core::sc_time& issue, const sc_core::sc_time& done);

  Param<std::string> at_;
  std::vector<std::unique_ptr<ParamBase>> module_params_;
  tlm_utils::simple_target_socket<TlmInitiator> port_{"port"};      // the module's socket binds here
  tlm_utils::simple_initiator_socket<TlmInitiator> out_{"fabric"};  // bound to fabric.target
  RequesterExtension extension_;
  sc_core::sc_object* module_ = nullptr;
  sc_core::sc_time first_issue_ = sc_core::SC_ZERO_TIME, last_done_ = sc_core::SC_ZERO_TIME;

  Counter transactions_{*this, "transactions", "transactions", "Transactions the fabric served"};
  Counter reads_{*this, "reads", "transactions", "Read transactions"};
  Counter writes_{*this, "writes", "transactions", "Write transactions"};
  Counter bytes_{*this, "bytes", "B", "Bytes read and written"};
  Counter errors_{*this, "errors", "transactions", "Transactions refused with an error response"};
  Average latency_{*this, "latency", "ns", "Time from a transaction's issue to its completion"};
  Formula bandwidth_;
};

}  // namespace starnuma
