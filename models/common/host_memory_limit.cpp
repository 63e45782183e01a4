#include "common/host_memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace starnuma {

namespace {
uint64_t limit_bytes = 0;
}

uint64_t host_physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// AddressSanitizer reserves its shadow memory as address space, far beyond any physical limit.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

void set_host_memory_limit(uint64_t bytes) {
  limit_bytes = bytes ? bytes : host_physical_memory() / 10 * 9;
  if (limit_bytes == 0 || kAddressSanitizer) return;  // ASan maps terabytes of shadow: no cap fits it
  struct rlimit r {};
  if (::getrlimit(RLIMIT_AS, &r) != 0) return;
  // Never above a cap the environment already set.
  const rlim_t want = static_cast<rlim_t>(limit_bytes);
  r.rlim_cur = r.rlim_max == RLIM_INFINITY ? want : std::min(want, r.rlim_max);
  ::setrlimit(RLIMIT_AS, &r);
}

uint64_t host_memory_limit() { return limit_bytes ? limit_bytes : host_physical_memory() / 10 * 9; }

std::string approximate_size(uint64_t bytes) {
  char b[32];
  if (bytes >= (uint64_t{1} << 40))
    std::snprintf(b, sizeof b, "%.1f TiB", static_cast<double>(bytes) / (uint64_t{1} << 40));
  else if (bytes >= (uint64_t{1} << 30)) std::snprintf(b, sizeof b, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  else std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return b;
}

std::string host_memory_exhausted_message() {
  return "out of host memory: this configuration needs more than the " + approximate_size(host_memory_limit()) +
         " allowed (starnuma --max-host-memory SIZE; default 90 % of this host's memory). What grows with it: "
         "the caches' and TLBs' sizes, the workload's footprint (footprint=, pages=), a graph's scale";
}

}  // namespace starnuma
