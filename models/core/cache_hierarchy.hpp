// One core's path to memory: DTLB, STLB and page walk; L1D and L2 (private); the socket's shared,
// non-inclusive LLC; on an LLC miss, the fabric. Caches are physically tagged, write-back and
// write-allocate. A dirty victim goes one level down (from the LLC, to memory as a write that
// loads the fabric but does not stall the core). Latencies are in femtoseconds of simulated time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "cache/cache_array.hpp"
#include "coherence/coherence.hpp"
#include "common/request_floor.hpp"
#include "common/stats.hpp"
#include "core/core_config.hpp"
#include "core/hinting_faults.hpp"
#include "core/tracking_hook.hpp"
#include "fabric/fabric.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_map.hpp"
#include "paging/page_table.hpp"

namespace starnuma {

class TransactionTrace;

class CacheHierarchy;

// The LLC of a socket and the limit on its outstanding misses, shared by its cores. Under
// coherence it is the socket's caching agent: its tags keep the MESI state of the socket's copies,
// and a block the protocol takes away leaves the LLC and every private cache of the socket.
//
// Its tags also keep which cores may hold each line in their L1 or L2 (a bit per core, set when a
// core's caches fill the line from the LLC, cleared only when the line leaves: a superset), so that
// a line leaving is looked up only in those cores' caches: host time, no effect on the model. An
// LLC whose tags have no room for a bit per core (many cores, or a large physical address space)
// looks up every core's caches instead.
struct SocketLlc : CoherentCaches {
  // `line_end`: every line the LLC may hold is below it (the end of the physical address map).
  SocketLlc(const LlcConfig& config, unsigned cores, uint64_t seed, uint64_t line_end);
  MesiState state(uint64_t line) const override { return static_cast<MesiState>(array.state(line) & kMesiBits); }
  void set_state(uint64_t line, MesiState s) override { array.set_state(line, static_cast<unsigned>(s), kMesiBits); }
  void invalidated(uint64_t line) override;
  void prefetch(uint64_t line) const override;         // the LLC's set (and, without core bits, the cores')
  void prefetch_behind(uint64_t line) const override;  // the cores' sets the LLC's tag names
  // A core's hierarchy joins its socket's LLC; returns the tag-state bit that marks the lines it
  // may hold (0 when the LLC does not track its cores).
  unsigned join(CacheHierarchy* core);
  // Drops `line`, which left the LLC with tag state `state`, from the private caches of the
  // socket's cores that may hold it (the LLC's inclusion under coherence).
  void purge_private(uint64_t line, unsigned state);
  bool tracks_cores() const { return tracks_cores_; }

  // Where the socket's misses and victims go (its cores' Uplink has the same).
  struct Route {
    Fabric* fabric;
    size_t requester;      // the socket's index among the fabric's requesters
    Coherence* coherence;  // null: no coherence between sockets
  };
  // A valid victim leaves the socket: under coherence its private copies are dropped and it is put
  // to its home (PutM/PutE); without, written back if dirty. Returns whether it went home written.
  bool leave(const Route& r, const CacheArray::Victim& v, int64_t t);
  // The miss slots: when a miss whose lookup ended at `t` (fs) takes one, and the slot's release
  // when its data is back at `done`.
  int64_t slot_free(int64_t t) const { return std::max(t, miss_done[head]); }
  void take_slot(int64_t done) {
    miss_done[head] = done;
    head = (head + 1) % miss_done.size();
  }
  // A read or write by an agent of the socket with no private cache, which enters at the LLC: the
  // page walkers' metadata updates (tracking.metadata_path: llc). `lookup_fs`: the LLC's latency.
  // A write to a shared copy upgrades it; a miss takes a slot and asks the home (or, coherence
  // off, reads the line from memory), and the fill's victim leaves. Returns when the data or the
  // permission is back (fs); `hit` says whether the LLC held the line.
  int64_t agent_access(const Route& r, uint64_t paddr, bool write, int64_t t, int64_t lookup_fs, bool& hit);

  static constexpr unsigned kMesiBits = 3;  // the tag state's low bits; a bit per core above them
  static constexpr unsigned kCoreShift = 2;
  CacheArray array;
  unsigned latency;
  std::vector<int64_t> miss_done;  // ring: completion (fs) of the last `mshrs` misses
  size_t head = 0;
  std::vector<CacheHierarchy*>
      members;  // the socket's cores' hierarchies (they join when built; used only during the run)

