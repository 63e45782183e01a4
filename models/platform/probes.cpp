#include "platform/probes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>

#include <tlm_utils/simple_initiator_socket.h>

#include "common/text.hpp"
#include "fabric/line_payload.hpp"
#include "pool/cxl_pool.hpp"
#include "socket/socket.hpp"

namespace starnuma {

namespace {

// An initiator bound to the fabric: sends one access with a local-time offset and returns its
// completion time. Probes never wait between accesses: arrivals are issued in time order, so
// every resource sees them first come, first served.
class ProbeInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ProbeInitiator> socket{"socket"};
  explicit ProbeInitiator(sc_core::sc_module_name n) : sc_module(n) {}

  Time send(size_t requester, MemOp op, uint64_t address, Time issue, PathTrace* trace) {
    tlm::tlm_generic_payload payload;
    uint8_t data[kLineBytes] = {};
    set_line_payload(payload, op, address, data);
    RequesterExtension ext;
    ext.requester = static_cast<uint32_t>(requester);
    ext.trace = trace;
    payload.set_extension(&ext);
    const Time now = Time::from_ps(static_cast<int64_t>(sc_core::sc_time_stamp().value()));
    sc_core::sc_time delay = sc_core::sc_time::from_value(static_cast<sc_dt::uint64>((issue - now).ps()));
    socket->b_transport(payload, delay);
    payload.clear_extension(&ext);
    if (payload.get_response_status() != tlm::TLM_OK_RESPONSE) report_internal("probe transaction failed");
    return now + Time::from_ps(static_cast<int64_t>(delay.value()));
  }
};

// Runs `body` in an SC_THREAD of a fresh initiator bound to the fabric, then checks conservation.
template <class Body>
void run_probe(Platform& platform, Body body) {
  ProbeInitiator initiator("probe");
  initiator.socket.bind(platform.fabric().target);
  bool done = false;
  sc_core::sc_spawn([&] {
    body(initiator);
    done = true;
  });
  if (platform.initiators().empty()) {
    sc_core::sc_start();
  } else {  // plug-in initiators run beside the probe and may never finish: only until it has
    do {
      sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));  // to that time, events or not
      if (!done && !sc_core::sc_pending_activity()) report_internal("a probe waits for nothing that will happen");
    } while (!done);
  }
  platform.fabric().check_conservation();
}

size_t socket_index(const Fabric& fabric, const std::string& name) {
  for (size_t i = 0; i < fabric.requesters().size(); ++i)
    if (fabric.requesters()[i]->basename() == name) return i;
  std::vector<std::string> names;
  for (const Socket* s : fabric.requesters()) names.push_back(s->basename());
  report_error(msg::kUsage, "--from: no socket named '" + name + "' (sockets: " + join(names) + ")");
}

const Fabric::Range& memory_node(const Fabric& fabric, const std::string& name, const char* option = "--to") {
  for (const Fabric::Range& r : fabric.address_map())
    if (r.name == name) return r;
  std::vector<std::string> names;
  for (const Fabric::Range& r : fabric.address_map()) names.push_back(r.name);
  report_error(msg::kUsage,
               std::string(option) + ": no memory node named '" + name + "' (memory nodes: " + join(names) + ")");
}

double gbps(uint64_t bytes, Time span) {
  return span.ps() > 0 ? static_cast<double>(bytes) / static_cast<double>(span.ps()) * 1e3 : 0.0;
}

}  // namespace

Ddr5Controller* memory_of(FabricNode* node) {
  MemoryHome* home = node->memory_home();
  return home ? home->dram_controller() : nullptr;
}

Ddr5Controller& memory_controller(Platform& platform, const std::string& node) {
  const Fabric::Range& r = memory_node(platform.fabric(), node, "--node");
  Ddr5Controller* c = memory_of(r.node);
  if (!c) report_error(msg::kUsage, "--node: " + node + " has no DDR5 controller");
  return *c;
}

