// The hotness monitors of the pool's window of the address map (pool/pool_chmu.hpp): one device's
// CHMU, or, for an HDM interleave set (fabric/hdm_decoder.hpp), one per device, each counting its
// own device addresses while the devices take the window's chunks in turn. What the OS reads
// (os/chmu_policy.cpp) is their hotlists together, each unit mapped back into the window.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common/units.hpp"
#include "pool/pool_chmu.hpp"

namespace starnuma {

class PoolMonitors {
 public:
  PoolMonitors() = default;
  // `devices` by their position in the set (one: not interleaved), `granularity` its chunk in bytes.
  PoolMonitors(std::vector<PoolChmu*> devices, uint64_t granularity)
      : devices_(std::move(devices)), granularity_(granularity) {}

  size_t ways() const { return devices_.size(); }
  PoolChmu& device(size_t position) { return *devices_[position]; }
  // Whether every device has its monitor on (none when there is no pool).
  bool enabled() const {
    if (devices_.empty()) return false;
    for (const PoolChmu* d : devices_)
      if (!d->enabled()) return false;
    return true;
  }
  // A request at `offset` into the window, as the device serving it sees it (the functional pass).
  void observe(Time arrival, MemOp op, uint64_t offset) {
    if (devices_.size() == 1) return devices_[0]->observe(arrival, op, offset);
    const uint64_t chunk = offset / granularity_, ways = devices_.size();
    devices_[chunk % ways]->observe(arrival, op, chunk / ways * granularity_ + offset % granularity_);
  }
  // The window offset of `device_offset` on the device at `position`.
  uint64_t window_offset(size_t position, uint64_t device_offset) const {
    if (devices_.size() == 1) return device_offset;
    return (device_offset / granularity_ * devices_.size() + position) * granularity_ + device_offset % granularity_;
  }
  void hand_epochs_to_os() {
    for (PoolChmu* d : devices_) d->hand_epochs_to_os();
  }
  void end_epoch() {
    for (PoolChmu* d : devices_) d->end_epoch();
  }
  // Every device's hotlist, drained: (its position, the entry) in position order.
  void drain(std::vector<std::pair<size_t, HotlistEntry>>& out) {
    for (size_t p = 0; p < devices_.size(); ++p) {
      scratch_.clear();
      devices_[p]->drain(scratch_);
      for (const HotlistEntry& e : scratch_) out.emplace_back(p, e);
    }
  }
  uint64_t dropped() const {
    uint64_t n = 0;
    for (const PoolChmu* d : devices_) n += d->dropped();
    return n;
  }
  // The devices' unit, when they all have one (0 when they differ: the OS cannot read them as one).
  uint64_t unit_bytes() const {
    const uint64_t unit = devices_.empty() ? 0 : devices_[0]->unit_bytes();
    for (const PoolChmu* d : devices_)
      if (d->unit_bytes() != unit) return 0;
    return unit;
  }

 private:
  std::vector<PoolChmu*> devices_;
  uint64_t granularity_ = 0;
  std::vector<HotlistEntry> scratch_;
};

}  // namespace starnuma
