// What runs a pool's CHMU (`nodes.pool.chmu.impl`): ChmuModel, or the Verilated rtl/chmu.sv driven
// cycle by cycle. Both take the same requests in the same order and give the same hotlist and
// statistics (cli.chmu_rtl_matches_model).
#pragma once

#include <memory>
#include <vector>

#include "pool/chmu_model.hpp"

namespace starnuma {

class ChmuEngine {
 public:
  virtual ~ChmuEngine() = default;
  virtual void access(uint64_t offset, bool write) = 0;
  virtual void end_epoch() = 0;
  // Appends the ring's entries from head to tail and hands them back to the device.
  virtual void drain(std::vector<HotlistEntry>& out) = 0;
  // Kept current after every call (the statistics refer to these fields).
  virtual const ChmuStats& stats() const = 0;
};

std::unique_ptr<ChmuEngine> make_model_chmu(const ChmuGeometry& geometry, const ChmuConfig& config);
// The platform's one RTL build (rtl/CMakeLists.txt): its geometry, and the engine for it.
ChmuGeometry rtl_chmu_geometry();
std::unique_ptr<ChmuEngine> make_rtl_chmu(const ChmuConfig& config);

}  // namespace starnuma
