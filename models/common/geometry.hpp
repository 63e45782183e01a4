// The line and the page: the two granularities every layer, from a workload's layout to the
// pool's directory, addresses memory in.
#pragma once

#include <cstdint>

namespace starnuma {

inline constexpr uint64_t kLineBytes = 64;
inline constexpr uint64_t kPageBytes = 4096;

}  // namespace starnuma
