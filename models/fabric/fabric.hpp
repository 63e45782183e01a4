// The inter-socket fabric: every memory access from a socket's LLC enters here. The fabric finds
// the access's home node from the physical address map, walks the route hop by hop (each link
// direction adds its latency and its own queueing delay, each router its transit latency, the
// end nodes their port latencies), lets the home serve it, and walks back with the response.
//
// Access is a TLM-2.0 base-protocol transaction on `target` (binding i is requester i, or a
// RequesterExtension names it; fabric_tlm.cpp) or a direct call for initiators that already hold a
// requester index.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "common/component.hpp"
#include "common/param.hpp"
#include "fabric/channel.hpp"
#include "fabric/routing.hpp"
#include "memory/functional_memory.hpp"
#include "common/mem_access.hpp"
#include "memory/memory_home.hpp"

namespace starnuma {

class Socket;

// Where an access went, as the StarNUMA paper's breakdown (Fig. 8c) counts it.
enum class AccessClass : uint8_t { Local, OneHop, TwoHop, Pool };
const char* access_class_name(AccessClass c);

// Names the requesting socket of a transaction sent to Fabric::target, whatever binding it came
// through (optional: without it the binding's index names the requester), and asks for its path.
struct RequesterExtension : tlm::tlm_extension<RequesterExtension> {
  uint32_t requester = 0;
  PathTrace* trace = nullptr;
  tlm::tlm_extension_base* clone() const override { return new RequesterExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const RequesterExtension&>(other);
  }
};

class Fabric : public Component {
 public:
  // A window of the physical address map: one memory node's, or an HDM interleave set's, whose
  // `ways` targets (homes()[first_home] on) take its chunks of 2^granularity_shift bytes in turn.
  struct Range {
    uint64_t base;
    uint64_t size;
    FabricNode* node;  // an interleave set's: its first target (they agree on everything the OS asks)
    MemoryHome* home;
    std::string name;  // the node's, or the set's
    unsigned ways = 1;
    unsigned granularity_shift = 0;
    size_t first_home = 0;
  };
  // A memory that serves requests: a node with memory, one target of a window.
  struct Home {
    FabricNode* node;
    MemoryHome* home;
    size_t range;  // the window it serves
  };

  // `separate_hosts`: each socket is a host, which needs no route to another socket's memory.
  // `functional_memory`: keep the bytes written (transactions on `target` move data; DMI, debug).
  Fabric(sc_core::sc_module_name name, const ScopeContext& ctx, const std::vector<FabricNode*>& nodes,
         bool separate_hosts = false, bool functional_memory = false);

  // Optional: runs call access() directly; probes and TLM initiators bind here. Binding i is
  // requester i (socket order); a RequesterExtension overrides it.
  tlm_utils::multi_passthrough_target_socket_optional<Fabric> target{"target"};

  // The bytes of memory, or null when platform.functional_memory is off.
  FunctionalMemory* functional_memory() { return memory_.get(); }
  // The OS moved a page from physical address `from` to `to`: its bytes go with it, and DMI
  // pointers to either frame are invalidated. Nothing to do without functional memory.
  void page_moved(uint64_t from, uint64_t to, uint64_t bytes) {
    if (memory_) move_bytes(from, to, bytes);
  }
  // One past the last physical address of the map.
  uint64_t map_end() const { return ranges_.empty() ? 0 : ranges_.back().base + ranges_.back().size; }

