#include "fabric/fabric.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "common/bits.hpp"
#include "common/text.hpp"
#include "fabric/hdm_decoder.hpp"

namespace starnuma {

namespace {

std::vector<FabricNode*> requesters_of(const std::vector<FabricNode*>& nodes) {
  std::vector<FabricNode*> s;
  for (FabricNode* n : nodes)
    if (n->is_requester()) s.push_back(n);
  return s;
}

AccessClass classify(const Route& route) {
  if (route.hops.empty()) return AccessClass::Local;
  if (route.hops.front().link->protocol() == Protocol::Cxl) return AccessClass::Pool;
  for (const Hop& h : route.hops)
    if (h.link->hop_kind() == HopKind::InterChassis) return AccessClass::TwoHop;
  return AccessClass::OneHop;
}

}  // namespace

Fabric::Fabric(sc_core::sc_module_name name, const ScopeContext& ctx, const std::vector<FabricNode*>& nodes,
               bool separate_hosts, bool functional_memory)
    : Component(name, ctx),
      separate_hosts_(separate_hosts),
      memory_(functional_memory ? std::make_unique<FunctionalMemory>() : nullptr),
      routes_(nodes, requesters_of(nodes)) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    report_internal("the model needs a SystemC time resolution of 1 ps");
  target.register_b_transport(this, &Fabric::b_transport);
  target.register_nb_transport_fw(this, &Fabric::nb_transport_fw);
  target.register_transport_dbg(this, &Fabric::transport_dbg);
  target.register_get_direct_mem_ptr(this, &Fabric::get_direct_mem_ptr);
  for (FabricNode* n : nodes) n->bind_fabric(*this);
  map_memory(nodes);
  if (requester_nodes_.size() != requesters_of(nodes).size())
    report_internal("a node that says it is a requester did not register with the fabric");
  // Unreachable memories are said once, with how many pairs and the first few: a chain of sockets
  // (which forward nothing) has a number of them that grows with the square of its length.
  uint64_t unreachable = 0;
  std::string examples;
  for (const FabricNode* s : requester_nodes_)
    for (const Home& h : homes_)
      if (!routes_.route(*s, *h.node).reachable && !(separate_hosts && h.node->is_requester()) && unreachable++ < 3)
        examples +=
            std::string(examples.empty() ? "" : ", ") + s->basename() + " to the memory of " + h.node->basename();
  if (unreachable > 0) {
    error(nullptr, "",
          std::to_string(unreachable) + " socket-to-memory pair" + (unreachable == 1 ? " has" : "s have") +
              " no route (" + examples + (unreachable > 3 ? ", ..." : "") +
              "): only routers and switches forward traffic, a socket does not" +
              (separate_hosts ? "; a pool must be reached by every host"
                              : "; servers on a CXL fabric rather than one machine: platform.separate_hosts: true"),
          msg::kTopology);
    return;
  }
  for (const FabricNode* s : requester_nodes_) {
    const Time half = Time::from_ps(s->uncore_latency().ps() / 2);
    uncore_.emplace_back(half, s->uncore_latency() - half);
    std::vector<const Route*> row;
    for (const Home& h : homes_) row.push_back(&routes_.route(*s, *h.node));
    std::vector<AccessClass> classes;
    std::vector<char> reachable;
    for (const Range& r : ranges_) {
      classes.push_back(classify(*row[r.first_home]));
      bool all = true;
      for (size_t t = 0; t < r.ways; ++t) all = all && row[r.first_home + t]->reachable;
      reachable.push_back(all);
    }
    std::vector<Path> paths;
    for (const Route* route : row) {
      Path p;
      p.remote = !route->hops.empty();
      p.unreachable = !route->reachable;
      p.out[0] = compile(*route, true, &Link::request_bytes);
      p.back[0] = compile(*route, false, &Link::data_bytes);
      p.out[1] = compile(*route, true, &Link::data_bytes);
      p.back[1] = compile(*route, false, &Link::request_bytes);
      paths.push_back(p);
    }
    classes_.push_back(std::move(classes));
    reachable_.push_back(std::move(reachable));
    paths_.push_back(std::move(paths));
    route_to_home_.push_back(std::move(row));
  }
  compile_messages(nodes);
  build_throttles();
  build_port_sets();
}

