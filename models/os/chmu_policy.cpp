// The CHMU-driven phase policy (`os.migration: chmu`; docs/cxl-device.md, "The policy it drives"):
// Algorithm 1 on the trackers' regions, whose sharer bits choose what goes to the pool, except
// that the pool's own regions are judged by the pool device's CXL Hotness Monitoring Unit: a pool
// region none of whose units the hotlist reported in the phase is cold and may leave, one reported
// stays, whatever its count (T0 has none). An interleaved pool's devices each report units of their
// own addresses, which the policy maps back into the window. The CHMU's epochs are the phases: at each boundary the
// policy ends the epoch and drains the hotlist. A hotlist that overflowed in the phase is
// incomplete, so that phase judges by LO as Algorithm 1 does (docs/decisions.md).
#include <algorithm>

#include "common/diagnostics.hpp"
#include "os/phase_policy.hpp"
#include "pool/pool_monitors.hpp"

namespace starnuma {

namespace {

class ChmuPolicy : public PhasePolicy {
 public:
  explicit ChmuPolicy(const PhasePolicySetup& s)
      : policy_(algorithm1_of(s)),
        chmu_(s.chmu),
        pool_(s.pool),
        pages_per_region_(s.metadata ? s.metadata->layout().config().pages_per_region : 1),
        counter_bits_(s.metadata ? s.metadata->layout().config().counter_bits : 0) {
    if (s.knowledge != MigrationKnowledge::Tracker || !s.metadata)
      report_error(msg::kConfig,
                   "os.migration: chmu takes the pool's candidates from the trackers' sharer bits: it needs "
                   "os.policy: tracker and the tracking hardware (topology.socket.tracking.impl: model or rtl)");
    if (pool_ == static_cast<size_t>(-1))
      report_error(msg::kConfig, "os.migration: chmu needs a StarNUMA pool (a node of type pool)");
    if (!chmu_ || !chmu_->enabled())
      report_error(msg::kConfig,
                   "os.migration: chmu reads the pool's hotness monitor, which is off (set nodes.<pool>.chmu.enabled: "
                   "true, on every device of an interleave set; docs/cxl-device.md)");
    if (chmu_->unit_bytes() == 0)
      report_error(msg::kConfig,
                   "os.migration: chmu reads the hotlists of the pool's interleaved devices as one, "
                   "which needs the same chmu.unit on each");
    chmu_->hand_epochs_to_os();
  }

  PhaseChoice decide(const PhaseView& view) override {
    chmu_->end_epoch();
    hotlist_.clear();
    chmu_->drain(hotlist_);
    const uint64_t dropped = chmu_->dropped() - dropped_;
    dropped_ = chmu_->dropped();
    mark_hot_regions(*view.pages);

    std::vector<ScannedRegion> regions = view.scan->regions;
    uint64_t hot = 0, cold = 0;
    if (dropped == 0)
      for (ScannedRegion& g : regions) {
        if (g.location != pool_) continue;
        const bool reported = std::binary_search(hot_regions_.begin(), hot_regions_.end(), g.id);
        g.coldness = reported ? ScannedRegion::Coldness::Hot : ScannedRegion::Coldness::Cold;
        ++(reported ? hot : cold);
      }
    PhaseChoice c;
    c.decision = policy_.decide(regions, view.free_pages, view.phase);
    c.moves = pages_to_move(*view.scan, c.decision);
    uint64_t pool_victims = 0;
    for (const Move& m : c.decision.moves) pool_victims += m.kind == MoveKind::Victim && m.from == pool_;
    c.fields["chmu_hotlist_units"] = hotlist_.size();
    c.fields["chmu_dropped"] = dropped;
    c.fields["chmu_pool_regions_hot"] = hot;
    c.fields["chmu_pool_regions_cold"] = cold;
    c.fields["chmu_pool_victims"] = pool_victims;
    return c;
  }

  std::string description() const override {
    return "Algorithm 1 on T" + std::to_string(counter_bits_) + " trackers, the pool's victims by its CHMU";
  }

 private:
  // The regions (tracker region numbers) the drained hotlist's units cover, sorted.
  void mark_hot_regions(const PageMap& pages) {
    hot_regions_.clear();
    const uint64_t base = pages.nodes()[pool_].base, unit = chmu_->unit_bytes();
    const uint64_t region_bytes = pages.page_size() * pages_per_region_;
    for (const auto& [position, e] : hotlist_) {
      // A unit's addresses are in order in the window too, between those of its first and last bytes
      // (with other devices' chunks among them when the unit spans several chunks).
      const uint64_t first = base + chmu_->window_offset(position, e.unit * unit),
                     last = base + chmu_->window_offset(position, e.unit * unit + unit - 1);
      for (uint64_t r = first / region_bytes; r <= last / region_bytes; ++r) hot_regions_.push_back(r);
    }
    std::sort(hot_regions_.begin(), hot_regions_.end());
    hot_regions_.erase(std::unique(hot_regions_.begin(), hot_regions_.end()), hot_regions_.end());
  }

  MigrationPolicy policy_;
  PoolMonitors* chmu_;
  size_t pool_;
  uint64_t pages_per_region_;
  unsigned counter_bits_;
  std::vector<std::pair<size_t, HotlistEntry>> hotlist_;  // (device position, entry)
  std::vector<uint64_t> hot_regions_;
  uint64_t dropped_ = 0;
};

}  // namespace

STARNUMA_REGISTER_PHASE_POLICY(
    ChmuPolicy, "chmu", true,
    "Algorithm 1 on the trackers' sharer bits, the pool's victims chosen by the pool "
    "device's CXL Hotness Monitoring Unit (regions its hotlist did not report in the phase)");

}  // namespace starnuma
