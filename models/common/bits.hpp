// Powers of two: the geometries of the hardware tables (sets, ways, sharer bits, units) must be one.
#pragma once

#include <cstdint>

namespace starnuma {

inline constexpr bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// log2 of a power of two (its trailing zeros).
inline constexpr unsigned log2_of_power(uint64_t power) { return static_cast<unsigned>(__builtin_ctzll(power)); }

}  // namespace starnuma
