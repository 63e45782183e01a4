// A point-to-point link between two topology nodes (UPI, NUMALink, CXL). Each direction is a
// Channel with its own occupancy. `latency` is the one-way traversal of the link itself (serdes,
// serialization of a message and flight); the routers and ports at its ends are the nodes'.
#pragma once

#include <deque>
#include <memory>

#include "common/component.hpp"
#include "fabric/channel.hpp"

namespace starnuma {

class FabricNode;

// What a link carries: the coherent inter-socket protocol (UPI, NUMALink) or CXL (host to device).
enum class Protocol { Coherent, Cxl };

// What crossing a link means for the StarNUMA paper's access breakdown (Fig. 8c): a hop inside a
// chassis (UPI), a hop between chassis (NUMALink: a 2-hop access), or a CXL link to a device.
enum class HopKind : uint8_t { Chassis, InterChassis, Cxl };

// A coherence message by what it does (Fabric::send): a request to a line's home (GetS, GetM,
// Upgrade, a clean PutE), a snoop from the home to a holder (forward, invalidation,
// back-invalidation), an acknowledgement without data (invalidation and put acks, an upgrade's
// grant, a clean snoop response), data from the home's memory, data forwarded cache to cache by
// its owner, and a dirty line going home (PutM, a dirty snoop or back-invalidation response).
enum class CohMessage : uint8_t { Request, Snoop, Ack, MemoryData, ForwardedData, Writeback };
constexpr size_t kCohMessages = 6;
constexpr bool carries_data(CohMessage m) { return m >= CohMessage::MemoryData; }
const char* coh_message_name(CohMessage m);  // "requests", "snoops", ... as the counters name them

// Defaults that distinguish the registered link types; the model is the same.
struct LinkDefaults {
  Bandwidth bandwidth;
  Time latency;
  unsigned retimers = 0;
  Time retimer_latency;
  Protocol protocol = Protocol::Coherent;
  bool inter_chassis = false;  // a coherent link that joins chassis
};

class Link : public Component {
 public:
  Link(sc_core::sc_module_name name, const ScopeContext& ctx, const LinkDefaults& defaults);

  const NodeRef& end_a() const { return a_.get(); }
  const NodeRef& end_b() const { return b_.get(); }
  Bandwidth bandwidth() const { return bandwidth_; }
  // One-way latency: the link's own plus its retimers'.
  Time latency() const { return latency_.get() + retimer_latency_.get() * retimers_.get(); }
  Time wire_latency() const { return latency_; }
  Time retimers_latency() const { return retimer_latency_.get() * retimers_.get(); }
  Protocol protocol() const { return protocol_; }
  HopKind hop_kind() const {
    return protocol_ == Protocol::Cxl ? HopKind::Cxl : inter_chassis_ ? HopKind::InterChassis : HopKind::Chassis;
  }
  uint32_t request_bytes() const { return static_cast<uint32_t>(request_size_->bytes()); }
  uint32_t data_bytes() const { return static_cast<uint32_t>(data_size_->bytes()); }

  // Called by the platform once both ends are resolved.
  void connect(FabricNode& a, FabricNode& b);
  FabricNode* node_a() const { return node_a_; }
  FabricNode* node_b() const { return node_b_; }
  FabricNode* other_end(const FabricNode& n) const { return &n == node_a_ ? node_b_ : node_a_; }
  // The direction leaving `from`.
  Channel& channel_from(const FabricNode& from) { return &from == node_a_ ? *ab_ : *ba_; }
  const Channel& channel_from(const FabricNode& from) const { return &from == node_a_ ? *ab_ : *ba_; }
  std::string direction_name(const FabricNode& from) const;

  // Conservation: requests sent one way are answered the other way. Accesses outside the coherent
  // protocol: every LLC miss without coherence, and with it the pages' copies and other DMA.
  Counter& requests_from(const FabricNode& from) { return &from == node_a_ ? requests_ab_ : requests_ba_; }
  Counter& responses_from(const FabricNode& from) { return &from == node_a_ ? responses_ab_ : responses_ba_; }
  // The coherent protocol's messages of kind `m` sent from `from` (coherent_<kind>_ab and _ba).
  Counter& coherent_from(const FabricNode& from, CohMessage m) { return coherent_[coherent_index(from, m)]; }
  uint64_t coherent_sent(const FabricNode& from, CohMessage m) const {
    return coherent_[coherent_index(from, m)].value();
  }
  void count_request(const FabricNode& from) { ++requests_from(from); }
  void count_response(const FabricNode& from) { ++responses_from(from); }
  void reset_stats() override;
  // Each direction under "PATH.from_NODE": busy and queue.
  void attach_waves(Waves& waves) override;
  bool balanced() const {
    return requests_ab_.value() == responses_ba_.value() && requests_ba_.value() == responses_ab_.value();
  }

 private:
  size_t coherent_index(const FabricNode& from, CohMessage m) const {
    return static_cast<size_t>(m) * 2 + (&from == node_a_ ? 0 : 1);
  }
  Param<NodeRef> a_{*this, "a", required, "Node at one end of the link"};
  Param<NodeRef> b_{*this, "b", required, "Node at the other end of the link"};
  Param<Bandwidth> bandwidth_;
  Param<Time> latency_;
  Param<unsigned> retimers_;
  Param<Time> retimer_latency_;
  Param<Size> request_size_;
  Param<Size> data_size_;
  Protocol protocol_;
  bool inter_chassis_;
  FabricNode* node_a_ = nullptr;
  FabricNode* node_b_ = nullptr;
  std::unique_ptr<Channel> ab_, ba_;
  Counter requests_ab_{*this, "requests_ab", "messages", "Requests sent from a to b"};
  Counter requests_ba_{*this, "requests_ba", "messages", "Requests sent from b to a"};
  Counter responses_ab_{*this, "responses_ab", "messages", "Responses sent from a to b"};
  Counter responses_ba_{*this, "responses_ba", "messages", "Responses sent from b to a"};
  std::deque<Counter> coherent_;  // [kind * 2 + direction (0: a to b)]
};

}  // namespace starnuma
