// Migration policies that decide at phase boundaries, by name: `os.migration: NAME` picks one for
// dynamic placement, and a new policy is one file that defines it and registers it with
// STARNUMA_REGISTER_PHASE_POLICY (os/algorithm1_policy.cpp and os/balance_policy.cpp are the
// built-in ones, with os/chmu_policy.cpp; `starnuma list` shows every registered policy). The migration engine does the
// rest in time (os/migration_engine.hpp). AutoNUMA and LACX decide at hinting faults instead, not
// in phases (os/autonuma.hpp); os.migration names them too.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/registry.hpp"
#include "os/migration_policy.hpp"
#include "os/os_settings.hpp"
#include "os/region_scan.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_map.hpp"
#include "tracking/tracker_metadata.hpp"

namespace starnuma {

class PoolMonitors;

// What a policy is built from, once per run.
struct PhasePolicySetup {
  const OsSettings* os = nullptr;
  MigrationKnowledge knowledge = MigrationKnowledge::Perfect;
  const TrackerMetadata* metadata = nullptr;  // tracker knowledge only
  std::vector<size_t> socket_node;            // node index of each socket's memory
  size_t pool = static_cast<size_t>(-1);      // the pool's node index, npos: none
  uint64_t seed = 1;
  PoolMonitors* chmu = nullptr;  // the pool's hotness monitors (os/chmu_policy.cpp), when it has a pool
};

// Algorithm 1 as the run's settings configure it, with the run's seed: what the policies built on it
// decide with (os/algorithm1_policy.cpp, os/chmu_policy.cpp).
inline MigrationPolicy algorithm1_of(const PhasePolicySetup& s) {
  return MigrationPolicy(policy_config(*s.os, s.knowledge, s.metadata, s.socket_node, s.pool), s.seed * 7919 + 17);
}

// What the phase saw, at its boundary.
struct PhaseView {
  uint64_t phase = 0;  // 1, 2, ...
  const PageMap* pages = nullptr;
  // A region policy's: the regions scanned (the trackers' metadata, or per-page counts as regions).
  const RegionScan* scan = nullptr;
  // A page policy's: every page's LLC misses in the phase per socket (perfect knowledge).
  const PageCounter* counts = nullptr;
  std::vector<uint64_t> free_pages;  // per node
};

// What a policy decided.
struct PhaseChoice {
  std::vector<PageMove> moves;  // in order
  PhaseDecision decision;       // the counters every phase reports (candidates, HI, LO, ...)
  // The policy's own figures of the phase, added to its record in stats.json.
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
};

class PhasePolicy {
 public:
  virtual ~PhasePolicy() = default;
  virtual PhaseChoice decide(const PhaseView& view) = 0;
  // What stats.json and the summary call the policy with its knowledge (e.g. "Algorithm 1 on T16
  // trackers").
  virtual std::string description() const = 0;
};

struct PhasePolicyType {
  std::string name;
  std::string description;
  // Decides on regions (the trackers' or per-page counts as regions); otherwise on per-page counts,
  // so it needs perfect knowledge.
  bool reads_regions = true;
  std::function<std::unique_ptr<PhasePolicy>(const PhasePolicySetup&)> create;
};
using PhasePolicyRegistry = Registry<PhasePolicyType>;

#define STARNUMA_REGISTER_PHASE_POLICY(CLASS, NAME, READS_REGIONS, DESCRIPTION)                   \
  static const bool STARNUMA_CONCAT(starnuma_registered_phase_policy_, __COUNTER__) =             \
      ::starnuma::PhasePolicyRegistry::instance().add(::starnuma::PhasePolicyType{                \
          NAME, DESCRIPTION, READS_REGIONS,                                                       \
          [](const ::starnuma::PhasePolicySetup& s) -> std::unique_ptr<::starnuma::PhasePolicy> { \
            return std::make_unique<CLASS>(s);                                                    \
          }})

// The registered phase policy `name`; null when none.
const PhasePolicyType* find_phase_policy(const std::string& name);

}  // namespace starnuma