  // Physical address map: each node with memory owns one contiguous range, in declaration order,
  // except that the devices of an HDM interleave set share one, where the set's first one is.
  const std::vector<Range>& address_map() const { return ranges_; }
  // The range holding `address`, or null past the map's end. Ranges start and end on granules of
  // 2^granule_shift_ bytes, so a table from granule to range answers in one load (every request
  // asks); a map too fine for the table is searched.
  const Range* home_of(uint64_t address) const {
    if (granule_range_.empty()) return search_home(address);
    const uint64_t g = address >> granule_shift_;
    return g < granule_range_.size() ? &ranges_[granule_range_[g]] : nullptr;
  }
  // The memories that serve requests, a window's targets consecutive in their positions' order.
  const std::vector<Home>& homes() const { return homes_; }
  // The home that serves `address` of `range` (index into homes()), and its device address there.
  size_t serving_home(const Range& range, uint64_t address, uint64_t& device_offset) const {
    const uint64_t offset = address - range.base;
    if (range.ways == 1) {
      device_offset = offset;
      return range.first_home;
    }
    const uint64_t chunk = offset >> range.granularity_shift;
    device_offset =
        (chunk / range.ways) << range.granularity_shift | (offset & ((uint64_t{1} << range.granularity_shift) - 1));
    return range.first_home + chunk % range.ways;
  }
  // Requests the memory of `range` has taken, over its targets.
  uint64_t requests_to(size_t range) const;
  // CXL QoS telemetry's host side (qos_throttle; docs/cxl-device.md): when requester `r` may send a
  // request leaving its die at `t` to home `home` (index into homes()), and its reaction to the
  // DevLoad the home's last response carried. Without throttling, `t` and nothing.
  Time qos_hold(size_t r, size_t home, Time t, PathTrace* trace = nullptr) {
    Throttle* th = throttle(r, home);
    return th && th->level > 0 ? hold(*th, r, t, trace) : t;
  }
  void qos_observe(size_t r, size_t home) {
    if (Throttle* th = throttle(r, home)) throttle_by(*th, homes_[home].home->last_devload());
  }
  // The sockets, in node order (requester index i is requesters()[i]), with their cores and caches.
  const std::vector<Socket*>& requesters() const { return requesters_; }
  // Requester `r` as a node of the fabric (what the layers below the socket see of it).
  const FabricNode& requester_node(size_t r) const { return *requester_nodes_.at(r); }
  size_t requester_index(const FabricNode& node) const;
  // Elaboration (FabricNode::bind_fabric): `socket`, which is `node`, joins as the next requester;
  // its `cores` take the next global core ids.
  struct RequesterSlot {
    size_t index;         // requester index
    unsigned first_core;  // global id of its first core
  };
  RequesterSlot add_requester(Socket& socket, FabricNode& node, unsigned cores);
  const Route& route(size_t requester, const FabricNode& to) const;
  const RouteTable& routes() const { return routes_; }

  // Unloaded read latency from requester `r` to the memory of `range` (index into address_map()),
  // computed from the same parameters the timing uses, without touching any state; equal to what
  // `starnuma latency` measures (tested).
  Time unloaded_latency(size_t r, size_t range) const;
  // Whether requester `r` has a route to the memory of address range `range` (always, unless the
  // platform's hosts are separate): to every target of a window.
  bool reachable(size_t r, size_t range) const { return reachable_.at(r).at(range) != 0; }
  // Whether each socket is a server of its own (platform.separate_hosts).
  bool separate_hosts() const { return separate_hosts_; }
  // Local, one hop (coherent, no NUMALink), two hops (a NUMALink), or the pool (a CXL device).
  AccessClass access_class(size_t r, size_t range) const { return classes_[r][range]; }

  // One access issued by requester `r` at `issue`; returns when its response is back at the LLC.
  // `range`, if given, receives the index of the home's address range.
  Time access(size_t r, const MemAccess& access, Time issue, size_t* range = nullptr);

  // Every request that entered was answered: per link direction, per home, and in total.
  // Raises a starnuma/model error naming what does not balance.
  void check_conservation() const;

