// The host memory a command may use (`starnuma --max-host-memory SIZE`, default 90 % of this
// host's physical memory). Enforced twice: configurations whose size is known before anything is
// built (cache and TLB arrays) are refused up front naming the parameter, and the process's address
// space is capped, so anything else that would exhaust the host (a workload's footprint, a graph's
// scale) fails an allocation and ends as a clear error (exit 1) instead of the kernel killing it.
#pragma once

#include <cstdint>
#include <string>

namespace starnuma {

// Bytes of this host's physical memory.
uint64_t host_physical_memory();
// Sets the limit (0: the default) and caps the address space at it.
void set_host_memory_limit(uint64_t bytes);
uint64_t host_memory_limit();
// Bytes as a person reads them ("21.2 GiB").
std::string approximate_size(uint64_t bytes);
// The error text for an allocation that failed under the cap.
std::string host_memory_exhausted_message();

}  // namespace starnuma
