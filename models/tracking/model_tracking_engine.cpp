#include "tracking/tracking_engine.hpp"

namespace starnuma {
namespace {

class ModelEngine final : public TrackingEngine {
 public:
  // One TrackerUpdateModel serves any number of trackers: it keeps no state between flushes.
  explicit ModelEngine(const EngineConfig& c) : tracker_(c.tracker) {
    for (unsigned k = 0; k < c.cores; ++k)
      annexes_.emplace_back(AnnexConfig{c.tlb_entries, c.tracker.counter_bits, c.socket});
    flushes_.reserve(2);  // a beat makes at most two (an eviction and a marked hit)
  }

  void apply(unsigned core, const AnnexBeat& beat, MetadataMemory& memory) override {
    flushes_.clear();
    annexes_[core].apply(beat, flushes_);
    for (const FlushRequest& f : flushes_) tracker_.update(f, memory);
  }

 private:
  std::vector<TlbCounterAnnexModel> annexes_;
  TrackerUpdateModel tracker_;
  std::vector<FlushRequest> flushes_;
};

}  // namespace

std::unique_ptr<TrackingEngine> make_model_engine(const EngineConfig& config) {
  return std::make_unique<ModelEngine>(config);
}

}  // namespace starnuma
