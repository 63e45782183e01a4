// A DDR5 memory controller with its channels. DDR5-4800 by default.
#pragma once

#include "common/component.hpp"

namespace starnuma {

struct Ddr5Defaults {
  unsigned channels;
  Size channel_capacity;
};

class Ddr5Controller : public Component {
 public:
  Ddr5Controller(sc_core::sc_module_name name, const ScopeContext& ctx, const Ddr5Defaults& defaults);
  unsigned channels() const { return channels_; }
  Size capacity() const { return Size::from_bytes(channel_capacity_->bytes() * channels_); }

 private:
  Param<unsigned> channels_;
  Param<Size> channel_capacity_;
};

}  // namespace starnuma