void Fabric::build_port_sets() {
  for (size_t r = 0; r < requester_nodes_.size(); ++r)
    for (size_t h = 0; h < homes_.size(); ++h) {
      FabricNode& from = *requester_nodes_[r];
      FabricNode& device = *homes_[h].node;
      const HdmDecoder* decoder = device.hdm_decoder();
      if (!decoder) continue;
      PortSet set{static_cast<unsigned>(log2_of_power(decoder->granularity())), {}};
      for (Link* l : from.links())
        if (l->protocol() == Protocol::Cxl && l->other_end(from) == &device) {
          Route route;
          route.hops.push_back(Hop{l, &from, &device});
          route.latency = from.port_latency(*l) + l->latency() + device.port_latency(*l);
          route.reachable = true;
          set.routes.push_back(std::move(route));
        }
      if (set.routes.size() < 2) continue;
      if (port_set_of_.empty()) port_set_of_.assign(requester_nodes_.size(), std::vector<int32_t>(homes_.size(), -1));
      port_set_of_[r][h] = static_cast<int32_t>(port_sets_.size());
      CompiledPorts c{std::move(set), {}, {}};
      for (const Route& route : c.set.routes) {
        Path p;
        p.remote = true;
        p.out[0] = compile(route, true, &Link::request_bytes);
        p.back[0] = compile(route, false, &Link::data_bytes);
        p.out[1] = compile(route, true, &Link::data_bytes);
        p.back[1] = compile(route, false, &Link::request_bytes);
        c.paths.push_back(p);
        c.messages.push_back(compile_message_legs(route));
      }
      port_sets_.push_back(std::move(c));
    }
}

Time Fabric::send_home(size_t s, size_t home, uint64_t address, bool outbound, Time t, CohMessage kind,
                       PathTrace* trace) {
  if (port_set_of_.empty() || port_set_of_[s][home] < 0) return send(s, *homes_[home].node, outbound, t, kind, trace);
  const CompiledPorts& c = port_sets_[static_cast<size_t>(port_set_of_[s][home])];
  uint64_t offset;
  serving_home(ranges_[homes_[home].range], address, offset);
  const size_t port = c.set.port(offset);
  if (!trace) return run(c.messages[port][outbound][static_cast<size_t>(kind)], t);
  return walk(c.set.routes[port], outbound, t, carries_data(kind) ? &Link::data_bytes : &Link::request_bytes, trace,
              kind);
}

void Fabric::build_throttles() {
  if (!qos_throttle_.get()) return;
  throttles_.resize(requester_nodes_.size());
  for (size_t r = 0; r < requester_nodes_.size(); ++r) {
    throttles_[r].resize(homes_.size());
    for (size_t h = 0; h < homes_.size(); ++h)
      if (homes_[h].home->reports_devload())
        throttles_[r][h].gate = std::make_unique<Channel>(
            *this, std::string("qos_gate_") + requester_nodes_[r]->basename() + "_" + homes_[h].node->basename(),
            Bandwidth::gbps(1e6), Time());
  }
}

Time Fabric::hold(Throttle& th, size_t r, Time t, PathTrace* trace) {
  const Time held = th.gate->traverse(t, 0, static_cast<int64_t>(th.level) * qos_step_.get().ps());
  if (trace && held > t) trace->add(requester_nodes_[r]->path(), "held by the host's QoS throttle", held - t);
  return held;
}

// The host's reaction to a response's DevLoad: light load lowers the throttle a step, optimal
// holds it, moderate overload raises it a step, severe overload doubles it.
void Fabric::throttle_by(Throttle& th, DevLoad load) {
  switch (load) {
    case DevLoad::Light: th.level -= th.level > 0; break;
    case DevLoad::Optimal: break;
    case DevLoad::Moderate: th.level = std::min(qos_max_level_.get(), th.level + 1); break;
    case DevLoad::Severe: th.level = std::min(qos_max_level_.get(), 2 * th.level + 1); break;
  }
}

const Fabric::Range* Fabric::search_home(uint64_t address) const {
  const auto it = std::upper_bound(range_bases_.begin(), range_bases_.end(), address);
  if (it == range_bases_.begin()) return nullptr;
  const Range& r = ranges_[static_cast<size_t>(it - range_bases_.begin()) - 1];
  return address - r.base < r.size ? &r : nullptr;
}

