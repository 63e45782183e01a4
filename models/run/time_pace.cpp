#include "run/time_pace.hpp"

#include <algorithm>
#include <cmath>

#include "common/diagnostics.hpp"
#include "fabric/fabric.hpp"
#include "socket/socket.hpp"

namespace starnuma {

TimePace::TimePace(const Fabric& fabric, const std::vector<ThreadPlace>& threads, unsigned quantum_cycles)
    : quantum_cycles_(quantum_cycles), clock_fs_(threads.size(), 0) {
  if (threads.empty() || quantum_cycles == 0) report_internal("TimePace: no threads, or a quantum of 0 cycles");
  const auto& sockets = fabric.requesters();
  const auto& map = fabric.address_map();
  ranges_ = map.size();
  for (size_t r = 0; r < map.size(); ++r) windows_.push_back({map[r].base, map[r].base + map[r].size, r});
  std::sort(windows_.begin(), windows_.end(), [](const Window& a, const Window& b) { return a.base < b.base; });
  miss_fs_.assign(sockets.size() * ranges_, 0);
  for (size_t s = 0; s < sockets.size(); ++s) {
    const Socket& socket = *sockets[s];
    const auto cycle_fs = static_cast<uint64_t>(std::llround(1e15 / socket.frequency().hz()));
    const CoreConfig& core = socket.core_config();
    const uint64_t lookups_fs =
        uint64_t{core.l1d.latency() + core.l2.latency() + socket.llc_config().latency()} * cycle_fs;
    for (size_t r = 0; r < ranges_; ++r)
      miss_fs_[s * ranges_ + r] = lookups_fs + static_cast<uint64_t>(fabric.unloaded_latency(s, r).ps()) * 1000;
  }
  for (const ThreadPlace& p : threads) {
    const Socket& socket = *sockets[p.socket];
    const auto cycle_fs = static_cast<uint64_t>(std::llround(1e15 / socket.frequency().hz()));
    cycle_fs_.push_back(cycle_fs);
    instruction_fs_.push_back(cycle_fs / socket.core_config().width);
    socket_.push_back(p.socket);
  }
  quantum_fs_ = uint64_t{quantum_cycles} * cycle_fs_[0];
  horizon_fs_ = quantum_fs_;
}

void TimePace::miss(size_t t, uint64_t line, unsigned line_shift) {
  const uint64_t address = line << line_shift;
  auto w = std::upper_bound(windows_.begin(), windows_.end(), address,
                            [](uint64_t a, const Window& x) { return a < x.base; });
  if (w == windows_.begin() || address >= (--w)->end)
    report_internal("TimePace: line " + std::to_string(line) + " outside the address map");
  clock_fs_[t] += miss_fs_[socket_[t] * ranges_ + w->range];
}

double TimePace::cycles(size_t t) const {
  return static_cast<double>(clock_fs_[t]) / static_cast<double>(cycle_fs_[t]);
}

}  // namespace starnuma