LatencyMatrix measure_unloaded_latency(Platform& platform, bool with_paths) {
  Fabric& fabric = platform.fabric();
  LatencyMatrix m;
  for (const Socket* s : fabric.requesters()) m.sockets.push_back(s->basename());
  for (const Fabric::Range& r : fabric.address_map()) m.nodes.push_back(r.name);
  const size_t S = m.sockets.size(), N = m.nodes.size();
  m.latency.assign(S, std::vector<Time>(N));
  m.routes.assign(S, std::vector<std::string>(N));
  m.paths.assign(S, std::vector<PathTrace>(with_paths ? N : 0));
  // Unloaded means idle and outside refresh (the paper's nominal latencies).
  for (const Fabric::Range& r : fabric.address_map())
    if (Ddr5Controller* memory = memory_of(r.node)) memory->suspend_refresh(true);
  run_probe(platform, [&](ProbeInitiator& probe) {
    const Time gap = Time::from_ns(10000);
    Time t;
    for (size_t s = 0; s < S; ++s) {
      for (size_t n = 0; n < N; ++n) {
        const Fabric::Range& range = fabric.address_map()[n];
        if (!fabric.reachable(s, n)) {  // another host's memory it does not lend
          m.latency[s][n] = Time::from_ps(-1);
          m.routes[s][n] = "no route";
          continue;
        }
        m.routes[s][n] = RouteTable::describe(*fabric.requesters()[s], fabric.route(s, *range.node));
        t = t + gap;
        m.latency[s][n] = probe.send(s, MemOp::Read, range.base, t, with_paths ? &m.paths[s][n] : nullptr) - t;
      }
    }
    sc_core::wait((t + gap).to_sc());
  });
  return m;
}

