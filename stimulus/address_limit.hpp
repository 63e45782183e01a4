// The virtual addresses a platform's cores can translate, enforced on a workload's streams: an
// address beyond them is the user's input (a trace from another machine, a TLB made too small),
// reported with the workload, thread and op, never a failure deep inside a TLB.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "stimulus/stream.hpp"

namespace starnuma {

struct AddressLimit {
  uint64_t bytes = 0;  // every load and store address must be below this
  std::string reason;  // what sets it, for the message
};

// `workload` whose streams raise starnuma/input at the first load or store at or beyond `limit`,
// naming `what` (the workload's description or trace file).
std::unique_ptr<Workload> limit_addresses(std::unique_ptr<Workload> workload, std::string what, AddressLimit limit);

}  // namespace starnuma