void Fabric::map_memory(const std::vector<FabricNode*>& nodes) {
  // The interleave sets' devices, each set in its positions' order (checked: one device each).
  std::map<std::string, std::vector<FabricNode*>> sets;
  std::map<std::string, bool> refused;  // said once: the set's completeness is not asked then
  for (FabricNode* n : nodes)
    if (HdmDecoder* d = n->memory_home() ? n->hdm_decoder() : nullptr; d && d->interleaved()) {
      std::vector<FabricNode*>& members = sets[d->set()];
      if (members.empty()) members.assign(d->ways(), nullptr);
      const HdmDecoder& first = *(members[0] ? members[0] : n)->hdm_decoder();
      const auto refuse = [&](const char* key, const std::string& why) {
        d->error_at(key, why + " (set '" + d->set() + "')", msg::kTopology);
        refused[d->set()] = true;
      };
      if (std::any_of(nodes.begin(), nodes.end(), [&](const FabricNode* m) { return m->basename() == d->set(); }))
        refuse("set", "names the window as a node is named already: the window is a NUMA node of its own");
      else if (d->ways() != members.size())
        refuse("ways", "is " + std::to_string(d->ways()) + " where another device of the set says " +
                           std::to_string(members.size()));
      else if (members[d->position()])
        refuse("position", std::to_string(d->position()) + " is " + members[d->position()]->basename() + "'s too");
      else if (d->granularity() != first.granularity())
        refuse("granularity", "differs from the set's other devices': they take chunks of one size");
      else if (members[0] && n->memory_home()->memory_capacity() != members[0]->memory_home()->memory_capacity())
        refuse("set", std::string("joins devices of another capacity than ") + members[0]->basename() +
                          "'s: each takes an equal share of the window");
      else if (members[0] && n->first_touch() != members[0]->first_touch())
        refuse("set", std::string("joins a NUMA node and a pool: ") + members[0]->basename() +
                          " is the other kind (numa_node)");
      else members[d->position()] = n;
    }
  for (auto& [name, members] : sets) {
    if (refused[name]) members.clear();  // reported: the set is not built
    for (size_t p = 0; p < members.size(); ++p)
      if (!members[p]) {
        FabricNode* any = *std::find_if(members.begin(), members.end(), [](FabricNode* m) { return m; });
        any->hdm_decoder()->error_at("ways",
                                     "is " + std::to_string(members.size()) + ", but no device of set '" + name +
                                         "' has position " + std::to_string(p),
                                     msg::kTopology);
        members.clear();
        break;
      }
  }
  uint64_t base = 0;
  std::map<std::string, bool> placed;
  for (FabricNode* n : nodes) {
    MemoryHome* h = n->memory_home();
    if (!h) continue;
    const HdmDecoder* d = n->hdm_decoder();
    std::vector<FabricNode*> targets{n};
    Range r{base, h->memory_capacity().bytes(), n, h, std::string(n->basename())};
    if (d && d->interleaved()) {
      if (placed[d->set()] || sets[d->set()].empty()) continue;  // placed with its set, or refused
      placed[d->set()] = true;
      targets = sets[d->set()];
      r = Range{base,
                h->memory_capacity().bytes() * targets.size(),
                targets[0],
                targets[0]->memory_home(),
                d->set(),
                static_cast<unsigned>(targets.size()),
                log2_of_power(d->granularity())};
    }
    r.first_home = homes_.size();
    for (FabricNode* t : targets) homes_.push_back(Home{t, t->memory_home(), ranges_.size()});
    ranges_.push_back(r);
    range_bases_.push_back(base);
    base += r.size;
  }
  index_granules();
}

void Fabric::index_granules() {
  constexpr size_t kMaxGranules = size_t{1} << 20;  // 2 MiB of table; a finer map is searched
  granule_range_.clear();
  if (ranges_.empty() || ranges_.size() > std::numeric_limits<uint16_t>::max()) return;
  unsigned shift = 63;
  for (const Range& r : ranges_)
    shift = std::min({shift, static_cast<unsigned>(__builtin_ctzll(r.base | (uint64_t{1} << 63))),
                      static_cast<unsigned>(__builtin_ctzll(r.size | (uint64_t{1} << 63)))});
  if (((map_end() - 1) >> shift) >= kMaxGranules) return;
  granule_shift_ = shift;
  granule_range_.resize(((map_end() - 1) >> shift) + 1);
  for (size_t i = 0; i < ranges_.size(); ++i)  // the map is contiguous from 0: every granule is a range's
    std::fill_n(granule_range_.begin() + static_cast<std::ptrdiff_t>(ranges_[i].base >> shift),
                ranges_[i].size >> shift, static_cast<uint16_t>(i));
}

uint64_t Fabric::requests_to(size_t range) const {
  const Range& r = ranges_.at(range);
  uint64_t n = 0;
  for (size_t t = 0; t < r.ways; ++t) n += homes_[r.first_home + t].home->requests();
  return n;
}

Fabric::RequesterSlot Fabric::add_requester(Socket& socket, FabricNode& node, unsigned cores) {
  const RequesterSlot slot{requesters_.size(), requester_cores_};
  requesters_.push_back(&socket);
  requester_nodes_.push_back(&node);
  requester_cores_ += cores;
  return slot;
}

