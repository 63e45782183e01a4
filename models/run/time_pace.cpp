#include "run/time_pace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "coherence/coherence.hpp"
#include "common/diagnostics.hpp"
#include "common/geometry.hpp"
#include "fabric/fabric.hpp"
#include "fabric/link.hpp"
#include "socket/socket.hpp"

namespace starnuma {

namespace {
constexpr uint64_t kStretchFs = TimePace::kStretchNs * 1000000;

uint64_t cycle_fs_of(const Socket& s) { return static_cast<uint64_t>(s.core_list().front()->cycle_fs()); }
uint64_t fs_at(double bytes, Bandwidth b) {
  return static_cast<uint64_t>(std::llround(bytes / b.bytes_per_s() * 1e15));
}
uint64_t fs_of(Time t) { return static_cast<uint64_t>(t.ps()) * 1000; }
}  // namespace

TimePace::TimePace(const Fabric& fabric, const std::vector<ThreadPlace>& threads, unsigned quantum_cycles,
                   const Coherence* coherence)
    : fabric_(fabric),
      coherent_(coherence != nullptr),
      quantum_cycles_(quantum_cycles),
      clock_fs_(threads.size(), 0),
      waited_fs_(threads.size(), 0) {
  if (threads.empty() || quantum_cycles == 0) report_internal("TimePace: no threads, or a quantum of 0 cycles");
  const auto& sockets = fabric.requesters();
  sockets_ = sockets.size();
  ranges_ = fabric.address_map().size();

  // The servers: each home's DRAM at its peak, then each link direction a message crosses.
  const auto& homes = fabric.homes();
  homes_ = homes.size();
  for (const Fabric::Home& h : homes) {
    const Ddr5Controller* dram = h.home->dram_controller();
    servers_.push_back({{}, 0, dram ? fs_at(kLineBytes, dram->peak_bandwidth()) : 0});
    server_names_.push_back(h.node->path() + ": dram");
    int socket = -1;
    for (size_t s = 0; s < sockets_; ++s)
      if (&fabric.requester_node(s) == h.node) socket = static_cast<int>(s);
    home_socket_.push_back(socket);
  }
  std::map<const Channel*, uint32_t> channels;
  // The link directions of socket a's route to `to`, towards it (`forward`) or back from it.
  const auto path = [&](size_t a, const FabricNode& to, bool forward) {
    Path p{static_cast<uint32_t>(path_servers_.size()), 0};
    const Route& route = fabric.route(a, to);
    if (route.reachable)
      for (const Hop& hop : route.hops) {
        const Channel* c = &hop.link->channel_from(forward ? *hop.from : *hop.to);
        auto [it, added] = channels.emplace(c, static_cast<uint32_t>(servers_.size()));
        if (added) {
          servers_.push_back({{},
                              fs_at(hop.link->request_bytes(), hop.link->bandwidth()),
                              fs_at(hop.link->data_bytes(), hop.link->bandwidth())});
          server_names_.push_back(hop.link->path() + ": " + hop.link->direction_name(forward ? *hop.from : *hop.to));
        }
        path_servers_.push_back(it->second);
      }
    p.last = static_cast<uint32_t>(path_servers_.size());
    return p;
  };
  for (size_t s = 0; s < sockets_; ++s)
    for (size_t h = 0; h < homes_; ++h) {
      to_home_.push_back(path(s, *homes[h].node, true));
      const int hs = home_socket_[h];
      from_home_.push_back(hs >= 0 ? path(static_cast<size_t>(hs), fabric.requester_node(s), true)
                                   : path(s, *homes[h].node, false));
    }
  for (size_t a = 0; a < sockets_; ++a)
    for (size_t b = 0; b < sockets_; ++b) peer_.push_back(a == b ? Path{} : path(a, fabric.requester_node(b), true));

  miss_fs_.assign(sockets_ * ranges_, 0);
  for (size_t s = 0; s < sockets_; ++s) {
    const Socket& socket = *sockets[s];
    const uint64_t cycle_fs = cycle_fs_of(socket);
    const CoreConfig& core = socket.core_config();
    const uint64_t llc_fs = uint64_t{socket.llc_config().latency()} * cycle_fs;
    llc_fs_.push_back(llc_fs);
    const uint64_t lookups_fs = uint64_t{core.l1d.latency() + core.l2.latency()} * cycle_fs + llc_fs;
    lookups_fs_.push_back(lookups_fs);
    for (size_t r = 0; r < ranges_; ++r) miss_fs_[s * ranges_ + r] = lookups_fs + fs_of(fabric.unloaded_latency(s, r));
    if (coherence) {
      for (size_t r = 0; r < ranges_; ++r) {
        const int hs = home_socket_[fabric.address_map()[r].first_home];
        for (size_t o = 0; o < sockets_; ++o)
          transfer_fs_.push_back(lookups_fs + fs_of(hs >= 0
                                                        ? coherence->unloaded_bt_socket(s, static_cast<size_t>(hs), o)
                                                        : coherence->unloaded_bt_pool(s, r, o)));
      }
      // A store's acks: the protocol's figure is the same constant for every sharer plus each
      // sharer's way, so the latest of the single sharers' figures is the set's.
      for (size_t h = 0; h < homes_; ++h) {
        grant_fs_.push_back(lookups_fs + fs_of(coherence->unloaded_grant(s, h)));
        for (size_t x = 0; x < sockets_; ++x)
          ack_fs_.push_back(lookups_fs + fs_of(coherence->unloaded_acks(s, h, uint64_t{1} << x)));
      }
    }
    const SocketTracking& tracking = socket.tracking();
    issue_fs_.push_back(uint64_t{tracking.issue_cycles()} * cycle_fs);
    modify_fs_.push_back(uint64_t{tracking.modify_cycles()} * cycle_fs);
    depth_.push_back(tracking.queue_depth());
  }
  if (coherence)
    for (size_t h = 0; h < homes_; ++h)
      for (size_t x = 0; x < sockets_; ++x)
        back_fs_.push_back(fs_of(coherence->unloaded_back_invalidation(h, uint64_t{1} << x)));
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

uint64_t TimePace::latest(const std::vector<uint64_t>& table, size_t first, uint64_t sockets) {
  uint64_t last = 0;
  for (uint64_t left = sockets; left != 0; left &= left - 1)
    last = std::max(last, table[first + static_cast<size_t>(__builtin_ctzll(left))]);
  return last;
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

uint64_t TimePace::send(Path path, bool data, uint64_t at) {
  uint64_t wait = 0;
  for (uint32_t k = path.first; k < path.last; ++k) {
    Server& s = servers_[path_servers_[k]];
    if (const uint64_t length = data ? s.data_fs : s.request_fs) wait += s.take(at + wait, length);
  }
  return wait;
}

// A snoop from home h to each of `sockets` and its answer back: to the requester s (an
// invalidation's ack, from a socket's home: Coherence::invalidate) or to the home (the pool's acks,
// and a directory's victim's back-invalidation, with the line from a modified owner). The
// transaction waits for the slowest.
uint64_t TimePace::snoops(size_t h, uint64_t sockets, int s, bool data, uint64_t at) {
  uint64_t slowest = 0;
  for (uint64_t left = sockets; left != 0; left &= left - 1) {
    const auto x = static_cast<size_t>(__builtin_ctzll(left));
    const uint64_t snoop = send(from_home(h, x), false, at);
    const Path back = s >= 0 ? peer(x, static_cast<size_t>(s)) : to_home(x, h);
    slowest = std::max(slowest, snoop + send(back, data, at + snoop));
  }
  return slowest;
}

// The requester's victim leaving, posted (Coherence::evict: PutM with the line, PutE without, and
// the home's Put-Ack): it loads the links and the home's DRAM, and holds no one.
void TimePace::put(size_t s, uint64_t line, unsigned line_shift, bool dirty, uint64_t at) {
  const uint64_t address = line << line_shift;
  const size_t h = home_of(range_of(address), address);
  const uint64_t arrived = at + send(to_home(s, h), dirty, at);
  if (dirty) dram(h, arrived);
  send(from_home(h, s), false, arrived);
}

void TimePace::access(size_t t, uint64_t line, unsigned line_shift, bool store, const FunctionalLlcs::Outcome& out) {
  const uint64_t address = line << line_shift;
  const Fabric::Range& r = range_of(address);
  const size_t s = socket_[t], range = index_of(r), h = home_of(r, address);
  const bool socket_home = home_socket_[h] >= 0;
  const uint64_t at = clock_fs_[t];
  uint64_t latency_fs = 0;
  // The request to the home, and what its directory does before the answer.
  uint64_t wait = send(to_home(s, h), false, at);
  if (out.back_invalidated && coherent_) {
    const uint64_t back = snoops(h, out.back_invalidated, -1, out.back_dirty, at + wait);
    if (out.back_dirty) dram(h, at + wait + back);
    wait += back;
    latency_fs += latest(back_fs_, h * sockets_, out.back_invalidated);
  }
  const uint64_t acks = snoops(h, out.invalidated, socket_home ? static_cast<int>(s) : -1, false, at + wait);
  uint64_t answer = 0;  // the data's or grant's way back
  if (out.upgrade && coherent_) {
    latency_fs += grant_fs_[s * homes_ + h];
    answer = send(from_home(h, s), false, at + wait);
  } else if (out.supplier >= 0 && coherent_) {
    const auto o = static_cast<size_t>(out.supplier);
    latency_fs += transfer_fs_[(s * ranges_ + range) * sockets_ + o];
    const uint64_t snooped = send(from_home(h, o), false, at + wait);
    if (socket_home) {  // the owner sends the line to the requester; a load's owner tells the home
      answer = snooped + send(peer(o, s), true, at + wait + snooped);
      if (!store) {
        const uint64_t told = at + wait + snooped + send(to_home(o, h), out.supplier_dirty, at + wait + snooped);
        if (out.supplier_dirty) dram(h, told);
      }
    } else {  // through the device, which writes a load's modified line to its memory
      const uint64_t in = snooped + send(to_home(o, h), true, at + wait + snooped);
      if (out.supplier_dirty && !store) dram(h, at + wait + in);
      answer = in + send(from_home(h, s), true, at + wait + in);
    }
  } else {
    latency_fs += miss_fs_[s * ranges_ + range];
    answer = dram(h, at + wait);
    answer += send(from_home(h, s), true, at + wait + answer);
  }
  if (out.invalidated && coherent_)  // the answer no sooner than the acks
    latency_fs = std::max(latency_fs, latest(ack_fs_, (s * homes_ + h) * sockets_, out.invalidated));
  wait += std::max(answer, acks);
  if (out.put) put(s, out.put_line, line_shift, out.put == FunctionalLlcs::kPutM, at);
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

std::vector<TimePace::Busy> TimePace::busiest(double least) const {
  const uint64_t span = *std::max_element(clock_fs_.begin(), clock_fs_.end());
  std::vector<Busy> busy;
  if (span == 0) return busy;
  for (size_t k = 0; k < servers_.size(); ++k) {
    const Server& s = servers_[k];
    const double utilization = static_cast<double>(s.booked_fs) / static_cast<double>(span);
    if (s.messages == 0 || utilization < least) continue;
    busy.push_back({server_names_[k], utilization,
                    static_cast<double>(s.waited_fs) / static_cast<double>(s.messages) / 1e6, s.messages});
  }
  std::sort(busy.begin(), busy.end(), [](const Busy& a, const Busy& b) { return a.utilization > b.utilization; });
  return busy;
}

}  // namespace starnuma
