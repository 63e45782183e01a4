// The OS's scan at a migration phase boundary and what Algorithm 1 makes of it, shared by the
// timed OS thread (MigrationEngine) and the functional pass of sampled runs (run/functional_pass):
// both must decide from the same view of the same knowledge.
#pragma once

#include <cstdint>
#include <vector>

#include "os/migration_policy.hpp"
#include "os/os_settings.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_map.hpp"
#include "tracking/tracker_metadata.hpp"

namespace starnuma {

// What one scan saw: the regions in scan order and the placed virtual pages of each.
struct RegionScan {
  std::vector<ScannedRegion> regions;
  std::vector<std::vector<uint64_t>> region_pages;
  uint64_t entries = 0;  // tracker entries read (the scan's cost); 0 for perfect knowledge
};

// The tracker metadata's entries of the memory the OS has handed out (the rest holds no page to move).
RegionScan scan_tracker_metadata(const PageMap& pages, const TrackerMetadata& metadata);
// The baseline's perfect per-page counts, then every other placed page as a cold victim candidate.
RegionScan scan_page_counts(const PageMap& pages, const PageCounter& counts);

// Algorithm 1's configuration for a run: the os settings' thresholds scaled to the phase length (per
// page for perfect knowledge; T0's fixed HI when `metadata` has no counters).
PolicyConfig policy_config(const OsSettings& os, MigrationKnowledge knowledge, const TrackerMetadata* metadata,
                           std::vector<size_t> socket_node, size_t pool);

// One page to move, as the decision lists them.
struct PageMove {
  uint64_t vpage;
  size_t to;
  MoveKind kind;
};
// The decision's moves page by page, victims first (they make the room their candidate needs),
// in decision order otherwise.
std::vector<PageMove> pages_to_move(const RegionScan& scan, const PhaseDecision& decision);

}  // namespace starnuma
