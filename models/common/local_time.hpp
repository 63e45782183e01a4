// Local time of a temporally decoupled initiator (a core, a tracker update) against SystemC time.
// Initiators keep their own time in femtoseconds (a 2.4 GHz cycle is not a whole picosecond);
// SystemC's resolution is the picosecond. Waiting is for thread processes only.
#pragma once

#include <systemc>

#include <cstdint>

namespace starnuma {

// SystemC's resolution.
inline constexpr int64_t kFsPerPs = 1000;

// SystemC time, in fs.
inline int64_t sim_now_fs() { return static_cast<int64_t>(sc_core::sc_time_stamp().value()) * kFsPerPs; }

// Whether SystemC time is still a picosecond or more short of `fs`: what a wait can close.
inline bool sim_short_of_fs(int64_t fs) { return fs - sim_now_fs() >= kFsPerPs; }

// Waits until SystemC time reaches `fs`, rounded down to its picosecond (so a loop waiting for a
// time stops on !sim_short_of_fs, not on reaching it); returns at once if it already has.
inline void wait_until_fs(int64_t fs) {
  const int64_t now = sim_now_fs();
  if (fs > now) sc_core::wait(sc_core::sc_time::from_value(static_cast<sc_dt::uint64>((fs - now) / kFsPerPs)));
}

// Waits until SystemC time reaches `fs` if local time is `limit_fs` (> 0, the quantum) or more ahead.
inline void wait_if_ahead(int64_t fs, int64_t limit_fs) {
  if (fs - sim_now_fs() >= limit_fs) wait_until_fs(fs);
}

}  // namespace starnuma
