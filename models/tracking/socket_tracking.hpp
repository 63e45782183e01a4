// The page-hotness tracking hardware of one socket inside the platform (StarNUMA section III-D):
// a counter annex on every core's STLB (or L1 DTLB: `tlb`) and the socket's tracker update (its
// page-table walkers' read-modify-write of the metadata). It observes the cores' TLB and LLC-miss
// events, turns them into annex beats for the engine (C++ models or Verilated RTL), and times every
// metadata request the engine makes as a real access through the fabric to the metadata region's
// home, so tracking traffic loads links and memories: each tracker is a SystemC process that issues
// its requests at their time, in order. A flush the tracker's full queue cannot take stalls the
// access that caused it: the core's process waits until the queue has room (the TLB events' return
// value is that wait). YAML: the socket's `tracking:` map (docs/tracking.md).
#pragma once

#include <memory>
#include <vector>

#include "cache/cache_array.hpp"
#include "core/cache_hierarchy.hpp"
#include "common/component.hpp"
#include "common/enum_names.hpp"
#include "common/request_floor.hpp"
#include "debug/waves.hpp"
#include "core/core_config.hpp"
#include "core/tracking_hook.hpp"
#include "common/mem_access.hpp"
#include "tracking/page_index_map.hpp"
#include "tracking/tracker_metadata.hpp"
#include "tracking/tracker_queue.hpp"
#include "tracking/tracking_engine.hpp"

namespace starnuma {

class Fabric;

enum class TrackingImpl { None, Model, Rtl };
template <>
const std::vector<std::string>& names_of<TrackingImpl>();
// The TLB a counter annex extends (tracking.tlb).
template <>
const std::vector<std::string>& names_of<TlbLevel>();
// Where the trackers' metadata requests go (tracking.metadata_path).
enum class MetadataPath { Llc, Cache, Memory };
template <>
const std::vector<std::string>& names_of<MetadataPath>();

class SocketTracking : public Component, public TlbObserver {
 public:
  // `core`: the socket's cores, whose STLB or L1 DTLB the annexes sit on.
  SocketTracking(sc_core::sc_module_name n, const ScopeContext& c, const CoreConfig& core);

  TrackingImpl impl() const;
  // The TLB level with the annexes.
  TlbLevel annexed_tlb() const { return annexed_tlb_; }
  // Whether tracking is on with its annexes on the STLB (which must then be inclusive).
  bool annexes_stlb() const { return impl() != TrackingImpl::None && annexed_tlb() == TlbLevel::L2; }
  bool tracker_per_core() const { return trackers_.get() == "per_core"; }
  // A tracker's queue of updates, and its cycles around an update's read (TimePace's clock).
  unsigned queue_depth() const { return queue_depth_; }
  unsigned issue_cycles() const { return issue_cycles_; }
  unsigned modify_cycles() const { return modify_cycles_; }
  unsigned counter_bits() const { return counter_bits_; }
  Size region_size() const { return region_size_; }
  const std::string& metadata_home() const { return metadata_home_.get(); }
  // active: always; auto leaves the hardware off in runs no migration decides by (PlatformTracking::idle).
  bool always_active() const { return active_.get() == "always"; }

  // What the platform supplies before a run (PlatformTracking).
  struct Attachment {
    Fabric* fabric;
    size_t requester;     // this socket's index among the fabric's requesters
    unsigned sockets;     // in the platform
    unsigned first_core;  // global id of this socket's core 0 (the observer reports global ids)
    unsigned cores;
    int64_t cycle_fs;  // one core cycle
    TrackerMetadata* metadata;
  };
  void attach(const Attachment& a);
  // Marks every annex entry of this socket (a migration phase began).
  void phase_mark();
  // The socket's LLC for this run (null after it), through which the trackers' metadata requests
  // go with metadata_path: llc, and the coherence between sockets (null: none).
  void bind_llc(SocketLlc* llc, Coherence* coherence);
  // After the run: checks that every flush reached its tracker and every update was served.
  void finish();