 private:
  bool tracks_cores_;
};

// Where a demand LLC miss was served, the StarNUMA paper's breakdown (Fig. 8c): memory by the
// fabric's classes, or a block transfer from another socket's cache (coherence on).
enum class MissClass : uint8_t { Local, OneHop, TwoHop, Pool, BtSocket, BtPool };
static_assert(static_cast<int>(MissClass::Pool) == static_cast<int>(AccessClass::Pool),
              "the memory classes are the fabric's AccessClass, in its order");
inline constexpr size_t kMissClasses = 6;
const char* miss_class_name(MissClass c);  // "local", "1-hop", "2-hop", "pool", "bt-socket", "bt-pool"

// Counters of one core's memory accesses (registered on the core).
struct MemoryStats {
  explicit MemoryStats(StatOwner& owner);
  Counter dtlb_misses, stlb_misses, stlb_back_invalidations, l1_hits, l1_misses, l2_hits, l2_misses, llc_hits,
      llc_misses, writebacks;
  // Demand LLC misses by MissClass: count, measured latency from LLC miss to data, and the
  // unloaded latency of the same path (socket, home and, for a transfer, owner).
  std::array<Counter, kMissClasses> memory_accesses, memory_latency_ps, memory_unloaded_ps;
  LatencyHistogram memory_latency;  // the same misses' latencies, for percentiles
  // Stores to a block the socket held shared (coherence on): count and summed latency.
  Counter upgrades, upgrade_latency_ps;
  // The page walker (page_walk.model: memory): walks that started below the root because a walk
  // cache held the PML4E, PDPTE or PDE; page-table entries read, and where they were served;
  // summed walk latency; of its LLC misses, the summed time from issue to data (where a walk's
  // time goes when its lines' home is far or loaded). Its reads are not in the demand counters above.
  std::array<Counter, 3> walk_cache_hits;
  Counter walk_reads, walk_l1_hits, walk_l2_hits, walk_llc_hits, walk_llc_misses, walk_latency_ps;
  Counter walk_miss_latency_ps;
  // Migration: TLB shootdowns this core received (translations it held), and accesses that waited
  // for a page's copy, with the time they waited.
  Counter shootdowns, migration_stalls, migration_stall_ps;
};

class CacheHierarchy {
 public:
  // What the hierarchy reaches beyond its socket, bound at elaboration: the socket binds it when
  // the fabric binds the socket (Socket::bind_fabric), the platform adds coherence when enabled.
  struct Uplink {
    Fabric* fabric = nullptr;
    size_t requester = 0;            // the socket's index among the fabric's requesters
    unsigned core = 0;               // global core id, for the observer
    Coherence* coherence = nullptr;  // null: no coherence between sockets
    // An STLB eviction also drops the translation from the L1 DTLB (StlbConfig::inclusive).
    bool stlb_inclusive = false;
  };
  // What one run gives the hierarchy: the socket's LLC and the OS's state for this run.
  struct RunContext {
    PageMap* pages;
    SocketLlc* llc;
    TlbObserver* observer;  // may be null
    // A translation stalled by the tracking hardware this far ahead of SystemC time waits for it
    // (the platform's quantum; 0: never, outside a core's thread).
    int64_t sync_fs = 0;
    // Where page walks read their entries (needed with page_walk.model: memory).
    PageTable* page_table = nullptr;
    // Dynamic placement with perfect knowledge: every demand LLC miss is counted here.
    PageCounter* page_counts = nullptr;
    // AutoNUMA (os.migration: autonuma or lacx): page walks to unmapped pages take hinting faults.
    HintingFaults* numa = nullptr;
    // run --trace-transactions: sampled demand LLC misses are recorded here (debug/transactions.hpp).
    TransactionTrace* transactions = nullptr;
    // A light core's (mixed modality): it has TLBs and walks, but no L1 or L2; its accesses and
    // walk reads start at the socket's LLC, timed by the core's window with `light_loads` miss slots.
    bool light = false;
  };

  // `cycle_fs`: one core cycle.
  CacheHierarchy(const CoreConfig& config, const Uplink& uplink, const RunContext& run, int64_t cycle_fs,
                 MemoryStats& stats, uint64_t seed);
  CacheHierarchy(const CacheHierarchy&) = delete;
  CacheHierarchy& operator=(const CacheHierarchy&) = delete;
  // The core's path, for the transactions it records.
  void set_owner(std::string path) { env_.owner = std::move(path); }

  // Drops `line` from this core's L1 and L2 (SocketLlc::purge_private); true if a copy was dirty.
  bool invalidate_private(uint64_t line);

