// The page-hotness tracking hardware of one socket inside the platform (StarNUMA section III-D):
// a counter annex on every core's L1 DTLB and the socket's tracker update (its page-table walkers'
// read-modify-write of the metadata). It observes the cores' TLB and LLC-miss events, turns them
// into annex beats for the engine (C++ models or Verilated RTL), and times every metadata request
// the engine makes as a real access through the fabric to the metadata region's home, so tracking
// traffic loads links and memories. YAML: the socket's `tracking:` map (docs/tracking.md).
#pragma once

#include <memory>
#include <vector>

#include "common/component.hpp"
#include "core/tracking_hook.hpp"
#include "memory/mem_access.hpp"
#include "tracking/page_index_map.hpp"
#include "tracking/tracker_metadata.hpp"
#include "tracking/tracking_engine.hpp"

namespace starnuma {

class Fabric;

enum class TrackingImpl { None, Model, Rtl };

class SocketTracking : public Component, public TlbObserver {
 public:
  // `dtlb_entries`: entries of each core's L1 DTLB (the annexed TLB).
  SocketTracking(sc_core::sc_module_name n, const ScopeContext& c, unsigned dtlb_entries);

  TrackingImpl impl() const;
  unsigned counter_bits() const { return counter_bits_; }
  Size region_size() const { return region_size_; }
  const std::string& metadata_home() const { return metadata_home_.get(); }

  // What the platform supplies before a run (PlatformTracking).
  struct Attachment {
    Fabric* fabric;
    size_t requester;      // this socket's index among the fabric's requesters
    unsigned sockets;      // in the platform
    unsigned first_core;   // global id of this socket's core 0 (the observer reports global ids)
    unsigned cores;
    int64_t cycle_fs;      // one core cycle
    TrackerMetadata* metadata;
  };
  void attach(const Attachment& a);
  // Marks every annex entry of this socket (a migration phase began).
  void phase_mark();
  // Delivers held events and checks that every flush reached the tracker.
  void finish();

  void tlb_fill(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) override;
  void tlb_hit(unsigned core, TlbLevel level, uint64_t vpage, Time at) override;
  void tlb_evict(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) override;
  void llc_miss_load(unsigned core, uint64_t vpage, uint64_t ppage, Time done) override;
  void reset_stats() override;

 private:
  // The engine's view of the metadata: data from TrackerMetadata, timing from the fabric.
  class TimedMemory : public MetadataMemory {
   public:
    explicit TimedMemory(SocketTracking& owner) : owner_(owner) {}
    uint64_t read(uint64_t addr) override;
    void write(uint64_t addr, uint64_t data) override;

   private:
    SocketTracking& owner_;
  };
  struct CoreState {
    explicit CoreState(unsigned entries) : map(entries), marked(entries, 0) {}
    PageIndexMap map;
    std::vector<uint8_t> marked;  // the annex's marker bits, mirrored to skip no-op hits
    unsigned held_evict = PageIndexMap::kNone;
    int64_t held_fs = 0;
    int64_t next_phase_fs = 0;
  };

  unsigned local(unsigned core) const;
  CoreState& state(unsigned core, int64_t now_fs);
  void release_held(unsigned core);
  void deliver(unsigned core, const AnnexBeat& beat, int64_t at_fs);
  int64_t access(MemOp op, uint64_t addr, uint64_t data, int64_t issue_fs);
  void error_if(bool bad, const char* key, const std::string& message);

  Param<std::string> impl_;
  Param<unsigned> counter_bits_;
  Param<Size> region_size_;
  Param<unsigned> queue_depth_;
  Param<std::string> metadata_home_;
  Param<unsigned> issue_cycles_;
  Param<unsigned> modify_cycles_;
  Param<Time> phase_interval_;

  Counter flushes_{*this, "flushes", "flushes", "Annex flushes (evictions and first hits after a phase mark)"};
  Counter reads_{*this, "tracker_reads", "requests", "Metadata entry reads by the tracker update"};
  Counter writes_{*this, "tracker_writes", "requests", "Metadata entry writes (elided when the entry does not change)"};
  Counter bytes_{*this, "metadata_bytes", "B", "Metadata traffic on the fabric (each entry access moves one line)"};
  Counter annex_stall_{*this, "annex_stall_cycles", "cycles", "Cycles flushes waited for room in the tracker's queue"};
  Counter tracker_stall_{*this, "tracker_stall_cycles", "cycles",
                         "Cycles flushes waited in the queue for the tracker's previous update"};
  Counter phase_marks_{*this, "phase_marks", "marks", "Phase marks applied to the annexes"};
  Counter untracked_{*this, "untracked_loads", "loads", "LLC-missing loads of a core without an annexed TLB (light cores)"};
  Formula digest_stat_;

  unsigned dtlb_entries_;
  uint64_t digest_;  // FNV-1a of every metadata request (op, address, data, issue time)
  Attachment at_{};
  std::unique_ptr<TrackingEngine> engine_;
  TimedMemory memory_{*this};
  std::vector<CoreState> cores_;
  int64_t beat_fs_ = 0;           // time of the beat being applied
  int64_t free_fs_ = 0;           // the tracker finishes its current update
  std::vector<int64_t> queue_;    // ring: start times of the last queue_depth updates
  size_t queue_head_ = 0;
  int64_t issue_fs_ = 0, modify_fs_ = 0;
  uint64_t total_flushes_ = 0, total_reads_ = 0;  // not reset with the statistics
};

}  // namespace starnuma
