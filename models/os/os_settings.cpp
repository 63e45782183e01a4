#include "os/os_settings.hpp"

namespace starnuma {

Placement OsSettings::placement() const {
  if (placement_.get() == "oracle") return Placement::Oracle;
  if (placement_.get() == "dynamic") return Placement::Dynamic;
  return Placement::FirstTouch;
}

Allocation OsSettings::allocation() const {
  const std::string& v = allocation_.get();
  if (v == "interleave") return Allocation::Interleave;
  if (v == "hybrid") return Allocation::Hybrid;
  if (v == "usage-aware") return Allocation::UsageAware;
  if (v == "weighted") return Allocation::Weighted;
  return Allocation::FirstTouch;
}

MigrationRule OsSettings::rule() const {
  const std::string& v = migration_.get();
  if (v == "balance") return MigrationRule::Balance;
  if (v == "autonuma") return MigrationRule::AutoNuma;
  if (v == "lacx") return MigrationRule::Lacx;
  return MigrationRule::Algorithm1;
}

MigrationKnowledge OsSettings::knowledge(bool tracking_on) const {
  if (policy_.get() == "tracker") return MigrationKnowledge::Tracker;
  if (policy_.get() == "perfect") return MigrationKnowledge::Perfect;
  return tracking_on && rule() == MigrationRule::Algorithm1 ? MigrationKnowledge::Tracker : MigrationKnowledge::Perfect;
}

}  // namespace starnuma