  // Migration. Whether a TLB of this core holds `vpage`'s translation (what the shared TLB
  // directory knows), and the shootdown of it, which the core takes before its next access.
  bool holds_translation(uint64_t vpage) const { return dtlb_.peek(vpage) || stlb_.peek(vpage); }
  void shoot_down(uint64_t vpage) { shootdowns_.push_back(vpage); }
  // Functional warming, before the run: the TLBs start with these pages (each set's least recent
  // first, (vpage << 1) | marked, as os/checkpoint.hpp keeps them), translated by the page map as
  // it is now, and the observer's annexes with the annexed level's (`annexed`). Returns how many
  // translations it installed (pages not placed are left out).
  uint64_t warm_tlbs(const std::vector<uint64_t>& dtlb, const std::vector<uint64_t>& stlb, TlbLevel annexed,
                     const std::vector<uint32_t>& counts);
  // Functional warming of the L2: it starts with these lines (each set's least recent first,
  // line << 2 | state, as os/checkpoint.hpp keeps caches), clean. Under coherence the LLC is
  // inclusive: a line the socket's LLC does not hold is left out, and those it does hold name this
  // core among their holders. Returns how many it installed (none on a light core, which has no
  // private caches). Whether its L2 is of `lines` lines in `ways` ways:
  uint64_t warm_l2(const std::vector<uint64_t>& entries);
  bool l2_is(uint64_t lines, unsigned ways) const { return l2_.sets() * l2_.ways() == lines && l2_.ways() == ways; }
  size_t pending_shootdowns() const { return shootdowns_.size(); }

  // Serves a load or store issued at `now` (fs); returns its latency (fs).
  int64_t access(uint64_t vaddr, bool write, int64_t now);
  // When the last access's translation took a hinting fault: the fault's end (fs), else 0; read
  // once. The core's window fences younger instructions at it.
  int64_t take_fault_end() {
    const int64_t end = fault_end_;
    fault_end_ = 0;
    return end;
  }
  // The core sends nothing before SystemC time from now on (it passed a barrier, its stream ended).
  void caught_up() { floor_hold_.release(); }
  // True when the access would certainly hit the DTLB and L1 (no side effects).
  bool certain_l1_hit(uint64_t vaddr) const;
  // A light core's window: its hit is an LLC hit (latency llc_latency()). True when the access
  // would certainly hit the DTLB and the LLC (no side effects).
  int64_t llc_latency() const { return llc_latency_; }
  bool certain_llc_hit(uint64_t vaddr) const;
  // The earliest time from `at` at which an access sent finds one of the LLC's miss slots free
  // should it miss there: `at` when one is, or when its line is known to be in the core's caches or
  // the LLC. The slots are the socket's, shared by its cores; the core's window holds an access
  // until then, so that a miss leaves the socket in time order with the others.
  int64_t llc_slot_at(uint64_t vaddr, int64_t at) const;
  int64_t l1_latency() const { return l1_latency_; }
  // Host-side lookahead for an access a few places ahead in the stream; none has any effect on
  // the model. Far ahead: its page map entry and TLB sets. Near: the L1, L2 and LLC sets of its line
  // (the page map entry is in the host's caches by then). Next: the sets its fills' dirty victims
  // will be written back into (the L1 and L2 sets are in the host's caches by then). Tag stores of
  // 64 L2s and 16 LLCs are larger than the host's caches; without this each lookup waits for host
  // memory in turn.
  void prefetch_translation(uint64_t vaddr) const {
    env_.pages->prefetch(vaddr);
    dtlb_.prefetch(vaddr >> kPageShift);
    stlb_.prefetch(vaddr >> kPageShift);
  }
  void prefetch_sets(uint64_t vaddr) const {
    const uint64_t paddr = env_.pages->peek(vaddr);
    if (paddr == PageMap::kUnplaced) return;
    if (!env_.light) {
      l1_.prefetch(paddr >> kLineShift);
      l2_.prefetch(paddr >> kLineShift);
    }
    env_.llc->array.prefetch(paddr >> kLineShift);
    if (env_.coherence) env_.coherence->prefetch(env_.requester, paddr);
  }
  void prefetch_private(uint64_t line) const {
    if (env_.light) return;
    l1_.prefetch(line);
    l2_.prefetch(line);
  }
  void prefetch_write_backs(uint64_t vaddr) const {
    const uint64_t paddr = env_.pages->peek(vaddr);
    if (paddr == PageMap::kUnplaced) return;
    uint64_t victim;
    if (l1_.dirty_victim(paddr >> kLineShift, victim)) l2_.prefetch(victim);
    if (l2_.dirty_victim(paddr >> kLineShift, victim)) env_.llc->array.prefetch(victim);
  }

