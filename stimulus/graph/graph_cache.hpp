// Kronecker graphs kept on disk between processes (docs/workloads.md, "Graph sizes and what they
// cost"). With STARNUMA_GRAPH_CACHE naming a folder, a graph is generated once, written there, and
// read back by every later process asking for the same scale, degree and seed: the runs of a sweep
// (`starnuma sweep` sets the folder to OUT/graphs), each of which builds its workload in two
// processes. A file that is not what its name promises (another generator version, truncated, a
// CRC that does not match) is a starnuma/input error naming it; it is never used or replaced.
#pragma once

#include <cstdint>
#include <string>

#include "stimulus/graph/kronecker.hpp"

namespace starnuma {

// kronecker_graph(scale, degree, seed), from the cache folder when one is set.
CsrGraph kronecker_graph_cached(unsigned scale, unsigned degree, uint64_t seed);
// The folder STARNUMA_GRAPH_CACHE names ("" when unset or empty).
std::string graph_cache_folder();
// Where the graph's file is (or would be) in `folder`.
std::string graph_cache_path(const std::string& folder, unsigned scale, unsigned degree, uint64_t seed);

}  // namespace starnuma