  // One coherence message between socket `s` and `node`, either way (`outbound`: from the socket),
  // over the same route and link directions as accesses, so it queues behind and delays them.
  // Port to port: the on-die parts are the caller's. Not counted by the conservation check: a
  // transaction's messages (request, forward, data from a third node) do not pair up per link.
  // Each link direction counts it by its kind (Link::coherent_from); the kind sets its size.
  Time send(size_t s, const FabricNode& node, bool outbound, Time t, CohMessage kind, PathTrace* trace = nullptr);
  // The same between socket `s` and home `home` (index into homes()) about the line at physical
  // `address`: over the link its chunk takes when the socket reaches the device through several
  // (ports()).
  Time send_home(size_t s, size_t home, uint64_t address, bool outbound, Time t, CohMessage kind,
                 PathTrace* trace = nullptr);
  // Port interleaving (docs/cxl-device.md): a socket with several links straight to one CXL
  // device spreads its requests to it over them, as a host bridge interleaves its root ports,
  // chunk k of the device's addresses (at its HDM granularity) over link k mod links. Null when
  // the socket reaches the device by one route.
  struct PortSet {
    unsigned shift;             // log2 of the granularity
    std::vector<Route> routes;  // one per link, in declaration order
    size_t port(uint64_t device_offset) const { return (device_offset >> shift) % routes.size(); }
  };
  const PortSet* ports(size_t s, size_t home) const {
    if (port_set_of_.empty() || port_set_of_[s][home] < 0) return nullptr;
    return &port_sets_[static_cast<size_t>(port_set_of_[s][home])].set;
  }

