#include "core/cache_hierarchy.hpp"

#include <algorithm>
#include <utility>

#include <systemc>

#include "common/diagnostics.hpp"
#include "common/local_time.hpp"
#include "common/text.hpp"
#include "debug/transactions.hpp"

namespace starnuma {

namespace {
// Statistic names, and what each class counts.
const char* const kClass[kMissClasses] = {"local", "one_hop", "two_hop", "pool", "bt_socket", "bt_pool"};
const char* const kClassWhat[kMissClasses] = {"served by local memory",
                                              "served by memory one coherent hop away",
                                              "served by memory across a NUMALink",
                                              "served by the CXL pool's memory",
                                              "served by another socket's cache, 3-hop (socket home)",
                                              "served by another socket's cache, 4-hop via the pool"};

template <size_t... K>
std::array<Counter, kMissClasses> per_class(StatOwner& o, const char* suffix, const char* unit, const char* what,
                                            std::index_sequence<K...>) {
  return {Counter(o, kClass[K] + std::string(suffix), unit, what + std::string(kClassWhat[K]))...};
}
std::array<Counter, kMissClasses> per_class(StatOwner& o, const char* suffix, const char* unit, const char* what) {
  return per_class(o, suffix, unit, what, std::make_index_sequence<kMissClasses>());
}
}  // namespace

const char* miss_class_name(MissClass c) {
  static const char* const names[kMissClasses] = {"local", "1-hop", "2-hop", "pool", "bt-socket", "bt-pool"};
  return names[static_cast<size_t>(c)];
}

namespace {
// The LLC's tag state: the MESI state, and a bit per core when they fit.
unsigned llc_state_bits(const LlcConfig& config, unsigned cores, uint64_t line_end) {
  const unsigned with_cores = SocketLlc::kCoreShift + cores;
  return with_cores <= CacheArray::state_bits_for(config.lines(cores), config.ways(), line_end) ? with_cores
                                                                                                : SocketLlc::kCoreShift;
}
}  // namespace

SocketLlc::SocketLlc(const LlcConfig& config, unsigned cores, uint64_t seed, uint64_t line_end)
    : array(config.lines(cores), config.ways(), config.replacement(), seed, false,
            llc_state_bits(config, cores, line_end)),
      latency(config.latency()),
      miss_done(config.mshrs(cores), 0),
      tracks_cores_(array.state_bits() > kCoreShift) {}

unsigned SocketLlc::join(CacheHierarchy* core) {
  members.push_back(core);
  const unsigned index = static_cast<unsigned>(members.size() - 1);
  // More cores than the tags have bits for: from now on every core is looked up.
  if (tracks_cores_ && kCoreShift + index >= array.state_bits()) tracks_cores_ = false;
  return tracks_cores_ ? 1u << (kCoreShift + index) : 0;
}

void SocketLlc::invalidated(uint64_t line) {
  // Under coherence the LLC is inclusive (llc_victim): a line it does not hold, no core holds.
  const CacheArray::Victim v = array.invalidate(line);
  if (v.valid) purge_private(line, v.state);
}

void SocketLlc::prefetch(uint64_t line) const {
  array.prefetch(line);
  if (tracks_cores_) return;  // which cores' caches a purge looks up is in the LLC's set
  for (const CacheHierarchy* m : members) m->prefetch_private(line);
}

void SocketLlc::prefetch_behind(uint64_t line) const {
  if (!tracks_cores_) return;
  for (unsigned cores = array.state(line) >> kCoreShift; cores != 0; cores &= cores - 1)
    members[static_cast<size_t>(__builtin_ctz(cores))]->prefetch_private(line);
}

void SocketLlc::purge_private(uint64_t line, unsigned state) {
  if (!tracks_cores_) {
    for (CacheHierarchy* m : members) m->invalidate_private(line);
    return;
  }
  for (unsigned cores = state >> kCoreShift; cores != 0; cores &= cores - 1)
    members[static_cast<size_t>(__builtin_ctz(cores))]->invalidate_private(line);
}

bool SocketLlc::leave(const Route& r, const CacheArray::Victim& v, int64_t t) {
  constexpr unsigned kLineShift = 6;
  const Time at = Time::from_ps(t / 1000);
  if (!r.coherence) {
    if (v.dirty) r.fabric->access(r.requester, MemAccess{MemOp::Write, v.line << kLineShift, nullptr}, at);
    return v.dirty;
  }
  // The LLC is inclusive for coherence: the socket's copy leaves with it. Whether the block was
  // written is the protocol's state (M), not the caches' dirty bits.
  purge_private(v.line, v.state);
  return r.coherence->evict(r.requester, v.line << kLineShift, static_cast<MesiState>(v.state & kMesiBits), at);
}

int64_t SocketLlc::agent_access(const Route& r, uint64_t paddr, bool write, int64_t t, int64_t lookup_fs, bool& hit) {
  constexpr unsigned kLineShift = 6;
  const uint64_t line = paddr >> kLineShift;
  Coherence* coh = r.coherence;
  t += lookup_fs;
  hit = array.contains(line);
  if (hit) {
    // A write to a copy held S asks its home to invalidate the other sharers; E or M is silent.
    if (write && coh) {
      const Coherence::Result res = coh->store(r.requester, paddr, Time::from_ps(t / 1000));
      t = std::max(t, res.done.ps() * 1000);
    } else if (coh) {
      coh->check_hit(r.requester, paddr);
    }
    array.access(line, write);
    return t;
  }
  t = slot_free(t);
  const Time issue = Time::from_ps(t / 1000);
  Time done;
  MesiState granted = MesiState::I;
  if (coh) {
    const Coherence::Result res = coh->request(r.requester, paddr, write, MesiState::I, issue);
    done = res.done;
    granted = res.granted;
  } else {
    done = r.fabric->access(r.requester, MemAccess{MemOp::Read, paddr, nullptr}, issue);  // a write allocates
  }
  t += (done - issue).ps() * 1000;
  take_slot(t);
  const CacheArray::Victim v = array.fill(line, write, 0, static_cast<unsigned>(granted));
  if (v.valid) leave(r, v, t);
  return t;
}

MemoryStats::MemoryStats(StatOwner& o)
    : dtlb_misses(o, "dtlb_misses", "accesses", "Loads and stores that missed the L1 DTLB"),
      stlb_misses(o, "stlb_misses", "accesses", "Accesses that missed both TLBs (page walks)"),
      stlb_back_invalidations(o, "stlb_back_invalidations", "translations",
                              "L1 DTLB entries dropped because the inclusive STLB evicted them"),
      l1_hits(o, "l1_hits", "accesses", "L1D hits"),
      l1_misses(o, "l1_misses", "accesses", "L1D misses"),
      l2_hits(o, "l2_hits", "accesses", "L2 hits"),
      l2_misses(o, "l2_misses", "accesses", "L2 misses"),
      llc_hits(o, "llc_hits", "accesses", "LLC hits"),
      llc_misses(o, "llc_misses", "accesses",
                 "LLC misses (demand accesses served by memory or, with coherence, another socket)"),
      writebacks(o, "writebacks", "lines", "Dirty LLC victims written to memory"),
      memory_accesses(per_class(o, "_accesses", "accesses", "LLC misses ")),
      memory_latency_ps(per_class(o, "_latency_ps", "ps", "Summed latency of LLC misses ")),
      memory_unloaded_ps(per_class(o, "_unloaded_ps", "ps", "Summed unloaded latency of LLC misses ")),
      memory_latency(o, "memory_latency", "Latency of demand LLC misses from miss to data: percentiles"),
      upgrades(o, "upgrades", "stores", "Stores to a block the socket held shared: an Upgrade to its home"),
      upgrade_latency_ps(o, "upgrade_latency_ps", "ps", "Summed latency of the upgrades"),
      walk_cache_hits{
          Counter(o, "walk_pml4e_cache_hits", "walks", "Walks that began at the PDPT: the PML4E walk cache hit"),
          Counter(o, "walk_pdpte_cache_hits", "walks", "Walks that began at the PD: the PDPTE walk cache hit"),
          Counter(o, "walk_pde_cache_hits", "walks", "Walks that read only the PTE: the PDE walk cache hit")},
      walk_reads(o, "walk_reads", "entries", "Page-table entries the walker read through the caches"),
      walk_l1_hits(o, "walk_l1_hits", "entries", "Walker reads that hit the L1D"),
      walk_l2_hits(o, "walk_l2_hits", "entries", "Walker reads that hit the L2"),
      walk_llc_hits(o, "walk_llc_hits", "entries", "Walker reads that hit the LLC"),
      walk_llc_misses(o, "walk_llc_misses", "entries", "Walker reads served by memory or another socket's cache"),
      walk_latency_ps(o, "walk_latency_ps", "ps", "Summed latency of the page walks, from the STLB miss to the PTE"),
      walk_miss_latency_ps(o, "walk_miss_latency_ps", "ps", "Summed latency of the walker's LLC misses, issue to data"),
      shootdowns(o, "shootdowns", "translations", "TLB shootdowns received for a migrating page this core's TLBs held"),
      migration_stalls(o, "migration_stalls", "accesses", "Accesses that waited for their page's migration to end"),
      migration_stall_ps(o, "migration_stall_ps", "ps", "Summed wait of those accesses") {}

CacheHierarchy::CacheHierarchy(const CoreConfig& c, const Uplink& uplink, const RunContext& run, int64_t cycle_fs,
                               MemoryStats& stats, uint64_t seed)
    : env_{uplink, run, cycle_fs, {}},
      presence_(0),
      stats_(stats),
      dtlb_(c.dtlb.entries(), c.dtlb.ways(), Replacement::Lru, 1, true),
      stlb_(c.stlb.entries(), c.stlb.ways(), Replacement::Lru, 1, true),
      l1_(c.l1d.lines(), c.l1d.ways(), c.l1d.replacement(), seed),
      l2_(c.l2.lines(), c.l2.ways(), c.l2.replacement(), seed + 1),
      l1_latency_(c.l1d.latency() * env_.cycle_fs),
      l2_latency_(c.l2.latency() * env_.cycle_fs),
      llc_latency_(env_.llc->latency * env_.cycle_fs),
      stlb_latency_(c.stlb.latency() * env_.cycle_fs),
      walk_latency_(c.page_walk.latency * env_.cycle_fs),
      walk_cache_latency_(c.page_walk.cache_latency * env_.cycle_fs),
      walk_in_memory_(c.page_walk.in_memory()) {
  const unsigned walk_cache_entries[3] = {c.page_walk.pml4e_cache, c.page_walk.pdpte_cache, c.page_walk.pde_cache};
  for (size_t k = 0; k < walk_caches_.size(); ++k)
    if (walk_cache_entries[k] > 0)
      walk_caches_[k].emplace(walk_cache_entries[k], walk_cache_entries[k], Replacement::Lru, 1, true);
  if (walk_in_memory_ && !env_.page_table) report_internal("page walks in memory need the run's page table");
  for (size_t r = 0; r < env_.fabric->address_map().size(); ++r) {
    unloaded_ps_.push_back(env_.fabric->unloaded_latency(env_.requester, r).ps());
    class_.push_back(env_.fabric->access_class(env_.requester, r));
  }
  const unsigned bit = env_.llc->join(this);  // a light core joins too: its TLBs take shootdowns
  presence_ = env_.light ? 0 : bit;
}

bool CacheHierarchy::invalidate_private(uint64_t line) {
  if (env_.light) return false;  // its L1 and L2 are never filled
  const bool d1 = l1_.invalidate(line).dirty;
  return l2_.invalidate(line).dirty || d1;
}

void CacheHierarchy::observe_stall(Time stall, int64_t& t) {
  if (stall == Time()) return;
  // The observer may have held this thread in SystemC (a full tracker queue) while SystemC time
  // went on past the core's own: no later access may then be sent before the thread resumed, or the
  // fabric and the memories, which book their resources at or after SystemC time, would meet it in
  // their past and place it microseconds late (docs/tracking.md, "Backpressure"). A stall the
  // observer computed without holding the thread leaves SystemC time behind the core's: no fence.
  if (const int64_t resumed = sim_now_fs(); resumed > t) fault_end_ = std::max(fault_end_, resumed);
  t += stall.ps() * 1000;
  if (env_.sync_fs > 0 && t - sim_now_fs() >= env_.sync_fs) wait_in_access(t);
}

void CacheHierarchy::take_shootdowns(int64_t& t) {
  TlbObserver* obs = env_.observer;
  // By index: the tracker's backpressure may wait, and the OS may shoot down more meanwhile.
  for (size_t i = 0; i < shootdowns_.size(); ++i) {
    const uint64_t vpage = shootdowns_[i];
    const CacheArray::Victim l1 = dtlb_.invalidate(vpage), l2 = stlb_.invalidate(vpage);
    if (!l1.valid && !l2.valid) continue;
    ++stats_.shootdowns;
    const Time at = Time::from_ps(t / 1000);
    if (obs && l1.valid) observe_stall(obs->tlb_shootdown(env_.core, TlbLevel::L1, vpage, l1.payload, at), t);
    if (obs && l2.valid) observe_stall(obs->tlb_shootdown(env_.core, TlbLevel::L2, vpage, l2.payload, at), t);
  }
  shootdowns_.clear();
}

uint64_t CacheHierarchy::warm_tlbs(const std::vector<uint64_t>& dtlb, const std::vector<uint64_t>& stlb,
                                   TlbLevel annexed, const std::vector<uint32_t>& counts) {
  uint64_t installed = 0;
  TlbObserver::Translations marked, unmarked, counted;
  const auto warm = [&](CacheArray& level, const std::vector<uint64_t>& pages, bool annexes) {
    for (size_t i = 0; i < pages.size(); ++i) {
      const uint64_t e = pages[i], vpage = e >> 1, paddr = env_.pages->peek(vpage << kPageShift);
      if (paddr == PageMap::kUnplaced || level.contains(vpage)) continue;
      const uint64_t ppage = paddr >> kPageShift;
      const CacheArray::Victim v = level.fill(vpage, false, ppage);
      if (v.valid) report_internal("warm_tlbs: more translations than the TLB holds");
      ++installed;
      if (!annexes) continue;
      ((e & 1) ? marked : unmarked).emplace_back(vpage, ppage);
      if (i < counts.size() && counts[i]) counted.emplace_back(vpage, counts[i]);
    }
  };
  // The STLB first: an L1 DTLB in front of an inclusive STLB holds only what the STLB does.
  warm(stlb_, stlb, annexed == TlbLevel::L2);
  warm(dtlb_, dtlb, annexed == TlbLevel::L1);
  if (env_.observer) env_.observer->tlb_warm(env_.core, annexed, marked, unmarked, counted);
  return installed;
}

uint64_t CacheHierarchy::warm_l2(const std::vector<uint64_t>& entries) {
  if (env_.light) return 0;
  uint64_t installed = 0;
  for (const uint64_t e : entries) {
    const uint64_t line = e >> 2;
    if ((env_.coherence && !env_.llc->array.contains(line)) || l2_.contains(line)) continue;
    if (l2_.fill(line, false).valid) report_internal("warm_l2: more lines than the L2 holds");
    if (presence_) env_.llc->array.set_state(line, presence_, presence_);
    ++installed;
  }
  return installed;
}

void CacheHierarchy::wait_for_migration(uint64_t vpage, int64_t& t) {
  const int64_t ready = env_.pages->ready_fs(vpage);
  if (ready <= t) return;
  ++stats_.migration_stalls;
  stats_.migration_stall_ps += static_cast<uint64_t>((ready - t) / 1000);
  t = ready;
}

std::optional<uint64_t> CacheHierarchy::known_line(uint64_t vaddr, bool stlb_too) const {
  const uint64_t vpage = vaddr >> kPageShift;
  const uint64_t* ppage = dtlb_.peek(vpage);
  if (!ppage && stlb_too) ppage = stlb_.peek(vpage);
  if (!ppage) return std::nullopt;
  return ((*ppage << kPageShift) | (vaddr & ((uint64_t{1} << kPageShift) - 1))) >> kLineShift;
}

bool CacheHierarchy::certain_l1_hit(uint64_t vaddr) const {
  const std::optional<uint64_t> line = known_line(vaddr, false);  // an STLB hit takes longer than an L1 hit
  return line && l1_.contains(*line);
}

bool CacheHierarchy::certain_llc_hit(uint64_t vaddr) const {
  const std::optional<uint64_t> line = known_line(vaddr, false);
  return line && env_.llc->array.contains(*line);
}

// The observer's stall (its backpressure) delays the access, and every event after it.
uint64_t CacheHierarchy::translate(uint64_t vaddr, int64_t& t) {
  const uint64_t vpage = vaddr >> kPageShift;
  TlbObserver* obs = env_.observer;
  const auto at = [&] { return Time::from_ps(t / 1000); };
  const auto wait = [&](Time stall) { observe_stall(stall, t); };
  if (const uint64_t* p = dtlb_.lookup(vpage, false)) {
    if (obs) wait(obs->tlb_hit(env_.core, TlbLevel::L1, vpage, at()));
    return *p;
  }
  ++stats_.dtlb_misses;
  uint64_t ppage;
  if (const uint64_t* p = stlb_.lookup(vpage, false)) {
    t += stlb_latency_;
    ppage = *p;
    if (obs) wait(obs->tlb_hit(env_.core, TlbLevel::L2, vpage, at()));
  } else {
    ++stats_.stlb_misses;
    if (walk_in_memory_) t = walk(vaddr, t);
    else t += walk_latency_;
    wait_for_migration(vpage, t);
    if (env_.numa && env_.numa->armed(vpage)) {
      t = env_.numa->fault(vpage, env_.requester, env_.core, t, env_.cycle_fs);
      fault_end_ = t;
    }
    // A page's first touch places it (first-touch policies): the touches of the sockets race in
    // time order, so a core ahead of SystemC time waits for it before it claims a new page.
    if (env_.sync_fs > 0 && env_.pages->peek(vaddr) == PageMap::kUnplaced) wait_in_access(t);
    ppage = env_.pages->translate(vaddr, env_.requester) >> kPageShift;
    CacheArray::Victim v = stlb_.fill(vpage, false, ppage);
    if (v.valid && obs) wait(obs->tlb_evict(env_.core, TlbLevel::L2, v.line, v.payload, at()));
    if (v.valid && env_.stlb_inclusive) {
      const CacheArray::Victim dropped = dtlb_.invalidate(v.line);
      if (dropped.valid) {
        ++stats_.stlb_back_invalidations;
        if (obs) wait(obs->tlb_evict(env_.core, TlbLevel::L1, dropped.line, dropped.payload, at()));
      }
    }
    if (obs) wait(obs->tlb_fill(env_.core, TlbLevel::L2, vpage, ppage, at()));
  }
  CacheArray::Victim v = dtlb_.fill(vpage, false, ppage);
  if (obs) {
    if (v.valid) wait(obs->tlb_evict(env_.core, TlbLevel::L1, v.line, v.payload, at()));
    wait(obs->tlb_fill(env_.core, TlbLevel::L1, vpage, ppage, at()));
  }
  return ppage;
}

void CacheHierarchy::llc_victim(const CacheArray::Victim& v, int64_t t) {
  if (env_.llc->leave(SocketLlc::Route{env_.fabric, env_.requester, env_.coherence}, v, t)) ++stats_.writebacks;
}

void CacheHierarchy::write_back_from_l2(uint64_t line, int64_t t) {
  if (env_.llc->array.access(line, true)) return;
  if (env_.coherence) report_internal("a private cache holds line " + hex(line) + " its socket's LLC does not");
  const CacheArray::Victim v = env_.llc->array.fill(line, true);
  if (v.valid && (v.dirty || env_.coherence)) llc_victim(v, t);
}

void CacheHierarchy::write_back_from_l1(uint64_t line, int64_t t) {
  if (l2_.access(line, true)) return;
  CacheArray::Victim v = l2_.fill(line, true);
  if (v.valid && v.dirty) write_back_from_l2(v.line, t);
}

bool CacheHierarchy::take_turn(uint64_t paddr, int64_t issue) {
  // The cheap test first: most transactions are not ahead of SystemC time.
  if (issue <= sim_now_fs() || !env_.coherence->held_elsewhere(env_.requester, paddr)) return false;
  wait_in_access(issue);
  return true;
}

void CacheHierarchy::start_miss_in_time(uint64_t line, uint64_t paddr, int64_t t) {
  const SocketLlc& llc = *env_.llc;
  // Waiting lets the socket's other cores take miss slots or bring the line in: look again, until
  // SystemC time is at the issue to its picosecond.
  for (;;) {
    const int64_t issue = std::max(t + llc_latency_, llc.miss_done[llc.head]);
    if (!sim_short_of_fs(issue) || llc.array.contains(line) || !take_turn(paddr, issue)) return;
  }
}

int64_t CacheHierarchy::llc_slot_at(uint64_t vaddr, int64_t at) const {
  const SocketLlc& llc = *env_.llc;
  const int64_t free = llc.miss_done[llc.head] - llc_latency_;  // the lookup before the slot is taken
  if (free <= at) return at;
  const std::optional<uint64_t> line = known_line(vaddr, true);
  if (!line) return free;  // its walk is likely to miss too
  // A light core never fills its L1 and L2: looking them up would only bring their cold sets in.
  const bool private_hit = !env_.light && (l1_.contains(*line) || l2_.contains(*line));
  return private_hit || llc.array.contains(*line) ? at : free;
}

int64_t CacheHierarchy::llc_and_memory(uint64_t vaddr, uint64_t paddr, bool store, bool dirty_here, int64_t t,
                                       Who who) {
  const uint64_t line = paddr >> kLineShift;
  const bool demand = who == Who::Demand;
  SocketLlc& llc = *env_.llc;
  const int64_t lookup_from = t;
  if (env_.sync_fs > 0 && env_.coherence) start_miss_in_time(line, paddr, t);
  t += llc_latency_;
  if (llc.array.access(line, dirty_here, presence_)) {  // the core's caches fill it next
    ++(demand ? stats_.llc_hits : stats_.walk_llc_hits);
    if (env_.coherence) env_.coherence->check_hit(env_.requester, paddr);
    return t;
  }
  ++(demand ? stats_.llc_misses : stats_.walk_llc_misses);
  // The LLC's miss slots: wait for the one used `mshrs` misses ago.
  const int64_t lookup_end = t;
  t = llc.slot_free(t);
  const Time issue = Time::from_ps(t / 1000);
  PathTrace* trace = env_.transactions && demand ? env_.transactions->sample(env_.requester, paddr, issue) : nullptr;
  Time done;
  MissClass cls;
  int64_t unloaded_ps;
  MesiState granted = MesiState::I;  // the state the line is filled with (coherence on)
  if (Coherence* coh = env_.coherence) {
    const Coherence::Result res = coh->request(env_.requester, paddr, store, MesiState::I, issue, trace);
    done = res.done;
    granted = res.granted;
    switch (res.path) {
      case CohPath::BtSocket: cls = MissClass::BtSocket; break;
      case CohPath::BtPool: cls = MissClass::BtPool; break;
      case CohPath::Memory: cls = static_cast<MissClass>(class_[res.range]); break;
      default: report_internal("LLC miss on line " + hex(line) + " that the socket holds coherently");
    }
    unloaded_ps =
        res.path == CohPath::Memory ? unloaded_ps_[res.range] : coh->unloaded_transfer(env_.requester, res).ps();
  } else {
    size_t range = 0;
    done = env_.fabric->access(env_.requester, MemAccess{MemOp::Read, paddr, trace}, issue, &range);
    cls = static_cast<MissClass>(class_[range]);
    unloaded_ps = unloaded_ps_[range];
  }
  if (trace)
    env_.transactions->record(env_.owner, store, vaddr, paddr, miss_class_name(cls), Time::from_ps(lookup_from / 1000),
                              Time::from_ps(lookup_end / 1000), issue, done);
  const int64_t latency_ps = (done - issue).ps();
  if (!demand) stats_.walk_miss_latency_ps += static_cast<uint64_t>(latency_ps);
  if (demand) {
    if (env_.page_counts) env_.page_counts->count(vaddr >> kPageShift, env_.requester);
    const size_t k = static_cast<size_t>(cls);
    ++stats_.memory_accesses[k];
    stats_.memory_latency_ps[k] += static_cast<uint64_t>(latency_ps);
    stats_.memory_unloaded_ps[k] += static_cast<uint64_t>(unloaded_ps);
    stats_.memory_latency.sample(static_cast<uint64_t>(latency_ps));
  }
  t += latency_ps * 1000;
  llc.take_slot(t);
  const CacheArray::Victim v = llc.array.fill(line, dirty_here, 0, static_cast<unsigned>(granted) | presence_);
  if (v.valid && (v.dirty || env_.coherence)) llc_victim(v, t);
  if (demand && !store && env_.observer)
    env_.observer->llc_miss_load(env_.core, vaddr >> kPageShift, paddr >> kPageShift, Time::from_ps(t / 1000));
  return t;
}

int64_t CacheHierarchy::own(uint64_t paddr, int64_t t) {
  Coherence& coh = *env_.coherence;
  MesiState mine = coh.state(env_.requester, paddr);
  if (mine == MesiState::I) return t;  // not cached here: the miss asks GetM
  // An upgrade is a transaction the other sharers take part in: it starts in time order, as a miss's
  // does (start_miss_in_time); the copy may be taken meanwhile, and the store then misses.
  if (env_.sync_fs > 0 && take_turn(paddr, t + llc_latency_) &&
      (mine = coh.state(env_.requester, paddr)) == MesiState::I)
    return t;
  // The request leaves through the LLC's pipeline, as a miss would.
  const Time issue = Time::from_ps((t + llc_latency_) / 1000);
  const Coherence::Result res = coh.request(env_.requester, paddr, true, mine, issue);
  if (res.path == CohPath::Hit) return t;  // E or M: silent
  ++stats_.upgrades;
  stats_.upgrade_latency_ps += static_cast<uint64_t>((res.done - issue).ps());
  return std::max(t, res.done.ps() * 1000);
}

int64_t CacheHierarchy::walk(uint64_t vaddr, int64_t t) {
  const int64_t start = t;
  t += stlb_latency_ + walk_cache_latency_;
  // The deepest level a walk cache knows the table of; the walk reads from there down.
  unsigned level = 0;
  uint64_t table = 0;
  for (size_t k = walk_caches_.size(); k-- > 0;) {
    if (!walk_caches_[k]) continue;
    if (const uint64_t* p = walk_caches_[k]->lookup(vaddr >> PageTable::table_shift(k + 1), false)) {
      ++stats_.walk_cache_hits[k];
      level = static_cast<unsigned>(k + 1);
      table = *p;
      break;
    }
  }
  PageTable& tables = *env_.page_table;
  if (level == 0) table = tables.table(0, vaddr, env_.requester);
  for (;; ++level) {
    ++stats_.walk_reads;
    const uint64_t entry = PageTable::entry(table, level, vaddr);
    // A read that leaves the core's caches starts in SystemC-time order: page-table lines are few
    // and read by every core, so their banks and links are the hottest, where requests arriving
    // out of time order are served least exactly (without this, sharing moved 3 % between a
    // 500 ns and a 1 ns quantum). Reads that hit the L1 or L2 need no wait.
    if (env_.sync_fs > 0 && !l1_.contains(entry >> kLineShift) && !l2_.contains(entry >> kLineShift)) wait_in_access(t);
    t = through_caches(vaddr, entry, false, t, Who::Walker);
    if (level == PageTable::kLevels - 1) break;
    table = tables.table(level + 1, vaddr, env_.requester);
    if (walk_caches_[level]) walk_caches_[level]->fill(vaddr >> PageTable::table_shift(level + 1), false, table);
  }
  stats_.walk_latency_ps += static_cast<uint64_t>((t - start) / 1000);
  return t;
}

int64_t CacheHierarchy::through_caches(uint64_t vaddr, uint64_t paddr, bool write, int64_t t, Who who) {
  const uint64_t line = paddr >> kLineShift;
  const bool demand = who == Who::Demand;
  if (env_.light) return llc_and_memory(vaddr, paddr, write, write, t, who);  // the LLC holds a store's dirty line
  if (l1_.access(line, write)) {
    ++(demand ? stats_.l1_hits : stats_.walk_l1_hits);
    if (env_.coherence) env_.coherence->check_hit(env_.requester, paddr);
    return t + l1_latency_;
  }
  if (demand) ++stats_.l1_misses;
  if (l2_.access(line, false)) {
    ++(demand ? stats_.l2_hits : stats_.walk_l2_hits);
    if (env_.coherence) env_.coherence->check_hit(env_.requester, paddr);
    t += l2_latency_;
  } else {
    if (demand) ++stats_.l2_misses;
    t = llc_and_memory(vaddr, paddr, write, false, t, who);  // a store's dirty line lives in the L1
    CacheArray::Victim v2 = l2_.fill(line, false);
    if (v2.valid && v2.dirty) write_back_from_l2(v2.line, t);
  }
  CacheArray::Victim v1 = l1_.fill(line, write);
  if (v1.valid && v1.dirty) write_back_from_l1(v1.line, t);
  return t;
}

int64_t CacheHierarchy::access(uint64_t vaddr, bool write, int64_t now) {
  floor_hold_.serve(now);
  int64_t t = now;
  if (!shootdowns_.empty()) take_shootdowns(t);
  const uint64_t ppage = translate(vaddr, t);
  const uint64_t paddr = (ppage << kPageShift) | (vaddr & ((uint64_t{1} << kPageShift) - 1));
  if (write && env_.coherence) t = own(paddr, t);
  return through_caches(vaddr, paddr, write, t, Who::Demand) - now;
}

}  // namespace starnuma
