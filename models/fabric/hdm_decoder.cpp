#include "fabric/hdm_decoder.hpp"

#include "common/bits.hpp"

namespace starnuma {

using namespace literals;

bool hdm_ways_defined(unsigned ways) {
  return is_power_of_two(ways) ? ways <= 16 : ways == 3 || ways == 6 || ways == 12;
}

HdmDecoder::HdmDecoder(const ScopeContext& c)
    : ParamScope(c),
      set_(*this, "set", "",
           "The interleave set the device belongs to: the devices naming one set make one window of the address "
           "map (one NUMA node, named after the set); empty: the device's own range, not interleaved"),
      ways_(*this, "ways", 1, "Devices in the set (the decoder's interleave ways: 1, 2, 4, 8, 16, or 3, 6, 12)",
            between(1u, 16u)),
      granularity_(*this, "granularity", 256_B,
                   "Bytes of the window each device takes in turn (the interleave granularity, a power of two)",
                   between(256_B, 16_KiB)),
      position_(*this, "position", 0, "The device's place in the set, 0 to ways - 1 (the chunks it takes)",
                between(0u, 15u)) {
  if (!hdm_ways_defined(ways_.get()))
    error_at("ways", "must be 1, 2, 4, 8, 16, 3, 6 or 12 (the interleaves CXL defines), not " + ways_.value_text());
  if (!is_power_of_two(granularity_.get().bytes()))
    error_at("granularity", "must be a power of two, not " + granularity_.value_text());
  if (position_.get() >= ways_.get())
    error_at("position", "must be below the set's " + ways_.value_text() + " ways, not " + position_.value_text());
  if (!interleaved() && (ways_.get() != 1 || position_.get() != 0))
    error_at(ways_.get() != 1 ? "ways" : "position", "places the device in an interleave set, which needs a set name");
}

}  // namespace starnuma