 private:
  // The TLM-2.0 target (fabric_tlm.cpp). `port`: the index of the binding it came through.
  void b_transport(int port, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(int port, tlm::tlm_generic_payload& payload);
  bool get_direct_mem_ptr(int port, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  // Why the fabric cannot execute `payload` from requester `r` (TLM_OK_RESPONSE: it can).
  tlm::tlm_response_status admit(size_t r, const tlm::tlm_generic_payload& payload) const;
  void move_bytes(uint64_t from, uint64_t to, uint64_t bytes);
  // `coherent`: the coherence message's kind it counts (none: an access's request or response).
  Time walk(const Route& route, bool forward, Time t, uint32_t (Link::*size)() const, PathTrace* trace,
            std::optional<CohMessage> coherent = std::nullopt);

  // A route in one direction with its fixed costs folded in (ports, transits, each channel's
  // serialization of the message): what an untraced access walks, with the same arithmetic as
  // walk() and no virtual calls.
  struct Step {
    Channel* channel;
    int64_t before_ps;   // the first node's port, or the transit of the node before
    int64_t service_ps;  // the message's serialization on this channel
    uint32_t bytes;
    int32_t crossing;  // into crossings_ when the node before times each message, else -1
    Counter* sent;     // the link's count of this message in this direction
  };
  // A node that times each message it forwards (FabricNode::times_messages), between two links.
  struct Crossing {
    FabricNode* node;
    const Link* in;
    const Link* out;
    bool response;
  };
  struct Leg {
    size_t first = 0, steps = 0;  // into steps_
    int64_t tail_ps = 0;          // the last node's port
  };
  using MessageLegs = std::array<std::array<Leg, kCohMessages>, 2>;  // [outbound][kind]
  MessageLegs compile_message_legs(const Route& route);
  struct Path {
    Leg out[2], back[2];       // by MemOp: a read's request and data, a write's data and acknowledgement
    bool remote = false;       // the home is another node
    bool unreachable = false;  // another host's memory it does not lend (separate hosts)
  };
  [[noreturn]] void unreachable_access(size_t requester, size_t range) const;
  // The nodes' ranges and homes, the devices of an interleave set in one window (its checks first).
  void map_memory(const std::vector<FabricNode*>& nodes);
  void index_granules();
  const Range* search_home(uint64_t address) const;
  void compile_messages(const std::vector<FabricNode*>& nodes);  // message_legs_
  // The steps count their message in the link's requests or responses, or as a coherence message.
  Leg compile(const Route& route, bool forward, uint32_t (Link::*size)() const,
              std::optional<CohMessage> coherent = std::nullopt);
  static Counter& counter(Link& link, const FabricNode& from, bool forward, std::optional<CohMessage> coherent) {
    return coherent  ? link.coherent_from(from, *coherent)
           : forward ? link.requests_from(from)
                     : link.responses_from(from);
  }
  Time run(const Leg& leg, Time t) {
    const Step* s = &steps_[leg.first];
    for (const Step* end = s + leg.steps; s != end; ++s) {
      t = s->crossing < 0 ? t + Time::from_ps(s->before_ps) : cross(*s, t);
      t = s->channel->traverse(t, s->bytes, s->service_ps);
      ++*s->sent;
    }
    return t + Time::from_ps(leg.tail_ps);
  }

  Time cross(const Step& s, Time t) const {
    const Crossing& c = crossings_[static_cast<size_t>(s.crossing)];
    return c.node->cross(t, *c.in, *c.out, s.bytes, c.response);
  }

  // A host's throttle of its requests to a device that reports DevLoad (CXL QoS telemetry;
  // docs/cxl-device.md): consecutive requests are at least `level` x qos_step apart, the level
  // rising with the device's overload reports and falling with its light-load ones.
  struct Throttle {
    std::unique_ptr<Channel> gate;
    unsigned level = 0;
  };
  void build_throttles();
  void build_port_sets();
  Throttle* throttle(size_t r, size_t home) {
    return throttles_.empty() || !throttles_[r][home].gate ? nullptr : &throttles_[r][home];
  }
  Time hold(Throttle& th, size_t r, Time t, PathTrace* trace);
  void throttle_by(Throttle& th, DevLoad load);

  Param<bool> qos_throttle_{*this, "qos_throttle", false,
                            "Hosts throttle their requests to a CXL device by the DevLoad its responses carry "
                            "(CXL QoS telemetry; the device's nodes.NAME.qos.enabled; docs/cxl-device.md)"};
  Param<Time> qos_step_{*this, "qos_step", Time::from_ps(1000),
                        "With qos_throttle: the gap a host keeps between its requests to a device per throttle level",
                        between(Time::from_ps(1), Time::from_ps(1000000))};
  Param<unsigned> qos_max_level_{*this, "qos_max_level", 64,
                                 "With qos_throttle: the highest throttle level (a gap of this many steps)",
                                 between(1u, 100000u)};
  bool separate_hosts_ = false;
  std::unique_ptr<FunctionalMemory> memory_;  // null: timing only
  std::vector<Range> ranges_;
  std::vector<uint64_t> range_bases_;  // ranges_[i].base, dense for search_home
  unsigned granule_shift_ = 0;
  std::vector<uint16_t> granule_range_;  // each granule's index in ranges_; empty: search instead
  std::vector<Home> homes_;
  std::vector<Socket*> requesters_;
  std::vector<FabricNode*> requester_nodes_;  // the same, as topology nodes
  unsigned requester_cores_ = 0;
  RouteTable routes_;
  std::vector<std::vector<const Route*>> route_to_home_;  // [requester][home]
  std::vector<std::vector<AccessClass>> classes_;         // [requester][range] (a window: its first target's)
  std::vector<std::vector<char>> reachable_;              // [requester][range]
  std::vector<Step> steps_;
  std::vector<Crossing> crossings_;
  std::vector<std::vector<Path>> paths_;          // [requester][home]
  std::vector<std::vector<Throttle>> throttles_;  // [requester][home] with qos_throttle, else empty
  // Port interleaving: each set with its links' accesses and messages compiled like paths_ and
  // message_legs_; port_set_of_[requester][home] indexes it (-1: one route), empty when none.
  struct CompiledPorts {
    PortSet set;
    std::vector<Path> paths;            // [port]
    std::vector<MessageLegs> messages;  // [port]
  };
  std::vector<CompiledPorts> port_sets_;
  std::vector<std::vector<int32_t>> port_set_of_;
  // Coherence messages, compiled like accesses: [requester][node (the route table's index)]
  // [outbound][kind]; what send() runs when nothing traces it.
  std::vector<std::vector<MessageLegs>> message_legs_;
  std::vector<std::pair<Time, Time>> uncore_;  // [requester]: on die, out and back

  Counter requests_{*this, "requests", "accesses", "Accesses that entered the fabric"};
  Counter responses_{*this, "responses", "accesses", "Accesses answered"};
  Counter remote_{*this, "remote", "accesses", "Accesses whose home is another node"};
};

}  // namespace starnuma
