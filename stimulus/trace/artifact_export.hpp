// A starnuma trace written as the StarNUMA artifact's trace set (artifact.hpp), so the artifact's
// simulator (NUMA_Csim) runs the very streams a starnuma run reads: experiments/artifact/ runs
// both on one set for the speed comparison in docs/performance.md. docs/traces.md, "Writing a
// set for the artifact".
//
// The folder gets, for phase P:
//   champsim_<T>_<P>.trace       the detailed socket's threads (T < detailed_threads), uncompressed
//                                (the artifact's reader wants them xz-compressed: `xz` them)
//   mtrace_t<T>_<P>.out          every thread's memory accesses
//   pagemaps/phase<P>_pagemaps/page_owner_pre.txt and page_owner_post.txt
//                                one placement for both simulators (the same file twice: no
//                                migration): each page on the socket whose threads access it most
#pragma once

#include <cstdint>
#include <string>

namespace starnuma::trace {

struct ArtifactExport {
  std::string trace;  // the starnuma trace (trace record's)
  std::string out;    // the folder to write (atomically)
  uint64_t phase = 1;
  unsigned detailed_threads = 4;  // the artifact's detailed socket's cores: threads 0 to N-1
  unsigned cores_per_socket = 4;  // thread t is on socket t / cores_per_socket, as in the artifact
  bool from_measurement = false;  // leave out the workload's initialisation
};

struct ArtifactExportResult {
  unsigned threads = 0;
  uint64_t accesses = 0;   // over all threads
  uint64_t pages = 0;      // in the page-owner file
  uint64_t skipped = 0;    // ops of initialisation left out, over all threads
  std::string owner_file;  // page_owner_pre.txt's final path
};

// Raises starnuma/usage when the options do not fit the trace (its threads are not whole sockets,
// more detailed threads than it has), starnuma/input when an access has no ChampSim form.
ArtifactExportResult export_artifact_set(const ArtifactExport& options);

}  // namespace starnuma::trace
