// The migration decision of one phase: StarNUMA's Algorithm 1 (section III-D2), as a pure function
// of what the OS's scan saw, so every branch can be tested on hand-built regions.
//
// One pass over the regions in the scan's order. A region whose hotness exceeds HI is a
// candidate: its best location is the pool when more than `pool_sharers` sockets share it (and the
// machine has a pool), else its `preferred` socket when the scan knows one (the baseline's perfect
// knowledge), else a random sharer. If that is not where it lives and it is not ping-ponging (moved
// more than a quarter of the phase number), it moves; a full destination first loses victims:
// regions living there with hotness at or below LO, each to a random sharer of its own. The pass
// ends once the pages moved exceed the limit. A region another judge has called cold or hot
// (ScannedRegion::coldness) is a victim or not by that judgement instead of LO. Every choice the paper leaves open is
// documented in docs/os.md.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace starnuma {

struct PolicyConfig {
  uint64_t hi_start = 20000;  // HI: a region hotter than this is a candidate
  uint64_t hi_min = 1, hi_max = uint64_t{1} << 32;
  uint64_t lo_start = 1000;  // LO: a region at or below this may be a victim
  uint64_t lo_max = 10000;
  bool adapt = true;            // adapt HI and LO after each phase (T0: fixed)
  uint64_t limit_pages = 1024;  // pages moved per phase at most (the pass stops once reached)
  unsigned pool_sharers = 8;    // more sharers than this: the pool
  size_t sockets = 16;
  std::vector<size_t> socket_node;        // node index of each socket's memory (identity when empty)
  size_t pool = static_cast<size_t>(-1);  // node index of the pool; npos: none
};

// One region as the scan saw it.
struct ScannedRegion {
  uint64_t id = 0;       // the region's number (for reports)
  size_t location = 0;   // node its pages live on
  uint64_t hotness = 0;  // accesses (T_i), or sharer count (T0)
  uint64_t sharers = 0;  // bitmap, bit s: socket s accessed it
  int preferred = -1;    // the socket to move to when not the pool (-1: a random sharer)
  uint64_t pages = 0;    // placed pages in it
  uint64_t moves = 0;    // the most times any of its pages has migrated (ping-pong rule)
  // Whether it may be a victim: by its hotness against LO, or as another judge (the pool's CHMU,
  // os/chmu_policy.cpp) found it.
  enum class Coldness : uint8_t { ByHotness, Cold, Hot };
  Coldness coldness = Coldness::ByHotness;
};

enum class MoveKind : uint8_t { Candidate, Victim };

struct Move {
  size_t region;  // index into the scan
  size_t from, to;
  MoveKind kind;
};

struct PhaseDecision {
  std::vector<Move> moves;
  uint64_t pages = 0;            // pages of the moves
  uint64_t candidates = 0;       // regions over HI the pass reached
  uint64_t candidate_pages = 0;  // pages of every region over HI (drives HI's adaptation)
  uint64_t home = 0;             // candidates already at their best location
  uint64_t ping_pong = 0;        // candidates skipped as ping-ponging
  uint64_t no_victim = 0;        // candidates skipped: destination full and no victim found
  bool limit_reached = false;
  uint64_t hi = 0, lo = 0;  // the thresholds this phase used
};

class MigrationPolicy {
 public:
  MigrationPolicy(PolicyConfig config, uint64_t seed);

  // Decides phase `phase` (1, 2, ...). `free_pages[n]`: pages node n can still take. Adapts the
  // thresholds for the next phase afterwards.
  PhaseDecision decide(const std::vector<ScannedRegion>& regions, std::vector<uint64_t> free_pages, uint64_t phase);

  uint64_t hi() const { return hi_; }
  uint64_t lo() const { return lo_; }
  const PolicyConfig& config() const { return config_; }

 private:
  // A random socket of `sharers` (any socket when none).
  size_t random_sharer(uint64_t sharers);
  size_t node_of(size_t socket) const { return config_.socket_node.empty() ? socket : config_.socket_node[socket]; }
  void adapt(const PhaseDecision& d);

  PolicyConfig config_;
  std::mt19937_64 rng_;
  uint64_t hi_, lo_;
};

}  // namespace starnuma
