#include "core/cache_hierarchy.hpp"

namespace starnuma {

namespace {
constexpr unsigned kPageShift = 12;  // 4 KiB pages
constexpr unsigned kLineShift = 6;
const char* const kClass[4] = {"local", "one_hop", "two_hop", "pool"};
}  // namespace

SocketLlc::SocketLlc(const LlcConfig& config, unsigned cores, uint64_t seed)
    : array(config.lines(cores), config.ways(), config.replacement(), seed),
      latency(config.latency()),
      miss_done(config.mshrs(cores), 0) {}

MemoryStats::MemoryStats(StatOwner& o)
    : dtlb_misses(o, "dtlb_misses", "accesses", "Loads and stores that missed the L1 DTLB"),
      stlb_misses(o, "stlb_misses", "accesses", "Accesses that missed both TLBs (page walks)"),
      l1_hits(o, "l1_hits", "accesses", "L1D hits"),
      l1_misses(o, "l1_misses", "accesses", "L1D misses"),
      l2_hits(o, "l2_hits", "accesses", "L2 hits"),
      l2_misses(o, "l2_misses", "accesses", "L2 misses"),
      llc_hits(o, "llc_hits", "accesses", "LLC hits"),
      llc_misses(o, "llc_misses", "accesses", "LLC misses (demand accesses served by memory)"),
      writebacks(o, "writebacks", "lines", "Dirty LLC victims written to memory"),
      memory_accesses{{o, std::string(kClass[0]) + "_accesses", "accesses", "Memory accesses homed locally"},
                      {o, std::string(kClass[1]) + "_accesses", "accesses", "Memory accesses one coherent hop away"},
                      {o, std::string(kClass[2]) + "_accesses", "accesses", "Memory accesses across a NUMALink"},
                      {o, std::string(kClass[3]) + "_accesses", "accesses", "Memory accesses to the CXL pool"}},
      memory_latency_ps{{o, std::string(kClass[0]) + "_latency_ps", "ps", "Summed latency of local accesses"},
                        {o, std::string(kClass[1]) + "_latency_ps", "ps", "Summed latency of 1-hop accesses"},
                        {o, std::string(kClass[2]) + "_latency_ps", "ps", "Summed latency of 2-hop accesses"},
                        {o, std::string(kClass[3]) + "_latency_ps", "ps", "Summed latency of pool accesses"}},
      memory_unloaded_ps{{o, std::string(kClass[0]) + "_unloaded_ps", "ps", "Summed unloaded latency of local accesses"},
                         {o, std::string(kClass[1]) + "_unloaded_ps", "ps", "Summed unloaded latency of 1-hop accesses"},
                         {o, std::string(kClass[2]) + "_unloaded_ps", "ps", "Summed unloaded latency of 2-hop accesses"},
                         {o, std::string(kClass[3]) + "_unloaded_ps", "ps", "Summed unloaded latency of pool accesses"}} {}

CacheHierarchy::CacheHierarchy(const CoreConfig& c, const Env& env, MemoryStats& stats, uint64_t seed)
    : env_(env),
      stats_(stats),
      dtlb_(c.dtlb.entries(), c.dtlb.ways(), Replacement::Lru, 1, true),
      stlb_(c.stlb.entries(), c.stlb.ways(), Replacement::Lru, 1, true),
      l1_(c.l1d.lines(), c.l1d.ways(), c.l1d.replacement(), seed),
      l2_(c.l2.lines(), c.l2.ways(), c.l2.replacement(), seed + 1),
      l1_latency_(c.l1d.latency() * env.cycle_fs),
      l2_latency_(c.l2.latency() * env.cycle_fs),
      llc_latency_(env.llc->latency * env.cycle_fs),
      stlb_latency_(c.stlb.latency() * env.cycle_fs),
      walk_latency_(c.page_walk_latency * env.cycle_fs) {
  for (size_t r = 0; r < env.fabric->address_map().size(); ++r) {
    unloaded_ps_.push_back(env.fabric->unloaded_latency(env.requester, r).ps());
    class_.push_back(env.fabric->access_class(env.requester, r));
  }
}

bool CacheHierarchy::certain_l1_hit(uint64_t vaddr) const {
  const uint64_t* ppage = dtlb_.peek(vaddr >> kPageShift);
  if (!ppage) return false;
  const uint64_t paddr = (*ppage << kPageShift) | (vaddr & ((uint64_t{1} << kPageShift) - 1));
  return l1_.contains(paddr >> kLineShift);
}

// The observer's stall (its backpressure) delays the access, and every event after it.
uint64_t CacheHierarchy::translate(uint64_t vaddr, int64_t& t) {
  const uint64_t vpage = vaddr >> kPageShift;
  TlbObserver* obs = env_.observer;
  const auto at = [&] { return Time::from_ps(t / 1000); };
  const auto wait = [&](Time stall) { t += stall.ps() * 1000; };
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
    t += walk_latency_;
    ppage = env_.pages->translate(vaddr, env_.requester) >> kPageShift;
    CacheArray::Victim v = stlb_.fill(vpage, false, ppage);
    if (obs) {
      if (v.valid) wait(obs->tlb_evict(env_.core, TlbLevel::L2, v.line, v.payload, at()));
      wait(obs->tlb_fill(env_.core, TlbLevel::L2, vpage, ppage, at()));
    }
  }
  CacheArray::Victim v = dtlb_.fill(vpage, false, ppage);
  if (obs) {
    if (v.valid) wait(obs->tlb_evict(env_.core, TlbLevel::L1, v.line, v.payload, at()));
    wait(obs->tlb_fill(env_.core, TlbLevel::L1, vpage, ppage, at()));
  }
  return ppage;
}

