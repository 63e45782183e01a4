#include "memory/ddr5.hpp"

#include "common/registry.hpp"

namespace starnuma {

using namespace literals;

Ddr5Controller::Ddr5Controller(sc_core::sc_module_name name, const ScopeContext& ctx,
                               const Ddr5Defaults& defaults)
    : Component(name, ctx),
      channels_(*this, "channels", defaults.channels, "Independent DDR5 channels", between(1u, 64u)),
      channel_capacity_(*this, "channel_capacity", defaults.channel_capacity, "Capacity of one channel",
                        between(1_MiB, Size::from_bytes(uint64_t{1} << 42))) {}

namespace {
struct StandaloneDdr5 : Ddr5Controller {
  StandaloneDdr5(sc_core::sc_module_name n, const ScopeContext& c) : Ddr5Controller(n, c, {6, 32_GiB}) {}
};
}  // namespace

STARNUMA_REGISTER_COMPONENT(StandaloneDdr5, "ddr5", Role::Part, "DDR5 memory controller and its channels");

}  // namespace starnuma
