#include "os/os_settings.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "os/phase_policy.hpp"

namespace starnuma {

template <>
const std::vector<std::string>& names_of<Placement>() {
  static const std::vector<std::string> names{"first-touch", "oracle", "dynamic"};
  return names;
}

std::vector<std::string> migration_names() {
  // The built-in phase policies first, then the others by name.
  std::vector<std::string> names{"algorithm1", "balance"};
  for (const PhasePolicyType* t : PhasePolicyRegistry::instance().all())
    if (std::find(names.begin(), names.end(), t->name) == names.end()) names.push_back(t->name);
  names.insert(names.end(), {"autonuma", "lacx"});
  return names;
}

const PhasePolicyType* find_phase_policy(const std::string& name) { return PhasePolicyRegistry::instance().find(name); }

Placement OsSettings::placement() const { return enum_named<Placement>(placement_.get()); }

MigrationKnowledge OsSettings::knowledge(bool tracking_on) const {
  if (policy_.get() == "tracker") return MigrationKnowledge::Tracker;
  if (policy_.get() == "perfect") return MigrationKnowledge::Perfect;
  // Auto: the trackers' regions for a phase policy that reads regions, when the hardware is there.
  const PhasePolicyType* phases = find_phase_policy(migration());
  return tracking_on && phases && phases->reads_regions ? MigrationKnowledge::Tracker : MigrationKnowledge::Perfect;
}

}  // namespace starnuma