size_t Fabric::requester_index(const FabricNode& node) const {
  auto it = std::find(requester_nodes_.begin(), requester_nodes_.end(), &node);
  if (it == requester_nodes_.end()) report_internal(std::string(node.name()) + " is not a requester of the fabric");
  return static_cast<size_t>(it - requester_nodes_.begin());
}

const Route& Fabric::route(size_t requester, const FabricNode& to) const {
  return routes_.route(*requester_nodes_.at(requester), to);
}

const char* access_class_name(AccessClass c) {
  switch (c) {
    case AccessClass::Local: return "local";
    case AccessClass::OneHop: return "1-hop";
    case AccessClass::TwoHop: return "2-hop";
    case AccessClass::Pool: return "pool";
  }
  return "?";
}

// Reached when one program's threads run on several separate hosts and share a page that one of
// them placed in its own memory: the workload's layout, not the model, is at fault.
void Fabric::unreachable_access(size_t requester, size_t range) const {
  report_error(msg::kInput,
               std::string("an access of ") + requester_nodes_[requester]->basename() + " to the memory of " +
                   ranges_[range].name +
                   ", another host's that it does not lend: with platform.separate_hosts, the threads of "
                   "one program on several hosts share only lent or pooled memory; run one program per "
                   "host (a mix, docs/workloads.md) or place the shared data in the pool (docs/fabric.md)");
}

Time Fabric::unloaded_latency(size_t r, size_t range) const {
  const Range& window = ranges_.at(range);
  Time worst;
  for (size_t t = 0; t < window.ways; ++t) {
    const Home& h = homes_[window.first_home + t];
    worst = std::max(worst, route_to_home_.at(r)[window.first_home + t]->latency * 2 + h.home->unloaded_service());
  }
  return requester_nodes_[r]->uncore_latency() + worst;
}

Time Fabric::walk(const Route& route, bool forward, Time t, uint32_t (Link::*size)() const, PathTrace* trace,
                  std::optional<CohMessage> coherent) {
  const size_t n = route.hops.size();
  for (size_t i = 0; i < n; ++i) {
    const Hop& hop = route.hops[forward ? i : n - 1 - i];
    FabricNode& from = forward ? *hop.from : *hop.to;
    FabricNode& to = forward ? *hop.to : *hop.from;
    Link& link = *hop.link;
    if (i == 0) {
      t = t + from.port_latency(link);
      if (trace && from.port_latency(link).ps()) trace->add(from.path(), "port", from.port_latency(link));
    }
    const Time before = t;
    t = link.channel_from(from).traverse(t, (link.*size)());
    ++counter(link, from, forward, coherent);
    if (trace) {  // in the order they happen: the wait for the direction, then the crossing
      if ((t - before - link.latency()).ps()) trace->add(link.path(), "queueing", t - before - link.latency());
      trace->add(link.path(), "link " + link.direction_name(from), link.wire_latency());
      if (link.retimers_latency().ps()) trace->add(link.path(), "retimers", link.retimers_latency());
    }
    if (i + 1 < n) {
      const Time arrived = t;
      if (to.times_messages()) {
        const Link& out = *route.hops[forward ? i + 1 : n - 2 - i].link;
        t = to.cross(t, link, out, (link.*size)(), !forward);
      } else {
        t = t + to.transit_latency();
      }
      if (trace) trace->add(to.path(), "transit", t - arrived);
    } else {
      t = t + to.port_latency(link);
      if (trace && to.port_latency(link).ps()) trace->add(to.path(), "port", to.port_latency(link));
    }
  }
  return t;
}

void Fabric::compile_messages(const std::vector<FabricNode*>& nodes) {
  message_legs_.assign(requester_nodes_.size(), std::vector<MessageLegs>(routes_.nodes()));
  for (size_t s = 0; s < requester_nodes_.size(); ++s)
    for (const FabricNode* n : nodes)
      message_legs_[s][routes_.index(*n)] = compile_message_legs(routes_.route(*requester_nodes_[s], *n));
}

Fabric::MessageLegs Fabric::compile_message_legs(const Route& route) {
  MessageLegs legs;
  for (const bool outbound : {false, true})
    for (size_t k = 0; k < kCohMessages; ++k) {
      const auto kind = static_cast<CohMessage>(k);
      legs[outbound][k] = compile(route, outbound, carries_data(kind) ? &Link::data_bytes : &Link::request_bytes, kind);
    }
  return legs;
}

