// A CXL memory device's HDM decoder (CXL 3.x, the HDM Decoder Capability Structure; docs/cxl-device.md,
// "HDM decoders and interleaving"): the device's place in an interleave set. Devices that name one
// `set` make one window of the physical address map, `ways` times a device's capacity, in which
// consecutive chunks of `granularity` bytes go to the devices in the order of their `position`;
// each device sees dense device addresses (its decoder removes the interleave bits). The fabric
// groups the devices and checks that they agree (fabric/fabric.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "common/param.hpp"
#include "common/scope.hpp"
#include "common/units.hpp"

namespace starnuma {

class HdmDecoder : public ParamScope {
 public:
  explicit HdmDecoder(const ScopeContext& c);

  bool interleaved() const { return !set_.get().empty(); }
  const std::string& set() const { return set_.get(); }
  unsigned ways() const { return ways_.get(); }
  uint64_t granularity() const { return granularity_.get().bytes(); }
  unsigned position() const { return position_.get(); }

 private:
  Param<std::string> set_;
  Param<unsigned> ways_;
  Param<Size> granularity_;
  Param<unsigned> position_;
};

// Whether `ways` is an interleave the specification defines: 1, 2, 4, 8, 16, or 3, 6, 12.
bool hdm_ways_defined(unsigned ways);

}  // namespace starnuma
