// What a core's page walk asks of the OS's NUMA balancing (AutoNUMA, LACX: os/autonuma.hpp): whether
// a page is unmapped for a hinting fault, and the fault itself. The OS layer implements it; the
// core only calls it, as it calls a TlbObserver for the tracking hardware.
#pragma once

#include <cstddef>
#include <cstdint>

namespace starnuma {

class HintingFaults {
 public:
  virtual ~HintingFaults() = default;
  // Whether `vpage` is unmapped for a hinting fault.
  virtual bool armed(uint64_t vpage) const = 0;
  // The hinting fault of an access by core `core` on `socket` at local time `t` (fs), on a core
  // whose cycle is `cycle_fs`; returns when the access may go on (fs).
  virtual int64_t fault(uint64_t vpage, size_t socket, unsigned core, int64_t t, int64_t cycle_fs) = 0;
};

}  // namespace starnuma