void CacheHierarchy::write_back_to_memory(uint64_t line, int64_t t) {
  ++stats_.writebacks;
  env_.fabric->access(env_.requester, MemAccess{MemOp::Write, line << kLineShift, nullptr}, Time::from_ps(t / 1000));
}

void CacheHierarchy::write_back_from_l2(uint64_t line, int64_t t) {
  if (env_.llc->array.access(line, true)) return;
  CacheArray::Victim v = env_.llc->array.fill(line, true);
  if (v.valid && v.dirty) write_back_to_memory(v.line, t);
}

void CacheHierarchy::write_back_from_l1(uint64_t line, int64_t t) {
  if (l2_.access(line, true)) return;
  CacheArray::Victim v = l2_.fill(line, true);
  if (v.valid && v.dirty) write_back_from_l2(v.line, t);
}

int64_t CacheHierarchy::llc_and_memory(uint64_t vaddr, uint64_t paddr, bool store, bool dirty_here, int64_t t) {
  const uint64_t line = paddr >> kLineShift;
  SocketLlc& llc = *env_.llc;
  t += llc_latency_;
  if (llc.array.access(line, dirty_here)) {
    ++stats_.llc_hits;
    return t;
  }
  ++stats_.llc_misses;
  // The LLC's miss slots: wait for the one used `mshrs` misses ago.
  if (llc.miss_done[llc.head] > t) t = llc.miss_done[llc.head];
  size_t range = 0;
  const Time issue = Time::from_ps(t / 1000);
  const Time done = env_.fabric->access(env_.requester, MemAccess{MemOp::Read, paddr, nullptr}, issue, &range);
  const int64_t latency_ps = (done - issue).ps();
  const int cls = static_cast<int>(class_[range]);
  ++stats_.memory_accesses[cls];
  stats_.memory_latency_ps[cls] += static_cast<uint64_t>(latency_ps);
  stats_.memory_unloaded_ps[cls] += static_cast<uint64_t>(unloaded_ps_[range]);
  t += latency_ps * 1000;
  llc.miss_done[llc.head] = t;
  llc.head = (llc.head + 1) % llc.miss_done.size();
  CacheArray::Victim v = llc.array.fill(line, dirty_here);
  if (v.valid && v.dirty) write_back_to_memory(v.line, t);
  if (!store && env_.observer)
    env_.observer->llc_miss_load(env_.core, vaddr >> kPageShift, paddr >> kPageShift, Time::from_ps(t / 1000));
  return t;
}

int64_t CacheHierarchy::light_access(uint64_t vaddr, bool write, int64_t now) {
  const uint64_t paddr = env_.pages->translate(vaddr, env_.requester);
  return llc_and_memory(vaddr, paddr, write, write, now) - now;
}

int64_t CacheHierarchy::access(uint64_t vaddr, bool write, int64_t now) {
  int64_t t = now;
  const uint64_t ppage = translate(vaddr, t);
  const uint64_t paddr = (ppage << kPageShift) | (vaddr & ((uint64_t{1} << kPageShift) - 1));
  const uint64_t line = paddr >> kLineShift;

  if (l1_.access(line, write)) {
    ++stats_.l1_hits;
    return t - now + l1_latency_;
  }
  ++stats_.l1_misses;
  if (l2_.access(line, false)) {
    ++stats_.l2_hits;
    t += l2_latency_;
  } else {
    ++stats_.l2_misses;
    t = llc_and_memory(vaddr, paddr, write, false, t);  // a store's dirty line lives in the L1
    CacheArray::Victim v2 = l2_.fill(line, false);
    if (v2.valid && v2.dirty) write_back_from_l2(v2.line, t);
  }
  CacheArray::Victim v1 = l1_.fill(line, write);
  if (v1.valid && v1.dirty) write_back_from_l1(v1.line, t);
  return t - now;
}

}  // namespace starnuma
