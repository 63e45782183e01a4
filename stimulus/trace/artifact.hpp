// The StarNUMA artifact's trace set (github.com/albertycho/StarNUMA_Artifact, tracer/): one
// directory per workload, as its pintool leaves it, read as one multi-threaded program.
//
//   champsim_<T>_<P>.trace[.xz]  thread T's instructions in phase P (ChampSim records)
//   mtrace_t<T>_<P>.out          thread T's memory accesses in phase P (memtrace.hpp)
//   page_owner_pre.txt, page_owner_post.txt  (in the pagemap directories of mem_profile/) the
//                                owner of each 4 KiB virtual page before and after a phase's
//                                migration: "<virtual page number> <owner>" per line, decimal,
//                                owner a socket number or 100 (the pool, the artifact's CXO)
//
// docs/traces.md, "The StarNUMA artifact's traces", says what each file becomes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stimulus/stream.hpp"

namespace starnuma::trace {

inline constexpr uint64_t kArtifactPoolOwner = 100;  // the artifact's CXO: the pool
inline constexpr uint64_t kArtifactPageBytes = 4096;
// The tracer's phases (its PHASE_INTERVAL): phase P's traces start at instruction P x 10^9.
inline constexpr uint64_t kArtifactPhaseInstructions = 1000000000;

struct ArtifactSet {
  std::string dir;
  uint64_t phase = 0;
  std::vector<std::string> files;  // per thread
  std::vector<bool> champsim;      // per thread: a ChampSim trace (else a memory-access trace)
  std::string description;         // "artifact:DIR phase P (...)"
};

// Whether `path` names a directory (an artifact trace set rather than trace files).
bool is_trace_directory(const std::string& path);

// The set's files for phase `phase` (unset: the only phase it holds) over `threads` threads.
// Thread t reads its ChampSim trace when `detailed[t]` and it has one, else its memory-access
// trace, else its ChampSim trace (docs/traces.md says why). Raises starnuma/input naming the
// directory when a thread has neither, when the set's threads are not the run's, or the phase
// is missing or not given when several are there.
ArtifactSet find_artifact_set(const std::string& dir, unsigned threads, std::optional<uint64_t> phase,
                              const std::vector<bool>& detailed);

// The set as one program's threads; addresses are the traces' own (fold them with one_process).
class ArtifactWorkload : public Workload {
 public:
  explicit ArtifactWorkload(ArtifactSet set);  // checks every file's format
  unsigned threads() const override { return static_cast<unsigned>(set_.files.size()); }
  uint64_t footprint() const override { return 0; }  // unknown until read, as with ChampSim traces
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;

 private:
  ArtifactSet set_;
};

// Reads a page-owner file line by line, calling `each(line, page, owner)`; blank lines are
// skipped. Anything else than two decimal numbers on a line is a starnuma/input error naming the
// file and line.
void read_page_owners(const std::string& path, const std::function<void(uint64_t, uint64_t, uint64_t)>& each);

}  // namespace starnuma::trace
