#include "os/os_settings.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"

namespace starnuma {

const std::vector<std::string>& placement_names() {
  static const std::vector<std::string> names{"first-touch", "oracle", "dynamic"};
  return names;
}

Placement placement_of(const std::string& name) {
  const auto& names = placement_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) report_internal("no placement named '" + name + "'");
  return static_cast<Placement>(it - names.begin());
}

Placement OsSettings::placement() const { return placement_of(placement_.get()); }

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