BandwidthResult measure_bandwidth(Platform& platform, const BandwidthOptions& o) {
  Fabric& fabric = platform.fabric();
  std::vector<size_t> requesters;
  for (const std::string& name : o.from) {
    if (name == "all") {
      for (size_t s = 0; s < fabric.requesters().size(); ++s) requesters.push_back(s);
    } else {
      requesters.push_back(socket_index(fabric, name));
    }
  }
  if (requesters.empty()) report_error(msg::kUsage, "--from: name at least one socket, or all");
  const Fabric::Range& home = memory_node(fabric, o.to);

  // The stages the traffic crosses: memory, then both directions of each link of any requester's
  // route. Towards the requester go the read data and the write acks, towards the memory the read
  // requests and the write data; a direction moves lines at its bandwidth over the bytes it
  // carries per line of the mix. A requester's capacity is its route's narrowest direction; the
  // path capacity is the memory's peak or the requesters' capacities together, whichever is less.
  struct Stage {
    std::string name;
    double gbps;
    std::function<double(Time span)> utilization;
  };
  std::vector<Stage> stages;
  // An interleave set's targets each take an equal share of the window's lines: the memories add
  // up, and a link direction that k of the ways' routes cross carries k / ways of the traffic
  // (a port-interleaved device's share split evenly again over its links).
  const double w = o.write_fraction;
  double memory_gbps = 0;
  for (size_t t = 0; t < home.ways; ++t) {
    FabricNode* node = fabric.homes()[home.first_home + t].node;
    double target_gbps = std::numeric_limits<double>::infinity();
    if (const Ddr5Controller* memory = memory_of(node)) {
      target_gbps = memory->peak_bandwidth().gb_per_s();
      stages.push_back({memory->path() + " (data buses)", target_gbps,
                        [memory](Time span) { return memory->bus_utilization(span); }});
    }
    if (const auto* pool = dynamic_cast<const CxlPool*>(node); pool && pool->controller()) {
      const Channel* controller = pool->controller();
      target_gbps = std::min(target_gbps, pool->controller_gbps(w));
      stages.push_back({pool->path() + " (controller throughput)", pool->controller_gbps(w),
                        [controller](Time span) { return controller->utilization(span); }});
    }
    memory_gbps += target_gbps;
  }
  std::vector<const Channel*> seen;
  double links_gbps = 0;
  for (size_t requester : requesters) {
    // Per link direction this requester's traffic crosses: its capacity in lines' worth of GB/s and
    // the share of the traffic it carries (a target's 1 / ways, split again over the links of a
    // port-interleaved device).
    std::vector<std::pair<const Channel*, std::pair<double, double>>> crossed;
    for (size_t t = 0; t < home.ways; ++t) {
      const size_t target = home.first_home + t;
      const Route& route = fabric.route(requester, *fabric.homes()[target].node);
      if (!route.reachable)
        report_error(msg::kUsage, std::string("--from ") + fabric.requesters()[requester]->basename() +
                                      ": another host, whose memory " + o.to +
                                      " does not lend it (platform.separate_hosts)");
      const Fabric::PortSet* ports = fabric.ports(requester, target);
      const std::vector<Route> one{route};
      const std::vector<Route>& routes = ports ? ports->routes : one;
      const double share = 1.0 / static_cast<double>(home.ways * routes.size());
      for (const Route& taken : routes)
        for (const Hop& h : taken.hops) {
          const double data = h.link->data_bytes(), request = h.link->request_bytes();
          const std::pair<const FabricNode*, double> directions[] = {{h.to, (1 - w) * data + w * request},
                                                                     {h.from, w * data + (1 - w) * request}};
          for (const auto& [sender, bytes_per_line] : directions) {
            const Channel& ch = h.link->channel_from(*sender);
            const auto at = std::find_if(crossed.begin(), crossed.end(), [&](const auto& c) { return c.first == &ch; });
            if (at != crossed.end()) at->second.second += share;
            else crossed.push_back({&ch, {ch.bandwidth().gb_per_s() * kLineBytes / bytes_per_line, share}});
            if (std::find(seen.begin(), seen.end(), &ch) != seen.end()) continue;
            seen.push_back(&ch);
            stages.push_back({h.link->path() + " (" + h.link->direction_name(*sender) + ")", ch.bandwidth().gb_per_s(),
                              [&ch](Time span) { return ch.utilization(span); }});
          }
        }
    }
    double narrowest = std::numeric_limits<double>::infinity();
    for (const auto& [ch, use] : crossed) narrowest = std::min(narrowest, use.first / use.second);
    links_gbps += narrowest;
  }
  BandwidthResult r;
  r.capacity_gbps = std::min(memory_gbps, links_gbps);
  r.requests = o.requests;

  std::vector<double> latencies;
  latencies.reserve(o.requests);
  Time first, last;
  run_probe(platform, [&](ProbeInitiator& probe) {
    std::mt19937_64 rng(o.seed);
    const uint64_t lines = home.size / kLineBytes;
    auto address = [&](uint64_t i) {
      uint64_t line = o.random ? rng() % lines : i % lines;
      return home.base + line * kLineBytes;
    };
    const Time start = Time::from_ns(1000);
    first = start;
    // Arrivals and slots go to the requesters in turn. Each requester's n-th access is a write when
    // its running count of writes, write_fraction x n rounded down, steps up (3:1 is read, read,
    // read, write, ...), so every requester sends the mix.
    auto requester = [&](uint64_t i) { return requesters[i % requesters.size()]; };
    std::vector<uint64_t> sent(fabric.requesters().size());
    auto op = [&](size_t who) {
      const auto writes = [&](uint64_t n) { return static_cast<uint64_t>(std::floor(o.write_fraction * n + 1e-9)); };
      const uint64_t n = sent[who]++;
      return writes(n + 1) > writes(n) ? MemOp::Write : MemOp::Read;
    };
    if (o.load) {
      // Open loop: Poisson arrivals at load x capacity.
      const double mean_gap_ps = kLineBytes / (*o.load * r.capacity_gbps) * 1e3;
      double t = static_cast<double>(start.ps());
      for (uint64_t i = 0; i < o.requests; ++i) {
        const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
        t += -std::log(u) * mean_gap_ps;
        const Time issue = Time::from_ps(static_cast<int64_t>(t));
        const size_t who = requester(i);
        const Time done = probe.send(who, op(who), address(i), issue, nullptr);
        latencies.push_back((done - issue).ns());
        last = std::max(last, done);
      }
      r.offered_gbps = *o.load * r.capacity_gbps;
    } else {
      // Closed loop: `outstanding` requests in flight, each slot reissuing when its access completes.
      // Each slot belongs to one requester: (time it is free, requester).
      using Slot = std::pair<int64_t, size_t>;
      std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> slots;
      for (unsigned k = 0; k < o.outstanding; ++k) slots.push({start.ps(), requester(k)});
      Time unloaded;
      for (uint64_t i = 0; i < o.requests; ++i) {
        const auto [free, who] = slots.top();
        slots.pop();
        const Time issue = Time::from_ps(free);
        const Time done = probe.send(who, op(who), address(i), issue, nullptr);
        if (i == 0) unloaded = done - issue;
        latencies.push_back((done - issue).ns());
        last = std::max(last, done);
        slots.push({done.ps(), who});
      }
      r.offered_gbps = gbps(uint64_t{o.outstanding} * kLineBytes, unloaded);
    }
    sc_core::wait((last + Time::from_ns(1000)).to_sc());
  });

  const Time span = last - first;
  r.achieved_gbps = gbps(o.requests * kLineBytes, span);
  double sum = 0;
  for (double l : latencies) sum += l;
  r.mean_latency_ns = latencies.empty() ? 0 : sum / static_cast<double>(latencies.size());
  // Percentiles by the nearest rank: the smallest latency at least a share q of the accesses reach.
  auto percentile = [&](double q) {
    const size_t k =
        std::min(latencies.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(latencies.size()))) - 1);
    std::nth_element(latencies.begin(), latencies.begin() + static_cast<std::ptrdiff_t>(k), latencies.end());
    return latencies[k];
  };
  if (!latencies.empty()) {
    r.p50_latency_ns = percentile(0.5);
    r.p99_latency_ns = percentile(0.99);
    r.p999_latency_ns = percentile(0.999);
  }
  for (const Stage& s : stages) {
    const double u = s.utilization(span);
    if (u > r.bottleneck_utilization) {
      r.bottleneck_utilization = u;
      r.bottleneck = s.name;
    }
  }
  return r;
}

}  // namespace starnuma