  // The latest time a flush of this socket entered its tracker's queue (rounded up to ps; Time()
  // before the first).
  Time last_flush_taken() const { return Time::from_ps((last_taken_fs_ + 999) / 1000); }

  Time tlb_fill(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) override;
  Time tlb_hit(unsigned core, TlbLevel level, uint64_t vpage, Time at) override;
  Time tlb_evict(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) override;
  // An eviction no fill follows: its flush goes to the tracker at once, as a beat of its own.
  Time tlb_shootdown(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) override;
  void llc_miss_load(unsigned core, uint64_t vpage, uint64_t ppage, Time done) override;
  // The marked entries fill first, then this core's annex alone takes a phase mark, then the others
  // fill: the annex's entries and marks as the pass left them, without a flush (no entry leaves).
  void tlb_warm(unsigned core, TlbLevel level, const Translations& marked, const Translations& unmarked,
                const Translations& counts) override;
  void reset_stats() override;
  // Each tracker's queue of updates (PATH.trackerK.queue), and with impl rtl the Verilated
  // annexes' and trackers' ports under PATH.rtl.
  void attach_waves(Waves& waves) override;

 private:
  // The engine's view of the metadata: data from TrackerMetadata at once; the requests queue for
  // the tracker, which issues them to the fabric at their time.
  class QueuedMemory : public MetadataMemory {
   public:
    explicit QueuedMemory(SocketTracking& owner) : owner_(owner) {}
    uint64_t read(uint64_t addr) override;
    void write(uint64_t addr, uint64_t data) override;

   private:
    SocketTracking& owner_;
  };
  struct CoreState {
    explicit CoreState(unsigned entries) : map(entries), marked(entries, 0) {}
    PageIndexMap map;
    std::vector<uint8_t> marked;  // the annex's marker bits, mirrored to skip no-op hits
    unsigned marked_count = 0;    // how many are set
    unsigned held_evict = PageIndexMap::kNone;
    int64_t held_fs = 0;
    int64_t next_phase_fs = 0;
    int64_t blocked_fs = 0;  // the annex holds the TLB until then (a flush not yet taken by the queue)
  };
  struct Tracker {
    Tracker(unsigned depth, int64_t issue_fs, int64_t modify_fs) : queue(depth, issue_fs, modify_fs) {}
    TrackerQueue queue;
    sc_core::sc_event queued, started;         // an update was queued; one started (its slot is free)
    int64_t free_fs = 0;                       // the last update's last response is back
    FloorHold floor;                           // held while an update waits behind SystemC time
    Waves::Signal queue_signal = Waves::kOff;  // updates waiting (waves)
  };

  // Every beat is applied at a core's time `t` (fs), which moves to when the tracker's queue
  // took the beat's flushes: later than before when it was full (the core's TLB is blocked
  // until then, and the core's process waits for it).
  unsigned local(unsigned core) const;
  static void mark_all(CoreState& s) {
    std::fill(s.marked.begin(), s.marked.end(), 1);
    s.marked_count = static_cast<unsigned>(s.marked.size());
  }
  static void unmark(CoreState& s, unsigned index) {
    if (s.marked[index]) --s.marked_count;
    s.marked[index] = 0;
  }
  CoreState& state(unsigned core, int64_t& t);
  // An annexed TLB's event of global core `core` at `at`: its local index, and in `t` when the TLB can
  // take it (later than `at` while the annex holds the TLB).
  CoreState& tlb_event(unsigned core, Time at, unsigned& c, int64_t& t);
  void release_held(unsigned core, int64_t& t);
  // `flushes`: how many flushes the beat makes (an eviction, a marked hit).
  void deliver(unsigned core, const AnnexBeat& beat, unsigned flushes, int64_t& t);
  // Waits (the calling core's process) until `k`'s queue has room for `flushes`; moves `t` to then.
  void make_room(Tracker& k, unsigned flushes, int64_t& t);
  // The process of tracker `k`: serves its queue in order, each request at its time.
  void serve(Tracker& k);
  // The stall of an event that happened `at` and could complete at `t` (fs), in whole
  // picoseconds rounded up (the core never goes on before its flush was taken).
  static Time stall(Time at, int64_t t) { return Time::from_ps((t - at.ps() * 1000 + 999) / 1000); }
  // `owned`: a read whose write follows (metadata_path: llc asks for the line exclusive at once).
  int64_t access(MemOp op, uint64_t addr, uint64_t data, int64_t issue_fs, bool owned = false);
  int64_t cycles(int64_t fs) const { return at_.cycle_fs ? fs / at_.cycle_fs : 0; }
  void error_if(bool bad, const char* key, const std::string& message);