 private:
  static constexpr unsigned kPageShift = 12;  // 4 KiB pages
  static constexpr unsigned kLineShift = 6;   // 64 B lines
  uint64_t translate(uint64_t vaddr, int64_t& t);
  // Drops the translations shot down since the last access, at `t` (their annex counts flush).
  void take_shootdowns(int64_t& t);
  // Waits in SystemC until `fs` inside an access. SystemC time then passes the core's own, from
  // which its younger accesses are timed: the memories' floor holds at the access's time until they
  // catch up (request_floor_fs).
  void wait_in_access(int64_t fs) {
    if (fs <= sim_now_fs()) return;
    floor_hold_.hold_served();
    wait_until_fs(fs);
  }
  // The tracking hardware's backpressure on a TLB event: the access waits (and, far ahead of
  // SystemC time, lets it catch up).
  void observe_stall(Time stall, int64_t& t);
  // An access to a page whose migration is in flight waits for its copy to end.
  void wait_for_migration(uint64_t vpage, int64_t& t);
  // Who reads through the caches: a load or store of the program, or the page walker (counted
  // apart, and not told to the observer).
  enum class Who : bool { Demand, Walker };
  // The page walk of `vaddr` starting at `t` (page_walk.model: memory); returns when it ends.
  int64_t walk(uint64_t vaddr, int64_t t);
  // L1D, L2, then llc_and_memory; returns the time the data is back.
  int64_t through_caches(uint64_t vaddr, uint64_t paddr, bool write, int64_t t, Who who);
  // Before the LLC lookup at `t`: a coherence transaction another socket takes part in (the home's
  // directory names another socket) starts exactly at its time, the core's thread waiting for
  // SystemC time to reach it, since its outcome (which socket ends with the block, how many
  // transfers) follows the order in which the sockets ask (docs/coherence.md).
  void start_miss_in_time(uint64_t line, uint64_t paddr, int64_t t);
  // The rule both follow (and an upgrade, in own): a transaction issued at `issue` (fs) to a block
  // another socket holds waits for SystemC time to reach it. Returns whether it waited.
  bool take_turn(uint64_t paddr, int64_t issue);
  // The line `vaddr` is in, if the DTLB (or, with `stlb_too`, the STLB) knows its page.
  std::optional<uint64_t> known_line(uint64_t vaddr, bool stlb_too) const;
  void write_back_from_l1(uint64_t line, int64_t t);
  void write_back_from_l2(uint64_t line, int64_t t);
  // A valid LLC victim leaves the socket: written back if dirty, or under coherence put to its
  // home (PutM/PutE) after the private copies are dropped. Callers skip clean victims without
  // coherence.
  void llc_victim(const CacheArray::Victim& v, int64_t t);
  // Coherence: a store to a block the socket holds; an S copy must be upgraded first. Returns
  // the time the store may complete.
  int64_t own(uint64_t paddr, int64_t t);
  // From the LLC down: lookup, and on a miss the fabric; returns the time the data is back.
  // `store`: the access is a store; `dirty_here`: it dirties the LLC line (no private cache above).
  int64_t llc_and_memory(uint64_t vaddr, uint64_t paddr, bool store, bool dirty_here, int64_t t, Who who);

  struct Env : Uplink, RunContext {
    int64_t cycle_fs;
    std::string owner;  // the core's path (transaction traces)
  };
  Env env_;
  unsigned presence_;  // this core's bit in its LLC's tag states (SocketLlc::join), 0 for a light core
  MemoryStats& stats_;
  CacheArray dtlb_, stlb_, l1_, l2_;
  int64_t l1_latency_, l2_latency_, llc_latency_, stlb_latency_, walk_latency_, walk_cache_latency_;
  bool walk_in_memory_;
  // PML4E, PDPTE and PDE caches: cache k maps vaddr >> PageTable::table_shift(k + 1) to the table
  // at level k + 1 (absent when configured with no entries).
  std::array<std::optional<CacheArray>, 3> walk_caches_;
  std::vector<uint64_t> shootdowns_;  // pages to drop from the TLBs before the next access
  int64_t fault_end_ = 0;             // take_fault_end
  FloorHold floor_hold_;              // held while the core sends behind SystemC time
  std::vector<int64_t> unloaded_ps_;  // per address range
  std::vector<AccessClass> class_;    // per address range
};

}  // namespace starnuma
