// StarNUMA's Algorithm 1 (os/migration_policy.hpp) as a phase policy: regions from the trackers'
// metadata (tracker knowledge) or per-page counts (perfect knowledge).
#include "os/phase_policy.hpp"

namespace starnuma {

namespace {

class Algorithm1Policy : public PhasePolicy {
 public:
  explicit Algorithm1Policy(const PhasePolicySetup& s)
      : policy_(algorithm1_of(s)),
        counter_bits_(s.metadata ? s.metadata->layout().config().counter_bits : 0),
        tracker_(s.knowledge == MigrationKnowledge::Tracker) {}

  PhaseChoice decide(const PhaseView& view) override {
    PhaseChoice c;
    c.decision = policy_.decide(view.scan->regions, view.free_pages, view.phase);
    c.moves = pages_to_move(*view.scan, c.decision);
    return c;
  }
  std::string description() const override {
    return tracker_ ? "Algorithm 1 on T" + std::to_string(counter_bits_) + " trackers" : "perfect per-page knowledge";
  }

 private:
  MigrationPolicy policy_;
  unsigned counter_bits_;
  bool tracker_;
};

}  // namespace

STARNUMA_REGISTER_PHASE_POLICY(Algorithm1Policy, "algorithm1", true,
                               "StarNUMA's Algorithm 1: regions hotter than HI move to their best location (the "
                               "pool when widely shared, else a sharer), victims below LO make room");

}  // namespace starnuma