  Param<std::string> impl_;
  Param<std::string> active_;
  Param<std::string> tlb_;
  Param<unsigned> counter_bits_;
  Param<Size> region_size_;
  Param<unsigned> queue_depth_;
  Param<std::string> trackers_;
  Param<std::string> metadata_home_;
  Param<unsigned> issue_cycles_;
  Param<unsigned> modify_cycles_;
  Param<Time> phase_interval_;
  Param<std::string> metadata_path_;
  Param<unsigned> metadata_cache_lines_;
  Param<unsigned> metadata_cache_cycles_;

  Counter flushes_{*this, "flushes", "flushes", "Annex flushes (evictions and first hits after a phase mark)"};
  Counter reads_{*this, "tracker_reads", "requests", "Metadata entry reads by the tracker update"};
  Counter writes_{*this, "tracker_writes", "requests", "Metadata entry writes (elided when the entry does not change)"};
  Counter bytes_{*this, "metadata_bytes", "B", "Metadata traffic on the fabric (each entry access moves one line)"};
  Counter stalled_{*this, "stalled_flushes", "flushes",
                   "Flushes the tracker's full queue could not take at once: each stalled the access that caused it"};
  Formula core_stall_stat_;
  Formula annex_bits_stat_;
  Formula queue_wait_stat_;
  Counter phase_marks_{*this, "phase_marks", "marks", "Phase marks applied to the annexes"};
  Counter untracked_{*this, "untracked_loads", "loads", "LLC-missing loads whose page the annexed TLB did not hold"};
  Counter cache_hits_{*this, "metadata_cache_hits", "requests",
                      "Metadata requests served by the socket's metadata cache"};
  Counter cache_writebacks_{*this, "metadata_cache_writebacks", "lines",
                            "Dirty metadata lines the metadata cache wrote back"};
  Counter llc_hits_{*this, "metadata_llc_hits", "requests",
                    "Metadata requests the socket's LLC held the line of (metadata_path: llc)"};
  Formula digest_stat_;

  TlbLevel annexed_tlb_;  // `tlb`, read once: every TLB hit asks
  unsigned tlb_entries_;  // of the annexed TLB
  uint64_t digest_;       // FNV-1a of every metadata request (op, address, data, issue time)
  Attachment at_{};
  std::unique_ptr<TrackingEngine> engine_;
  // The metadata lines the socket's trackers keep cached (metadata_cache_lines > 0): timing only,
  // the data is always TrackerMetadata's.
  std::unique_ptr<CacheArray> metadata_cache_;
  MetadataPath path_;
  SocketLlc* llc_ = nullptr;  // metadata_path: llc, during the run
  SocketLlc::Route llc_route_{};
  QueuedMemory memory_{*this};
  std::vector<CoreState> cores_;
  std::vector<std::unique_ptr<Tracker>> tracker_units_;
  Waves* waves_ = nullptr;                         // one, or one per core (trackers: per_core)
  Tracker* current_ = nullptr;                     // the tracker of the beat being applied
  int64_t beat_fs_ = 0;                            // time of the beat being applied
  int64_t core_stall_fs_ = 0, queue_wait_fs_ = 0;  // since the statistics were reset
  int64_t last_taken_fs_ = 0;
  uint64_t total_flushes_ = 0, total_reads_ = 0, served_ = 0;  // not reset with the statistics
};

}  // namespace starnuma
