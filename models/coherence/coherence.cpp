#include "coherence/coherence.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "fabric/fabric_node.hpp"

namespace starnuma {

using namespace literals;

namespace {

uint64_t bit(size_t s) { return uint64_t{1} << s; }

Time half_of(Time t) { return Time::from_ps(t.ps() / 2); }

}  // namespace

const char* mesi_name(MesiState s) {
  static const char* const names[] = {"I", "S", "E", "M"};
  return names[static_cast<size_t>(s)];
}

const char* coh_request_name(CohRequest r) {
  static const char* const names[] = {"gets", "getm", "upgrade", "putm", "pute"};
  return names[static_cast<size_t>(r)];
}

// The requester, the block and its home and directory entry, and when the home looked it up.
struct Coherence::Txn {
  size_t r;
  uint64_t block;
  Home& h;
  DirEntry& e;
};

// Lookup latencies: the paper accounts 80 ns beyond link time for a block transfer (413 = 333 +
// 80, 280 = 200 + 80); we split it as the requester's on-die round trip (uncore_latency, 40), the
// home's directory lookup (20) and the owner's snoop (20), for both paths.
Coherence::Coherence(sc_core::sc_module_name name, const ScopeContext& ctx, Fabric* fabric)
    : Component(name, ctx),
      fabric_(fabric),
      socket_lookup_(*this, "socket_directory_latency", 20_ns, "Directory lookup at a socket's home agent",
                     latency_range()),
      pool_lookup_(*this, "pool_directory_latency", 20_ns,
                   "Directory lookup in the pool device, after its internal crossing (internal_latency)",
                   latency_range()),
      snoop_(*this, "snoop_latency", 20_ns,
             "At an owner or sharer: from its fabric port to the LLC and back (forward, invalidation)",
             latency_range()),
      pool_entries_(*this, "pool_directory_entries", 1u << 24,
                    "Entries of the pool's directory (one per cached pool block; 16 Mi covers 16 x 56 MB of LLC)",
                    between(1u, 1u << 30)),
      pool_ways_(*this, "pool_directory_ways", 16, "Associativity of the pool's directory (LRU)", between(1u, 64u)),
      pool_rate_(*this, "pool_directory_rate", "transactions/us",
                 "Pool directory transactions per microsecond, over the span they arrived in",
                 [this](sc_core::sc_time) { return per_pool_us(pool_transactions_.value()); }),
      pool_action_rate_(*this, "pool_coherence_action_rate", "transactions/us",
                        "Pool coherence actions per microsecond, over the span pool transactions arrived in",
                        [this](sc_core::sc_time) { return per_pool_us(pool_actions_.value()); }) {
  for (const char* home : {"socket_home_", "pool_home_"})
    for (size_t k = 0; k < kCohRequests; ++k) {
      const std::string req = coh_request_name(static_cast<CohRequest>(k));
      requests_.push_back(
          std::make_unique<Counter>(*this, home + req, "requests", std::string(home) + " requests of type " + req));
    }
  if (!fabric_) return;
  if (enabled_ && fabric_->requesters().size() > 64)  // off, it tracks nothing
    error(nullptr, "enabled",
          "coherence tracks at most 64 sockets (a 64-bit sharer vector); this platform has " +
              std::to_string(fabric_->requesters().size()),
          msg::kTopology);
  states_.resize(fabric_->requesters().size());
  versions_.resize(states_.size());
  listeners_.resize(states_.size(), nullptr);
  // A home per memory: each device of an interleave set keeps the directory of its own lines.
  for (const Fabric::Home& home : fabric_->homes()) {
    Home h{home.node, -1, Time(), pool_lookup_.get(), new_directory(home), home.range};
    if (home.node->is_requester()) {
      h.socket = static_cast<int>(fabric_->requester_index(*home.node));
      h.lookup = socket_lookup_.get();
    } else {
      h.transit = home.node->internal_latency();
    }
    homes_.push_back(std::move(h));
  }
}

std::unique_ptr<Directory> Coherence::new_directory(const Fabric::Home& home) const {
  if (home.node->is_requester()) return std::make_unique<Directory>(0, 0);
  return std::make_unique<Directory>(pool_entries_.get(), pool_ways_.get());
}

bool Coherence::warm_entry(size_t home, uint64_t block, int owner, uint64_t sharers) {
  Directory::Victim victim;
  DirEntry& e = homes_.at(home).directory->obtain(block, victim);
  e.owner = static_cast<int8_t>(owner);
  e.sharers = sharers;
  return !victim.evicted;
}

bool Coherence::warm_copy(size_t s, uint64_t block, MesiState c) {
  const DirEntry* e = home_of(block * kLineBytes, block).directory->peek(block);
  return e && (c == MesiState::S ? (e->sharers & bit(s)) != 0 && e->owner < 0 : e->owner == static_cast<int>(s));
}

double Coherence::per_pool_us(uint64_t n) const {
  const double span_us = (pool_last_ - pool_first_).ns() / 1e3;
  return span_us > 0 ? static_cast<double>(n) / span_us : 0.0;
}

Coherence::Home& Coherence::home_of(uint64_t address, uint64_t& block) {
  const Fabric::Range* range = fabric_->home_of(address);
  if (!range) report_internal("address " + hex(address) + " is outside the physical address map");
  block = address / kLineBytes;
  uint64_t offset;
  return homes_[fabric_->serving_home(*range, address, offset)];
}

void Coherence::prefetch(size_t s, uint64_t address) const {
  const uint64_t block = address / kLineBytes;
  if (!listeners_[s]) states_[s].prefetch(block);  // caches attached: they prefetch their own
  uint64_t offset;
  if (const Fabric::Range* range = fabric_->home_of(address))
    homes_[fabric_->serving_home(*range, address, offset)].directory->prefetch(block);
}

void Coherence::prefetch_drops(uint64_t sockets, uint64_t block) const {
  if (fault_ == CohFault::KeepStaleCopies) return;
  for (uint64_t left = sockets; left != 0; left &= left - 1) {
    const size_t s = static_cast<size_t>(__builtin_ctzll(left));
    if (listeners_[s]) listeners_[s]->prefetch(block);
    else states_[s].prefetch(block);
  }
  for (uint64_t left = sockets; left != 0; left &= left - 1) {
    const size_t s = static_cast<size_t>(__builtin_ctzll(left));
    if (listeners_[s]) listeners_[s]->prefetch_behind(block);
  }
}

MesiState Coherence::state(size_t s, uint64_t address) const { return held(s, address / kLineBytes); }

bool Coherence::held_elsewhere(size_t s, uint64_t address) const {
  const Fabric::Range* range = fabric_->home_of(address);
  if (!range) return false;
  uint64_t offset;
  const DirEntry* e = homes_[fabric_->serving_home(*range, address, offset)].directory->peek(address / kLineBytes);
  return e && (e->holders() & ~bit(s)) != 0;
}

// --- messages ---

Time Coherence::peer(size_t a, size_t b, Time t, CohMessage kind, PathTrace* trace) {
  return a == b ? t : fabric_->send(a, fabric_->requester_node(b), true, t, kind, trace);
}

Time Coherence::to_home(size_t s, const Home& h, uint64_t block, Time t, CohMessage kind, PathTrace* trace) {
  if (h.socket >= 0) return peer(s, static_cast<size_t>(h.socket), t, kind, trace);
  const Time at = fabric_->send_home(s, index_of(h), block * kLineBytes, true, t, kind, trace);
  if (trace && h.transit.ps()) trace->add(h.node->path(), "internal crossing", h.transit);
  return at + h.transit;
}

Time Coherence::from_home(const Home& h, size_t s, uint64_t block, Time t, CohMessage kind, PathTrace* trace) {
  if (h.socket >= 0) return peer(static_cast<size_t>(h.socket), s, t, kind, trace);
  if (trace && h.transit.ps()) trace->add(h.node->path(), "internal crossing", h.transit);
  return fabric_->send_home(s, index_of(h), block * kLineBytes, false, t + h.transit, kind, trace);
}

Time Coherence::one_way(size_t a, size_t b) const {
  return a == b ? Time() : fabric_->route(a, fabric_->requester_node(b)).latency;
}

Time Coherence::one_way_home(size_t s, const Home& h) const {
  if (h.socket >= 0) return one_way(s, static_cast<size_t>(h.socket));
  return fabric_->route(s, *h.node).latency + h.transit;
}

Time Coherence::unloaded_bt_socket(size_t r, size_t h, size_t o) const {
  return fabric_->requester_node(r).uncore_latency() + one_way(r, h) + socket_lookup_.get() + one_way(h, o) +
         snoop_.get() + one_way(o, r);
}

Time Coherence::unloaded_bt_pool(size_t r, size_t range, size_t o) const {
  const Home& h = homes_.at(fabric_->address_map().at(range).first_home);
  return fabric_->requester_node(r).uncore_latency() + one_way_home(r, h) * 2 + pool_lookup_.get() +
         one_way_home(o, h) * 2 + snoop_.get();
}

Time Coherence::unloaded_acks(size_t r, size_t home, uint64_t sharers) const {
  const Home& h = homes_.at(home);
  Time last;  // from the lookup to the last ack's arrival
  for (uint64_t left = sharers; left != 0; left &= left - 1) {
    const auto x = static_cast<size_t>(__builtin_ctzll(left));
    last = std::max(last, h.socket >= 0 ? one_way(static_cast<size_t>(h.socket), x) + snoop_.get() + one_way(x, r)
                                        : one_way_home(x, h) * 2 + snoop_.get());
  }
  if (h.socket < 0) last = last + one_way_home(r, h);  // the device answers once the acks are in
  return fabric_->requester_node(r).uncore_latency() + one_way_home(r, h) + h.lookup + last;
}

Time Coherence::unloaded_grant(size_t r, size_t home) const {
  const Home& h = homes_.at(home);
  return fabric_->requester_node(r).uncore_latency() + one_way_home(r, h) * 2 + h.lookup;
}

Time Coherence::unloaded_back_invalidation(size_t home, uint64_t holders) const {
  const Home& h = homes_.at(home);
  Time last;
  for (uint64_t left = holders; left != 0; left &= left - 1)
    last = std::max(last, one_way_home(static_cast<size_t>(__builtin_ctzll(left)), h) * 2 + snoop_.get());
  return last;
}

Time Coherence::unloaded_transfer(size_t r, const Result& res) const {
  const size_t o = static_cast<size_t>(res.owner);
  if (res.path == CohPath::BtSocket)
    return unloaded_bt_socket(r, static_cast<size_t>(homes_.at(fabric_->address_map().at(res.range).first_home).socket),
                              o);
  if (res.path == CohPath::BtPool) return unloaded_bt_pool(r, res.range, o);
  report_internal("unloaded_transfer of a request that was not a block transfer");
}

// --- memory at the home (a pool's serve() includes its internal crossing both ways) ---

uint64_t Coherence::device_offset(const Home& h, uint64_t block) const {
  uint64_t offset;
  fabric_->serving_home(fabric_->address_map()[h.range], block * kLineBytes, offset);
  return offset;
}

Time Coherence::read_memory(Home& h, uint64_t block, Time t) {
  return h.node->memory_home()->serve(t - h.transit, MemOp::Read, device_offset(h, block), nullptr) - h.transit;
}

void Coherence::keep_state(size_t s, uint64_t block, MesiState c) { states_[s][block] = c; }

uint64_t Coherence::checked_version(size_t s, uint64_t block) const {
  const uint64_t* v = versions_[s].find(block);
  return v ? *v : 0;
}

void Coherence::record_version(size_t s, uint64_t block, uint64_t v) { versions_[s][block] = v; }

void Coherence::forget_kept(size_t s, uint64_t block) {
  if (!listeners_[s]) states_[s].erase(block);
  if (check_) versions_[s].erase(block);
}

uint64_t Coherence::memory_version(uint64_t block) const {
  const auto it = memory_version_.find(block);
  return it == memory_version_.end() ? 0 : it->second;
}

void Coherence::write_memory(Home& h, uint64_t block, uint64_t version, Time t) {
  if (check_) memory_version_[block] = version;
  h.node->memory_home()->serve(t - h.transit, MemOp::Write, device_offset(h, block), nullptr);
}

// --- transactions ---

Time Coherence::invalidate(Txn& x, uint64_t sharers, Time t) {
  Time last = t;
  unsigned sent = 0;
  bool skipped = false;
  for (size_t s = 0; s < listeners_.size(); ++s) {
    if (!(sharers & bit(s))) continue;
    if (fault_ == CohFault::SkipOneInvalidation && !skipped) {
      skipped = true;  // the bug under test: the directory forgets this sharer, its copy stays
      continue;
    }
    ++sent;
    const Time at = from_home(x.h, s, x.block, t, CohMessage::Snoop) + snoop_.get();
    drop(s, x.block);  // a sharer that already left silently acknowledges all the same
    // Acks go to the requester from a socket home, to the device from the pool (BIRsp style).
    const Time ack =
        x.h.socket >= 0 ? peer(s, x.r, at, CohMessage::Ack) : to_home(s, x.h, x.block, at, CohMessage::Ack);
    last = std::max(last, ack);
  }
  invalidations_ += sent;
  invalidations_per_write_.sample(sent);
  return last;
}

Time Coherence::back_invalidate(Home& h, const Directory::Victim& v, Time t) {
  ++back_invalidations_;
  if (waves_) waves_->set(back_invalidated_, t.ps(), static_cast<int64_t>(back_invalidations_.value()));
  Time last = t;
  const uint64_t holders = v.entry.holders();
  prefetch_drops(holders, v.block);
  for (size_t s = 0; s < listeners_.size(); ++s) {
    if (!(holders & bit(s))) continue;
    ++bisnp_;
    const Time at = from_home(h, s, v.block, t, CohMessage::Snoop) + snoop_.get();
    const bool dirty = held(s, v.block) == MesiState::M;
    const uint64_t version = version_of(s, v.block);
    const Time rsp = to_home(s, h, v.block, at, dirty ? CohMessage::Writeback : CohMessage::Ack);  // BIRsp
    if (dirty) write_memory(h, v.block, version, rsp);
    drop(s, v.block);
    last = std::max(last, rsp);
  }
  bi_latency_.sample((last - t).ns());
  return last;
}

void Coherence::attach_waves(Waves& waves) {
  if (!enabled_) return;
  const char* names[] = {"in_flight_memory", "in_flight_bt_socket", "in_flight_bt_pool", "in_flight_upgrade"};
  bool any = false;
  for (size_t k = 0; k < in_flight_.size(); ++k) {
    in_flight_[k] = waves.level(path(), names[k], 16);
    any = any || in_flight_[k] != Waves::kOff;
  }
  const bool pool = std::any_of(homes_.begin(), homes_.end(), [](const Home& h) { return h.socket < 0; });
  if (pool) {
    pool_entries_signal_ = waves.value(path(), "pool_directory_entries", 32);
    back_invalidated_ = waves.value(path(), "back_invalidations", 32);
    any = any || pool_entries_signal_ != Waves::kOff || back_invalidated_ != Waves::kOff;
  }
  if (any) waves_ = &waves;
}

void Coherence::record_waves(CohPath path, const Home& h, Time issue, Time at_home, Time done) {
  const size_t k = path == CohPath::BtSocket ? 1 : path == CohPath::BtPool ? 2 : path == CohPath::Upgrade ? 3 : 0;
  waves_->add(in_flight_[k], issue.ps(), 1);
  waves_->add(in_flight_[k], done.ps(), -1);
  if (h.socket < 0)
    waves_->set(pool_entries_signal_, at_home.ps(), static_cast<int64_t>(h.directory->entries_in_use()));
}

Coherence::Result Coherence::load(size_t s, uint64_t address, Time issue, PathTrace* trace) {
  return request(s, address, false, held(s, address / kLineBytes), issue, trace);
}
Coherence::Result Coherence::store(size_t s, uint64_t address, Time issue, PathTrace* trace) {
  return request(s, address, true, held(s, address / kLineBytes), issue, trace);
}

namespace {

// A transaction's critical path as it is computed: a waiting step from where the last one ended,
// or the hops of a message sent from there (the fabric adds those). Untraced, a step is one test:
// the tracing is out of line, so the request stays small in the host's instruction cache.
struct Chain {
  PathTrace* trace;
  Time at;
  [[gnu::always_inline]] void wait(const std::string& where, const char* what, Time until) {
    if (trace) [[unlikely]]
      traced_wait(where, what, until);
  }
  [[gnu::cold, gnu::noinline]] void traced_wait(const std::string& where, const char* what, Time until) {
    if (until > at) trace->add(where, what, until - at);
    at = std::max(at, until);
  }
  PathTrace* send() const { return trace; }  // the message leaves at `at`
  void arrived(Time t) { at = t; }
};

}  // namespace

Coherence::Result Coherence::request(size_t r, uint64_t address, bool write, MesiState mine, Time issue,
                                     PathTrace* trace) {
  uint64_t block;
  Home& h = home_of(address, block);
  const size_t range = h.range;
  if (check_ && mine != held(r, block)) report_internal("a request names a state its socket's copy is not in");
  if (!write && mine != MesiState::I) {
    if (check_) checker_.load(block, r, version_of(r, block));
    return {issue, CohPath::Hit, range, -1, mine};
  }
  if (write && (mine == MesiState::M || mine == MesiState::E)) {
    set_held(r, block, MesiState::M);  // E -> M silently: the directory already names this socket owner
    set_version(r, block, next_version(block));
    return {issue, CohPath::Hit, range, -1, MesiState::M};
  }
  const CohRequest type = !write ? CohRequest::GetS : mine == MesiState::S ? CohRequest::Upgrade : CohRequest::GetM;
  ++started_;
  ++*requests_[(h.socket < 0 ? kCohRequests : 0) + static_cast<size_t>(type)];
  const Time half = half_of(fabric_->requester_node(r).uncore_latency());

  const std::string& requester = fabric_->requester_node(r).path();
  const std::string& home = h.node->path();
  Chain chain{trace, issue};
  chain.wait(requester, "on die, out", issue + half);
  Directory::Victim victim;
  DirEntry& e = h.directory->obtain(block, victim);
  if (write) prefetch_drops(e.holders() & ~bit(r), block);
  const size_t memory = static_cast<size_t>(&h - homes_.data());
  const Time sent = fabric_->qos_hold(r, memory, issue + half);
  if (sent > issue + half) chain.wait(requester, "held by the host's QoS throttle", sent);
  const Time arrival = to_home(r, h, block, sent, CohMessage::Request, chain.send());
  chain.arrived(arrival);
  const Time at_home = e.start_at(arrival);
  chain.wait(home, "directory entry busy", at_home);
  if (h.socket < 0) {
    if (pool_transactions_.value() == 0) pool_first_ = at_home;
    pool_last_ = std::max(pool_last_, at_home);
    ++pool_transactions_;
  }
  Time t = at_home + h.lookup;
  chain.wait(home, "directory lookup", t);
  if (victim.evicted) t = back_invalidate(h, victim, t);
  chain.wait(home, "back-invalidation", t);
  Txn x{r, block, h, e};
  const uint64_t invalidated_before = invalidations_.value();
  const Time acks = write ? invalidate(x, e.sharers & ~bit(r), t) : t;
  const bool acted = victim.evicted || invalidations_.value() != invalidated_before;

  Result res{Time(), CohPath::Memory, range};
  Time at_r;  // the data or grant reaches R's port
  const int owner = e.owner;
  if (owner >= 0 && static_cast<size_t>(owner) != r) {
    const size_t o = static_cast<size_t>(owner);
    const bool dirty = held(o, block) == MesiState::M;
    const uint64_t version = version_of(o, block);
    res.owner = owner;
    const std::string& owner_path = fabric_->requester_node(o).path();
    const Time forwarded = from_home(h, o, block, t, CohMessage::Snoop, chain.send());
    chain.arrived(forwarded);
    const Time at_o = forwarded + snoop_.get();
    chain.wait(owner_path, "snoop", at_o);
    if (h.socket >= 0) {
      res.path = CohPath::BtSocket;
      at_r = peer(o, r, at_o, CohMessage::ForwardedData, chain.send());
      chain.arrived(at_r);
      // On a GetS the owner also tells the home, with the data if dirty (memory is updated).
      const Time told = write ? at_o : to_home(o, h, block, at_o, dirty ? CohMessage::Writeback : CohMessage::Ack);
      if (!write && dirty) write_memory(h, block, version, told);
      e.hold(at_home, told);
    } else {
      res.path = CohPath::BtPool;
      const Time at_h = to_home(o, h, block, at_o, CohMessage::ForwardedData, chain.send());
      chain.arrived(at_h);
      if (!write && dirty) write_memory(h, block, version, at_h);
      chain.wait(home, "invalidation acks", std::max(at_h, acks));
      at_r = from_home(h, r, block, std::max(at_h, acks), CohMessage::ForwardedData, chain.send());
      chain.arrived(at_r);
      e.hold(at_home, at_h);
    }
    if (write) {
      drop(o, block);
    } else {
      set_held(o, block, MesiState::S);
      e.sharers |= bit(o);
    }
    e.owner = -1;
    set_version(r, block, version);
  } else if (type == CohRequest::Upgrade) {
    res.path = CohPath::Upgrade;
    chain.wait(home, "invalidation acks", h.socket >= 0 ? t : std::max(t, acks));
    at_r = from_home(h, r, block, h.socket >= 0 ? t : std::max(t, acks), CohMessage::Ack, chain.send());
    chain.arrived(at_r);
    e.hold(at_home, t);
  } else {
    // The DRAM read starts with the directory lookup; a block with no owner is answered from it.
    const Time ready = std::max(t, read_memory(h, block, at_home));
    fabric_->qos_observe(r, memory);
    chain.wait(home, "memory read (beyond the lookup it overlaps)", ready);
    chain.wait(home, "invalidation acks", h.socket >= 0 ? ready : std::max(ready, acks));
    at_r = from_home(h, r, block, h.socket >= 0 ? ready : std::max(ready, acks), CohMessage::MemoryData, chain.send());
    chain.arrived(at_r);
    e.hold(at_home, ready);
    if (check_) set_version(r, block, memory_version(block));
  }
  const Time done = std::max(at_r, acks) + (fabric_->requester_node(r).uncore_latency() - half);
  chain.wait(requester, "invalidation acks", std::max(at_r, acks));
  chain.wait(requester, "on die, back", done);
  res.done = done;
  if (waves_) [[unlikely]]
    record_waves(res.path, h, issue, at_home, done);
  if (res.path == CohPath::BtSocket) {
    ++bt_socket_;
    bt_socket_latency_.sample((done - issue).ns());
  } else if (res.path == CohPath::BtPool) {
    ++bt_pool_;
    bt_pool_latency_.sample((done - issue).ns());
  }
  if (h.socket < 0 && (acted || res.path == CohPath::BtPool)) ++pool_actions_;

  if (write) {
    e.owner = static_cast<int8_t>(r);
    e.sharers = 0;
    res.granted = MesiState::M;
    set_version(r, block, next_version(block));
  } else if (e.sharers == 0) {
    e.owner = static_cast<int8_t>(r);
    res.granted = MesiState::E;
  } else {
    e.sharers |= bit(r);
    res.granted = MesiState::S;
  }
  set_held(r, block, res.granted);  // attached caches not holding it yet fill it with res.granted
  if (check_) {
    if (!write) checker_.load(block, r, version_of(r, block));
    check(block, h);
  }
  ++completed_;
  return res;
}

bool Coherence::evict(size_t s, uint64_t address, Time issue) { return evict(s, address, state(s, address), issue); }

bool Coherence::evict(size_t s, uint64_t address, MesiState c, Time issue) {
  uint64_t block;
  Home& h = home_of(address, block);
  const uint64_t version = version_of(s, block);
  forget(s, block);
  if (c != MesiState::M && c != MesiState::E) return false;  // S leaves silently
  const bool dirty = c == MesiState::M;
  ++started_;
  ++*requests_[(h.socket < 0 ? kCohRequests : 0) + static_cast<size_t>(dirty ? CohRequest::PutM : CohRequest::PutE)];
  const Time half = half_of(fabric_->requester_node(s).uncore_latency());
  DirEntry* e = h.directory->find(block);
  if (!e || e->owner != static_cast<int>(s))
    report_internal("a socket evicts a block its home does not list it owning");
  const size_t memory = static_cast<size_t>(&h - homes_.data());
  // PutM carries the line; PutE is a request without data. Posted: no QoS hold.
  const Time at_home =
      e->start_at(to_home(s, h, block, issue + half, dirty ? CohMessage::Writeback : CohMessage::Request));
  if (h.socket < 0) {
    pool_last_ = std::max(pool_last_, at_home);
    ++pool_transactions_;
  }
  const Time t = at_home + h.lookup;
  if (dirty) {
    write_memory(h, block, version, t);
    fabric_->qos_observe(s, memory);
  }
  e->owner = -1;
  e->hold(at_home, t);
  if (e->empty()) h.directory->release(block);
  from_home(h, s, block, t, CohMessage::Ack);  // the Put-Ack loads the links; the socket does not wait for it
  if (check_) check(block, h);
  ++completed_;
  return dirty;
}

void Coherence::check(uint64_t block, const Home& h) {
  const DirEntry* e = h.directory->peek(block);
  unsigned exclusive = 0, shared = 0;
  bool covered = true;
  for (size_t s = 0; s < listeners_.size(); ++s) {
    const MesiState c = held(s, block);
    if (c == MesiState::I) continue;
    if (c == MesiState::S) {
      ++shared;
      covered = covered && e && (e->sharers & bit(s));
    } else {
      ++exclusive;
      covered = covered && e && e->owner == static_cast<int>(s);
    }
  }
  checker_.holders(block, exclusive, shared, covered);
  count_violations();
}

void Coherence::checked_hit(size_t s, uint64_t address) {
  const uint64_t block = address / kLineBytes;
  if (held(s, block) != MesiState::I) checker_.load(block, s, version_of(s, block));
  else checker_.uncached_hit(block, s);
  count_violations();
}

}  // namespace starnuma
