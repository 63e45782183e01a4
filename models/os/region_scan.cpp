#include "os/region_scan.hpp"

#include <algorithm>
#include <map>

namespace starnuma {

RegionScan scan_tracker_metadata(const PageMap& pages, const TrackerMetadata& md) {
  const uint64_t per_region = md.layout().config().pages_per_region;
  const bool t0 = md.layout().config().counter_bits == 0;
  RegionScan scan;
  for (size_t n = 0; n < pages.nodes().size(); ++n) {
    const uint64_t first = pages.first_frame(n), end = first + pages.frames_used(n);
    for (uint64_t r = first / per_region; r * per_region < end; ++r) {
      ++scan.entries;
      ScannedRegion g;
      std::vector<uint64_t> held;
      for (uint64_t f = std::max(first, r * per_region); f < std::min(end, (r + 1) * per_region); ++f) {
        const uint64_t v = pages.owner(n, f - first);
        if (v == PageMap::kNoPage) continue;
        held.push_back(v);
        g.moves = std::max(g.moves, pages.moves(v));
      }
      if (held.empty()) continue;
      g.id = r;
      g.location = n;
      g.sharers = r < md.regions() ? md.sharers(r) : 0;
      g.hotness = t0 ? static_cast<uint64_t>(__builtin_popcountll(g.sharers)) : (r < md.regions() ? md.count(r) : 0);
      g.pages = held.size();
      scan.regions.push_back(g);
      scan.region_pages.push_back(std::move(held));
    }
  }
  return scan;
}

RegionScan scan_page_counts(const PageMap& pages, const PageCounter& counts) {
  struct Page {
    uint64_t total = 0, sharers = 0, best_count = 0;
    int best = -1;
  };
  std::map<uint64_t, Page> seen;  // in page order
  counts.for_each([&](uint64_t vpage, size_t socket, uint32_t n) {
    Page& p = seen[vpage];
    p.total += n;
    p.sharers |= uint64_t{1} << socket;
    if (n > p.best_count || (n == p.best_count && static_cast<int>(socket) < p.best)) {
      p.best_count = n;
      p.best = static_cast<int>(socket);
    }
  });
  RegionScan scan;
  for (const auto& [vpage, p] : seen) {
    if (!pages.placed(vpage)) continue;
    ScannedRegion g;
    g.id = vpage;
    g.location = pages.node_of(vpage);
    g.hotness = p.total;
    g.sharers = p.sharers;
    g.preferred = p.best;
    g.pages = 1;
    g.moves = pages.moves(vpage);
    scan.regions.push_back(g);
    scan.region_pages.push_back({vpage});
  }
  // Victims: with perfect knowledge every placed page is known; those not accessed are coldest.
  // They are found through the map's frames, in physical order.
  for (size_t n = 0; n < pages.nodes().size(); ++n) {
    for (uint64_t i = 0; i < pages.frames_used(n); ++i) {
      const uint64_t v = pages.owner(n, i);
      if (v == PageMap::kNoPage || seen.count(v)) continue;
      ScannedRegion g;
      g.id = v;
      g.location = n;
      g.pages = 1;
      g.moves = pages.moves(v);
      scan.regions.push_back(g);
      scan.region_pages.push_back({v});
    }
  }
  return scan;
}

PolicyConfig policy_config(const OsSettings& os, MigrationKnowledge knowledge, const TrackerMetadata* metadata,
                           std::vector<size_t> socket_node, size_t pool) {
  const size_t sockets = socket_node.size();
  PolicyConfig c;
  c.sockets = sockets;
  c.socket_node = std::move(socket_node);
  c.pool = pool;
  c.pool_sharers = os.pool_sharers(sockets);
  c.limit_pages = os.migration_limit();
  // The thresholds are the paper's, for phases of 1 B instructions per thread: counts grow with
  // the phase, so they scale with its length.
  const double scale = static_cast<double>(os.phase_instructions()) / 1e9;
  c.hi_start = std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(os.hi_start()) * scale));
  c.lo_start = static_cast<uint64_t>(static_cast<double>(os.lo_start()) * scale);
  c.lo_max = std::max(c.lo_start, static_cast<uint64_t>(static_cast<double>(os.lo_max()) * scale));
  if (knowledge == MigrationKnowledge::Perfect) {
    // Counts per page, not per region: the thresholds scale down by the pages of a region.
    const uint64_t per_region = 128;
    c.hi_start = std::max<uint64_t>(1, c.hi_start / per_region);
    c.lo_start /= per_region;
    c.lo_max = std::max<uint64_t>(c.lo_start, c.lo_max / per_region);
  } else if (metadata && metadata->layout().config().counter_bits == 0) {
    // T0: hotness is the sharer count; HI fixed just below the required sharers; a victim is a
    // region no socket touched in the phase.
    c.hi_start = os.t0_sharers(sockets) - 1;
    c.lo_start = c.lo_max = 0;
    c.adapt = false;
  }
  return c;
}

std::vector<PageMove> pages_to_move(const RegionScan& scan, const PhaseDecision& decision) {
  std::vector<PageMove> moves;
  for (const Move& m : decision.moves)
    for (uint64_t v : scan.region_pages[m.region]) moves.push_back({v, m.to, m.kind});
  std::stable_partition(moves.begin(), moves.end(), [](const PageMove& m) { return m.kind == MoveKind::Victim; });
  return moves;
}

}  // namespace starnuma
