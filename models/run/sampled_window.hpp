// Step C of the sampled evaluation: one timing window started from a checkpoint (os/checkpoint.hpp).
// The window resumes every thread's stream where the functional pass left it at the phase
// boundary, restores the page map there frame by frame, and gives the OS thread the phase's moves
// to replay (MigrationEngine::Setup::Replay). A checkpoint serves any platform with the same
// threads on the same number of sockets (its nodes are named by role: socket index or pool).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "os/checkpoint.hpp"
#include "os/migration_engine.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

class Fabric;

// Refuses, as a starnuma/input error naming `path`, a checkpoint another workload, seed, thread
// layout or starnuma version made.
void check_checkpoint(const Checkpoint& c, const std::string& path, const Fabric& fabric, const std::string& workload,
                      uint64_t seed);

// Gives the empty `pages` the checkpoint's frames; `socket_node` and `pool` as the run's.
void restore_pages(const Checkpoint& c, const std::string& path, PageMap& pages, const std::vector<size_t>& socket_node,
                   size_t pool);

// The phase's moves for the OS thread, their nodes translated to the run's.
MigrationEngine::Setup::Replay replay_of(const Checkpoint& c, const std::vector<size_t>& socket_node, size_t pool);

// A unit's copies still in flight: the pass made every move of the unit's boundary, and a
// continuous run would have started only the first `copies_done` of them by the unit; the others
// go back to their source node in `pages` (the last first) and are returned, nodes translated, to
// be copied again in the window. A page that cannot go back (its source has no free frame, or it
// moved since) stays where it is and is counted in `stayed`; `vacated`: the frames the pass had
// copied them to, free again (what the pass's caches hold of them is not the window's).
struct InFlight {
  std::vector<PageMove> moves;
  uint64_t stayed = 0;
  std::vector<uint64_t> vacated;
};
InFlight take_back_in_flight(const Checkpoint& c, uint64_t copies_done, PageMap& pages,
                             const std::vector<size_t>& socket_node, size_t pool);

// How many of a phase's `moves` copies had started `offset` instructions (the mean thread's) into
// the phase, from a window of that phase that watched `observed` instructions and started
// copies at `started` (ascending offsets): counted where the window saw, beyond it extrapolated at
// the rate between its first copy and its end (none seen: none started).
uint64_t copies_started_by(const std::vector<uint64_t>& started, uint64_t observed, uint64_t moves, uint64_t offset);

// `stream` from operation `ops` on; barriers it passes no longer start measurement (the window
// measures from its own warm-up's end). Raises an input error naming `path` if the stream ends first.
std::unique_ptr<ThreadStream> resume_stream(std::unique_ptr<ThreadStream> stream, uint64_t ops,
                                            const std::string& path);

}  // namespace starnuma
