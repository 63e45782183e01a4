#include "core/core_config.hpp"

namespace starnuma {

using namespace literals;

CacheConfig::CacheConfig(const ScopeContext& c, const CacheDefaults& d, const char* what, bool per_core)
    : ParamScope(c),
      per_core_(per_core),
      size_(*this, per_core ? "size_per_core" : "size", d.size,
            std::string("Capacity of the ") + what + (per_core ? " per core of the socket" : ""),
            between(64_B, Size::from_bytes(uint64_t{1} << 40))),
      ways_(*this, "ways", d.ways, "Associativity", between(1u, 64u)),
      latency_(*this, "latency", d.latency, "Load-to-use latency of a hit, in cycles", between(1u, 10000u)),
      replacement_(*this, "replacement", "lru", "Replacement policy", names_of<Replacement>()) {
  const char* key = per_core ? "size_per_core" : "size";
  if (size_->bytes() % (uint64_t{64} * ways_) != 0)
    error_at(key, format_size(size_) + " is not a whole number of sets of " + std::to_string(ways_.get()) +
                      " 64-byte lines");
}

TlbConfig::TlbConfig(const ScopeContext& c, unsigned entries, unsigned ways, unsigned latency, const char* what)
    : ParamScope(c),
      entries_(*this, "entries", entries, std::string("Entries of the ") + what, between(1u, 1u << 20)),
      ways_(*this, "ways", ways, "Associativity", between(1u, 64u)),
      latency_(*this, "latency", latency, "Extra cycles of a hit at this level", between(0u, 10000u)) {
  if (entries_ % ways_ != 0)
    error_at("entries",
             std::to_string(entries_.get()) + " entries do not divide into " + std::to_string(ways_.get()) + " ways");
}

StlbConfig::StlbConfig(const ScopeContext& c)
    : TlbConfig(c, 1536, 12, 7, "second-level TLB"),
      inclusive_(*this, "inclusive", "auto",
                 "Whether an STLB eviction also drops the translation from the L1 DTLB: true, false, or auto "
                 "(true exactly when the tracking hardware annexes the STLB, tracking.tlb: l2)",
                 names_of<StlbConfig::Inclusion>()) {}

template <>
const std::vector<std::string>& names_of<StlbConfig::Inclusion>() {
  static const std::vector<std::string> names{"auto", "true", "false"};
  return names;
}

StlbConfig::Inclusion StlbConfig::inclusion() const { return enum_named<Inclusion>(inclusive_.get()); }

CoreConfig::CoreConfig(const ScopeContext& c)
    : ParamScope(c),
      l1d(child_context("l1d"), {32_KiB, 8, 4}, "private L1 data cache"),
      l2(child_context("l2"), {1_MiB, 16, 14}, "private L2 cache"),
      dtlb(child_context("dtlb"), 64, 4, 0, "L1 data TLB (4 KiB pages)"),
      stlb(child_context("stlb")),
      page_walk(child_context("page_walk")) {}

AddressLimit CoreConfig::virtual_address_limit(const std::string& path) const {
  AddressLimit limit{uint64_t{1} << 48, "x86-64 four-level paging"};
  for (const TlbConfig* tlb : {static_cast<const TlbConfig*>(&dtlb), static_cast<const TlbConfig*>(&stlb)}) {
    // A TLB array keeps a page's number over its sets in 31 bits (CacheArray), below its empty mark.
    const uint64_t sets = tlb->entries() / tlb->ways();
    const uint64_t reach = ((uint64_t{1} << 31) - 1) * sets << 12;
    if (reach < limit.bytes)
      limit = {reach, path + "." + (tlb == &dtlb ? "dtlb" : "stlb") + " has " + std::to_string(sets) +
                          (sets == 1 ? " set" : " sets") + ": more sets name more pages"};
  }
  return limit;
}

LlcConfig::LlcConfig(const ScopeContext& c)
    : CacheConfig(c, {2_MiB, 16, 30}, "shared LLC", true),
      mshrs_per_core_(*this, "mshrs_per_core", 32, "Outstanding LLC misses per core of the socket",
                      between(1u, 4096u)) {}

}  // namespace starnuma
