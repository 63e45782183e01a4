#include "os/os_settings.hpp"

#include "common/diagnostics.hpp"

namespace starnuma {

template <>
const std::vector<std::string>& names_of<Placement>() {
  static const std::vector<std::string> names{"first-touch", "oracle", "dynamic"};
  return names;
}

template <>
const std::vector<std::string>& names_of<Allocation>() {
  static const std::vector<std::string> names{"first-touch", "interleave", "hybrid", "usage-aware", "weighted"};
  return names;
}

template <>
const std::vector<std::string>& names_of<MigrationRule>() {
  static const std::vector<std::string> names{"algorithm1", "balance", "autonuma", "lacx"};
  return names;
}

Placement OsSettings::placement() const { return enum_named<Placement>(placement_.get()); }
Allocation OsSettings::allocation() const { return enum_named<Allocation>(allocation_.get()); }
MigrationRule OsSettings::rule() const { return enum_named<MigrationRule>(migration_.get()); }

MigrationKnowledge OsSettings::knowledge(bool tracking_on) const {
  if (policy_.get() == "tracker") return MigrationKnowledge::Tracker;
  if (policy_.get() == "perfect") return MigrationKnowledge::Perfect;
  return tracking_on && rule() == MigrationRule::Algorithm1 ? MigrationKnowledge::Tracker : MigrationKnowledge::Perfect;
}

}  // namespace starnuma
