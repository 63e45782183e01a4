#include "os/migration_policy.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"

namespace starnuma {

MigrationPolicy::MigrationPolicy(PolicyConfig config, uint64_t seed)
    : config_(config), rng_(seed), hi_(config.hi_start), lo_(config.lo_start) {
  if (config_.sockets == 0 || config_.sockets > 64) report_internal("the migration policy takes 1 to 64 sockets");
}

size_t MigrationPolicy::random_sharer(uint64_t sharers) {
  sharers &= config_.sockets == 64 ? ~uint64_t{0} : (uint64_t{1} << config_.sockets) - 1;
  if (sharers == 0) return static_cast<size_t>(rng_() % config_.sockets);
  uint64_t k = rng_() % static_cast<uint64_t>(__builtin_popcountll(sharers));
  for (size_t s = 0;; ++s)
    if ((sharers >> s) & 1 && k-- == 0) return s;
}

PhaseDecision MigrationPolicy::decide(const std::vector<ScannedRegion>& regions, std::vector<uint64_t> free_pages,
                                      uint64_t phase) {
  PhaseDecision d;
  d.hi = hi_;
  d.lo = lo_;
  std::vector<char> moved(regions.size(), 0);
  // Victim search resumes per destination where it stopped, so it is one pass overall: a region
  // passed over (too hot, elsewhere, or its drawn destination without room) is not tried again
  // this phase. Algorithm 1 restarts from the first region each time; the first two reasons never
  // change within a phase, the third could.
  std::vector<size_t> cursor(free_pages.size(), 0);
  auto move = [&](size_t r, size_t to, MoveKind kind) {
    const ScannedRegion& g = regions[r];
    d.moves.push_back({r, g.location, to, kind});
    free_pages[g.location] += g.pages;
    free_pages[to] -= g.pages;
    d.pages += g.pages;
    moved[r] = 1;
  };
  // A victim's destination: a random sharer other than where it lives (its own location frees nothing).
  auto victim_destination = [&](const ScannedRegion& v) {
    uint64_t others = v.sharers;
    for (size_t s = 0; s < config_.sockets; ++s)
      if (node_of(s) == v.location) others &= ~(uint64_t{1} << s);
    for (int tries = 0; tries < 4; ++tries) {
      const size_t n = node_of(random_sharer(others));
      if (n != v.location) return n;
    }
    return static_cast<size_t>(-1);
  };
  auto cold = [&](const ScannedRegion& v) {
    return v.coldness == ScannedRegion::Coldness::ByHotness ? v.hotness <= lo_
                                                            : v.coldness == ScannedRegion::Coldness::Cold;
  };
  // Frees room for `need` pages at `at` by moving victims out; false when none is left.
  auto make_room = [&](size_t at, uint64_t need) {
    while (free_pages[at] < need) {
      size_t& i = cursor[at];
      size_t to = static_cast<size_t>(-1);
      for (; i < regions.size(); ++i) {
        const ScannedRegion& v = regions[i];
        if (moved[i] || v.location != at || !cold(v) || v.pages == 0) continue;
        to = victim_destination(v);
        if (to != static_cast<size_t>(-1) && free_pages[to] >= v.pages) break;
      }
      if (i == regions.size()) return false;
      move(i, to, MoveKind::Victim);
    }
    return true;
  };
  for (size_t r = 0; r < regions.size(); ++r) {
    if (d.pages >= config_.limit_pages) {  // checked before a move, so that a limit of 0 moves nothing
      d.limit_reached = true;
      break;
    }
    const ScannedRegion& g = regions[r];
    if (g.hotness <= hi_ || g.pages == 0 || moved[r]) continue;
    ++d.candidates;
    size_t best = node_of(g.preferred >= 0 ? static_cast<size_t>(g.preferred) : random_sharer(g.sharers));
    if (config_.pool != static_cast<size_t>(-1) &&
        static_cast<unsigned>(__builtin_popcountll(g.sharers)) > config_.pool_sharers)
      best = config_.pool;
    if (best == g.location) {
      ++d.home;
      continue;
    }
    if (g.moves * 4 > phase) {
      ++d.ping_pong;
      continue;
    }
    if (!make_room(best, g.pages)) {
      ++d.no_victim;
      continue;
    }
    move(r, best, MoveKind::Candidate);
  }
  // HI adapts to every region over it, not only those the pass reached before the limit.
  for (const ScannedRegion& g : regions)
    if (g.hotness > hi_) d.candidate_pages += g.pages;
  // A scan that saw no access at all (before the first phase mark flushed anything) says nothing
  // about where HI should be.
  if (std::any_of(regions.begin(), regions.end(), [](const ScannedRegion& g) { return g.hotness > 0; })) adapt(d);
  return d;
}

void MigrationPolicy::adapt(const PhaseDecision& d) {
  if (!config_.adapt || config_.limit_pages == 0) return;
  // HI: toward the value at which the candidates' pages match the limit, at most x8 a phase.
  const double ratio = static_cast<double>(d.candidate_pages) / static_cast<double>(config_.limit_pages);
  double hi = static_cast<double>(hi_);
  if (ratio > 1) hi *= std::min(ratio, 8.0);
  else if (ratio < 0.5) hi *= std::max(ratio, 0.125);
  hi_ = std::clamp(static_cast<uint64_t>(hi), config_.hi_min, config_.hi_max);
  // LO: raised when a destination was full and had no victim cold enough.
  if (d.no_victim > 0) lo_ = std::min(config_.lo_max, lo_ * 2);
}

}  // namespace starnuma