Fabric::Leg Fabric::compile(const Route& route, bool forward, uint32_t (Link::*size)() const,
                            std::optional<CohMessage> coherent) {
  Leg leg{steps_.size(), route.hops.size(), 0};
  const size_t n = route.hops.size();
  int64_t before = 0;
  const Link* previous = nullptr;
  for (size_t i = 0; i < n; ++i) {
    const Hop& hop = route.hops[forward ? i : n - 1 - i];
    FabricNode& from = forward ? *hop.from : *hop.to;
    const FabricNode& to = forward ? *hop.to : *hop.from;
    Link& link = *hop.link;
    if (i == 0) before = from.port_latency(link).ps();
    int32_t crossing = -1;
    if (i > 0 && from.times_messages()) {
      crossing = static_cast<int32_t>(crossings_.size());
      crossings_.push_back(Crossing{&from, previous, &link, !forward});
    }
    Channel& channel = link.channel_from(from);
    const uint32_t bytes = (link.*size)();
    steps_.push_back(
        Step{&channel, before, channel.service_ps(bytes), bytes, crossing, &counter(link, from, forward, coherent)});
    previous = &link;
    before = to.transit_latency().ps();
    if (i + 1 == n) leg.tail_ps = to.port_latency(link).ps();
  }
  return leg;
}

Time Fabric::access(size_t r, const MemAccess& a, Time issue, size_t* range_index) {
  const FabricNode& from = *requester_nodes_[r];
  const Range* range = home_of(a.address);
  if (!range) report_internal("address " + hex(a.address) + " is outside the physical address map");
  const size_t index = static_cast<size_t>(range - ranges_.data());
  if (range_index) *range_index = index;
  uint64_t offset;
  const size_t home = serving_home(*range, a.address, offset);
  const Path* chosen = &paths_[r][home];
  const Route* route_taken = nullptr;  // a port's, when the socket interleaves over its links to the device
  if (!port_set_of_.empty() && port_set_of_[r][home] >= 0) {
    const CompiledPorts& c = port_sets_[static_cast<size_t>(port_set_of_[r][home])];
    const size_t port = c.set.port(offset);
    chosen = &c.paths[port];
    route_taken = &c.set.routes[port];
  }
  const Path& path = *chosen;
  if (path.unreachable) unreachable_access(r, index);
  ++requests_;  // after the checks: a refused access is neither a request nor a response
  const auto [half_uncore, back] = uncore_[r];
  if (a.trace) a.trace->add(from.path(), "on die, out", half_uncore);
  Time t = issue + half_uncore;
  t = qos_hold(r, home, t, a.trace);
  const bool read = a.op == MemOp::Read;
  if (path.remote) ++remote_;
  if (a.trace) {
    const Route& route = route_taken ? *route_taken : *route_to_home_[r][home];
    t = walk(route, true, t, read ? &Link::request_bytes : &Link::data_bytes, a.trace);
    t = homes_[home].home->serve(t, a.op, offset, a.trace);
    t = walk(route, false, t, read ? &Link::data_bytes : &Link::request_bytes, a.trace);
  } else {
    t = run(path.out[read ? 0 : 1], t);
    t = homes_[home].home->serve(t, a.op, offset, nullptr);
    t = run(path.back[read ? 0 : 1], t);
  }
  qos_observe(r, home);
  if (a.trace) a.trace->add(from.path(), "on die, back", back);
  ++responses_;
  return t + back;
}

Time Fabric::send(size_t s, const FabricNode& node, bool outbound, Time t, CohMessage kind, PathTrace* trace) {
  if (!trace) return run(message_legs_[s][routes_.index(node)][outbound][static_cast<size_t>(kind)], t);
  const Route& route = routes_.route(*requester_nodes_[s], node);
  return walk(route, outbound, t, carries_data(kind) ? &Link::data_bytes : &Link::request_bytes, trace, kind);
}

void Fabric::check_conservation() const {
  std::string problems;
  if (requests_.value() != responses_.value())
    problems += "\n  fabric: " + std::to_string(requests_.value()) + " requests, " +
                std::to_string(responses_.value()) + " responses";
  for (const Home& h : homes_)
    if (h.home->requests() != h.home->responses())
      problems += std::string("\n  ") + h.node->path() + ": " + std::to_string(h.home->requests()) + " requests, " +
                  std::to_string(h.home->responses()) + " responses";
  for (const auto& row : route_to_home_)
    for (const Route* route : row)
      for (const Hop& h : route->hops)
        if (!h.link->balanced() && problems.find(h.link->path()) == std::string::npos)
          problems += std::string("\n  ") + h.link->path() + ": requests and responses do not balance";
  if (!problems.empty()) report_error(msg::kModel, "transactions entered the fabric and did not leave it:" + problems);
}

}  // namespace starnuma
