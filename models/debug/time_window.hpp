// The windows of simulated time the recordings take (`--waves-window`, `--trace-window`).
#pragma once

#include <cstdint>
#include <string>

namespace starnuma {

// Reads "START:END" (times with units, either side may be left out) into the picosecond bounds,
// which keep their defaults where a side is empty; a starnuma/usage error names `option`.
void parse_time_window(const std::string& option, const std::string& text, int64_t& start_ps, int64_t& end_ps);

}  // namespace starnuma
