#include "run/time_pace.hpp"

#include <cmath>
#include <map>

#include "coherence/coherence.hpp"
#include "common/diagnostics.hpp"
#include "fabric/fabric.hpp"
#include "fabric/link.hpp"
#include "socket/socket.hpp"

namespace starnuma {

namespace {
constexpr double kLineBytes = 64;
constexpr uint64_t kStretchFs = TimePace::kStretchNs * 1000000;

uint64_t cycle_fs_of(const Socket& s) { return static_cast<uint64_t>(s.core_list().front()->cycle_fs()); }
uint64_t line_fs_at(Bandwidth b) { return static_cast<uint64_t>(std::llround(kLineBytes / b.bytes_per_s() * 1e15)); }
}  // namespace

TimePace::TimePace(const Fabric& fabric, const std::vector<ThreadPlace>& threads, unsigned quantum_cycles,
                   const Coherence* coherence)
    : fabric_(fabric), quantum_cycles_(quantum_cycles), clock_fs_(threads.size(), 0), waited_fs_(threads.size(), 0) {
  if (threads.empty() || quantum_cycles == 0) report_internal("TimePace: no threads, or a quantum of 0 cycles");
  const auto& sockets = fabric.requesters();
  ranges_ = fabric.address_map().size();

  // The servers: each home's DRAM at its peak, then each link direction a line's data crosses.
  const auto& homes = fabric.homes();
  homes_ = homes.size();
  for (const Fabric::Home& h : homes) {
    const Ddr5Controller* dram = h.home->dram_controller();
    servers_.push_back({{}, dram ? line_fs_at(dram->peak_bandwidth()) : 0});
  }
  std::map<const Channel*, uint32_t> channels;
  // The link directions a line crosses from `to` back to socket s.
  const auto back_from = [&](size_t s, const FabricNode& to) {
    const Route& route = fabric.route(s, to);
    if (!route.reachable) return;
    for (const Hop& hop : route.hops) {
      const Channel* back = &hop.link->channel_from(*hop.to);
      auto [it, added] = channels.emplace(back, static_cast<uint32_t>(servers_.size()));
      if (added) servers_.push_back({{}, line_fs_at(hop.link->bandwidth())});
      path_servers_.push_back(it->second);
    }
  };
  for (size_t s = 0; s < sockets.size(); ++s)
    for (size_t h = 0; h < homes_; ++h) {
      path_first_.push_back(static_cast<uint32_t>(path_servers_.size()));
      path_servers_.push_back(static_cast<uint32_t>(h));
      back_from(s, *homes[h].node);
    }
  path_first_.push_back(static_cast<uint32_t>(path_servers_.size()));
  sockets_ = sockets.size();
  if (coherence) {
    for (size_t s = 0; s < sockets_; ++s)
      for (size_t o = 0; o < sockets_; ++o) {
        peer_first_.push_back(static_cast<uint32_t>(path_servers_.size()));
        if (o != s) back_from(s, fabric.requester_node(o));
      }
    peer_first_.push_back(static_cast<uint32_t>(path_servers_.size()));
    for (size_t r = 0; r < ranges_; ++r) {
      int socket = -1;
      for (size_t s = 0; s < sockets_; ++s)
        if (&fabric.requester_node(s) == fabric.address_map()[r].node) socket = static_cast<int>(s);
      range_socket_.push_back(socket);
    }
  }

  miss_fs_.assign(sockets.size() * ranges_, 0);
  for (size_t s = 0; s < sockets.size(); ++s) {
    const Socket& socket = *sockets[s];
    const uint64_t cycle_fs = cycle_fs_of(socket);
    const CoreConfig& core = socket.core_config();
    const uint64_t llc_fs = uint64_t{socket.llc_config().latency()} * cycle_fs;
    llc_fs_.push_back(llc_fs);
    const uint64_t lookups_fs = uint64_t{core.l1d.latency() + core.l2.latency()} * cycle_fs + llc_fs;
    for (size_t r = 0; r < ranges_; ++r)
      miss_fs_[s * ranges_ + r] = lookups_fs + static_cast<uint64_t>(fabric.unloaded_latency(s, r).ps()) * 1000;
    if (coherence)
      for (size_t r = 0; r < ranges_; ++r)
        for (size_t o = 0; o < sockets_; ++o) {
          const Time transfer = range_socket_[r] >= 0
                                    ? coherence->unloaded_bt_socket(s, static_cast<size_t>(range_socket_[r]), o)
                                    : coherence->unloaded_bt_pool(s, r, o);
          transfer_fs_.push_back(lookups_fs + static_cast<uint64_t>(transfer.ps()) * 1000);
        }
    const SocketTracking& tracking = socket.tracking();
    issue_fs_.push_back(uint64_t{tracking.issue_cycles()} * cycle_fs);
    modify_fs_.push_back(uint64_t{tracking.modify_cycles()} * cycle_fs);
    depth_.push_back(tracking.queue_depth());
  }
  for (size_t t = 0; t < threads.size(); ++t) {
    const Socket& socket = *sockets[threads[t].socket];
    const auto cycle_fs = static_cast<uint64_t>(threads[t].core->cycle_fs());
    cycle_fs_.push_back(cycle_fs);
    instruction_fs_.push_back(cycle_fs / socket.core_config().width);
    socket_.push_back(threads[t].socket);
    // Its socket's one tracker, or its own core's (tracking.trackers: per_core).
    const bool own = socket.tracking().tracker_per_core();
    if (own || t == 0 || threads[t].socket != threads[t - 1].socket) trackers_.emplace_back();
    tracker_.push_back(trackers_.size() - 1);
  }
  quantum_fs_ = uint64_t{quantum_cycles} * cycle_fs_[0];
  horizon_fs_ = quantum_fs_;
}

const Fabric::Range& TimePace::range_of(uint64_t address) const {
  const Fabric::Range* r = fabric_.home_of(address);
  if (!r) report_internal("TimePace: address " + std::to_string(address) + " outside the address map");
  return *r;
}

uint64_t TimePace::Stretches::book(uint64_t at, uint64_t length) {
  uint64_t s = at / kStretchFs;
  if (s < first_) s = first_;  // before what is kept: as early as that
  const uint64_t asked = s;
  for (;; ++s) {
    while (s >= first_ + kRing) used_[first_++ % kRing] = 0;  // a new stretch: forget the oldest
    if (used_[s % kRing] < kStretchFs) break;
  }
  const uint64_t wait = s > asked ? s * kStretchFs + used_[s % kRing] - std::min(at, s * kStretchFs) : 0;
  // Take the stretch's room, the rest from the stretches after it.
  for (uint64_t left = length; left > 0; ++s) {
    while (s >= first_ + kRing) used_[first_++ % kRing] = 0;
    uint64_t& used = used_[s % kRing];
    const uint64_t take = std::min(left, kStretchFs - std::min(used, kStretchFs));
    used += take;
    left -= take;
  }
  return wait;
}

uint64_t TimePace::queue(uint32_t first, uint32_t last, uint64_t at) {
  uint64_t wait = 0;
  for (uint32_t k = first; k < last; ++k) {
    Server& s = servers_[path_servers_[k]];
    if (s.line_fs) wait += s.busy.book(at + wait, s.line_fs);
  }
  return wait;
}

void TimePace::miss(size_t t, uint64_t line, unsigned line_shift, int supplier) {
  const uint64_t address = line << line_shift;
  const Fabric::Range& r = range_of(address);
  const size_t s = socket_[t], range = index_of(r);
  uint64_t latency_fs = 0, wait = 0;
  if (supplier >= 0 && !transfer_fs_.empty()) {
    const auto o = static_cast<size_t>(supplier);
    latency_fs = transfer_fs_[(s * ranges_ + range) * sockets_ + o];
    if (range_socket_[range] >= 0) {  // a socket's line: straight from its owner
      wait = queue(peer_first_[s * sockets_ + o], peer_first_[s * sockets_ + o + 1], clock_fs_[t]);
    } else {  // a device's: through the device, its memory not read
      uint64_t offset = 0;
      const size_t path = s * homes_ + fabric_.serving_home(r, address, offset);
      wait = queue(path_first_[path] + 1, path_first_[path + 1], clock_fs_[t]);
    }
  } else {
    uint64_t offset = 0;
    const size_t path = s * homes_ + fabric_.serving_home(r, address, offset);
    latency_fs = miss_fs_[s * ranges_ + range];
    wait = queue(path_first_[path], path_first_[path + 1], clock_fs_[t]);
  }
  waited_fs_[t] += wait;
  clock_fs_[t] += latency_fs + wait;
}

void TimePace::tracker_update(size_t t, uint64_t line, unsigned line_shift, bool hit, bool writes) {
  const size_t s = socket_[t];
  const uint64_t read_fs = hit ? llc_fs_[s] : miss_fs_[s * ranges_ + index_of(range_of(line << line_shift))];
  const uint64_t service = issue_fs_[s] + read_fs + modify_fs_[s] + (writes ? llc_fs_[s] : 0);
  // The flush waits in the queue; its core stalls only for what is beyond the queue's depth of
  // updates like this one.
  const uint64_t wait = trackers_[tracker_[t]].book(clock_fs_[t], service), held = uint64_t{depth_[s]} * service;
  if (wait > held) {
    waited_fs_[t] += wait - held;
    clock_fs_[t] += wait - held;
  }
}

double TimePace::cycles(size_t t) const {
  return static_cast<double>(clock_fs_[t]) / static_cast<double>(cycle_fs_[t]);
}

double TimePace::waiting_cycles(size_t t) const {
  return static_cast<double>(waited_fs_[t]) / static_cast<double>(cycle_fs_[t]);
}

}  // namespace starnuma
