// The functional half of one socket's tracking hardware: a counter annex per core (on a TLB of it)
// and the tracker update (one for the socket, or one per core), either the C++ reference models
// (`impl: model`) or the Verilated RTL (`impl: rtl`). Both see the same beats in the same order and
// so make the same flushes, the same metadata requests in the same order and the same metadata;
// timing is not theirs (SocketTracking times every request through the fabric).
#pragma once

#include <string>

#include <memory>
#include <vector>

#include "tracking/tlb_counter_annex_model.hpp"
#include "tracking/tracker_update_model.hpp"

namespace starnuma {

class Waves;

struct EngineConfig {
  unsigned cores = 1;         // annexes, one per core
  unsigned trackers = 1;      // tracker updates: 1 (core k's flushes go to it) or `cores` (to tracker k)
  unsigned tlb_entries = 64;  // entries of each annexed TLB
  unsigned socket = 0;        // copied into every flush
  TrackerConfig tracker;      // sockets, counter_bits, pages_per_region, meta_base
};

class TrackingEngine {
 public:
  virtual ~TrackingEngine() = default;
  // One cycle's events of `core`'s annex. Every flush they cause is folded into the metadata
  // through `memory` (one read, then a write if the entry changes) before this returns.
  virtual void apply(unsigned core, const AnnexBeat& beat, MetadataMemory& memory) = 0;
  // Waveforms (docs/debugging.md): the engine's signals under `scope`, its clock `cycle_ps`; the
  // cycles of a beat are drawn from the beat's time, which set_beat_time gives before apply.
  virtual void attach_waves(Waves& waves, const std::string& scope, int64_t cycle_ps) {}
  void set_beat_time(int64_t ps) { beat_ps_ = ps; }

 protected:
  int64_t beat_ps_ = 0;
};

std::unique_ptr<TrackingEngine> make_model_engine(const EngineConfig& config);

// What the platform's Verilated library was built for (rtl/CMakeLists.txt): `impl: rtl` accepts
// only these. make_rtl_engine() raises a configuration error for anything else.
struct RtlBuild {
  unsigned l1_annex_entries, l2_annex_entries;  // the annex on the L1 DTLB, on the STLB
  unsigned sockets, queue_depth;
  uint64_t pages_per_region;
  std::vector<unsigned> widths;  // counter widths
};
const RtlBuild& rtl_build();
std::unique_ptr<TrackingEngine> make_rtl_engine(const EngineConfig& config);

}  // namespace starnuma
