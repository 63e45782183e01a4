// The limits of the options the commands take, shared by the command line (main.cpp) and the checks
// of sweep files (sweep/sweep_spec.cpp), so that a sweep refuses up front exactly what its runs'
// commands would refuse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace starnuma::cli::limits {

inline constexpr uint64_t kMaxInstructions = uint64_t{1} << 50;  // per thread; warm-up too
inline constexpr int kMaxCheckpoints = 100000;
inline constexpr int kMaxJobs = 4096;                  // sampled windows at once (0: one per host core)
inline constexpr unsigned kMaxDetailedSockets = 4096;  // 0: all detailed
inline constexpr int kMaxProfileSockets = 64, kMaxProfileCores = 256;

inline const std::vector<std::string> kTraceSpaces{"separate", "shared"};
inline const std::vector<std::string> kPaces{"time", "turns"};  // checkpoint --pace

}  // namespace starnuma::cli::limits
