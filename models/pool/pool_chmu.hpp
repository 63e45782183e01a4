// The pool device's CXL Hotness Monitoring Unit in a platform (`nodes.pool.chmu`; docs/cxl-device.md):
// beside the device's data path it counts every request the pool serves per unit of device
// memory and lists the hot units in a hotlist ring for the OS. It never delays a request. It runs
// as ChmuModel or as the Verilated rtl/chmu.sv (`impl`), which give the same counts bit for bit.
#pragma once

#include <cstdint>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "common/component.hpp"
#include "common/units.hpp"
#include "common/mem_access.hpp"
#include "pool/chmu_engine.hpp"

namespace starnuma {

class PoolChmu : public Component {
 public:
  PoolChmu(sc_core::sc_module_name n, const ScopeContext& c);

  bool enabled() const { return engine_ != nullptr; }
  // Switched off, it adds nothing to stats.json.
  bool reports_stats() const override { return enabled(); }
  // A request the device serves, at `arrival` (device time), at `offset` into its memory. Epochs
  // end on the device's clock: the first request at or after an epoch's end closes it.
  void observe(Time arrival, MemOp op, uint64_t offset) {
    if (engine_) count(arrival, op, offset);
  }
  // The OS reads the ring from head to tail and hands it back (appends to `out`).
  void drain(std::vector<HotlistEntry>& out);
  // A policy that reads the hotlist at its phase boundaries ends the epochs there instead of the
  // device's clock (os/chmu_policy.cpp): from now on only end_epoch() does.
  void hand_epochs_to_os() { next_epoch_ps_ = INT64_MAX; }
  void end_epoch();
  // Hot units lost to a full hotlist so far.
  uint64_t dropped() const { return engine_ ? engine_->stats().dropped : 0; }
  // The bits of state its table and hotlist hold (what the hardware costs; chmu_storage_bits).
  uint64_t storage_bits() const;
  // The unit's size in bytes (a hotlist entry's unit times this is its device offset).
  uint64_t unit_bytes() const { return unit_.get().bytes(); }
  // What it counted so far, or null when disabled.
  const ChmuStats* stats() const { return engine_ ? &engine_->stats() : nullptr; }

 private:
  void count(Time arrival, MemOp op, uint64_t offset);

  Param<bool> enabled_;
  Param<std::string> impl_;
  Param<unsigned> sets_;
  Param<unsigned> ways_;
  Param<unsigned> counter_bits_;
  Param<unsigned> hotlist_;
  Param<Size> unit_;
  Param<uint64_t> threshold_;
  Param<std::string> mode_;
  Param<Time> epoch_;
  Param<unsigned> down_sampling_;
  Param<bool> randomized_;
  Param<std::string> track_;
  Param<unsigned> notify_level_;
  std::unique_ptr<ChmuEngine> engine_;  // null when disabled
  int64_t next_epoch_ps_ = 0;
  std::vector<std::unique_ptr<StatBase>> stats_;  // the model's counters, when enabled
  uint64_t epochs_ = 0, drained_ = 0;
};

}  // namespace starnuma
