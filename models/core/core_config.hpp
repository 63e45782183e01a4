// Parameters of the cores and caches of a socket. Every core of a socket uses the socket's `core:`
// map (a template: `--set topology.socket.core.rob=128` changes every core), and the socket's
// `llc:` map configures its shared last-level cache. Latencies are in core cycles (Table I gives
// them so); sizes need units.
#pragma once

#include "cache/cache_array.hpp"
#include "stimulus/address_limit.hpp"
#include "common/param.hpp"
#include "common/scope.hpp"

namespace starnuma {

struct CacheDefaults {
  Size size;
  unsigned ways;
  unsigned latency;
};

class CacheConfig : public ParamScope {
 public:
  // `per_core`: the size key is `size_per_core` and the cache holds that times the socket's cores.
  CacheConfig(const ScopeContext& c, const CacheDefaults& d, const char* what, bool per_core = false);
  uint64_t lines(unsigned cores = 1) const { return size_->bytes() * (per_core_ ? cores : 1) / 64; }
  unsigned ways() const { return ways_; }
  unsigned latency() const { return latency_; }
  Replacement replacement() const { return enum_named<Replacement>(replacement_.get()); }

 private:
  bool per_core_;
  Param<Size> size_;
  Param<unsigned> ways_;
  Param<unsigned> latency_;
  Param<std::string> replacement_;
};

class TlbConfig : public ParamScope {
 public:
  TlbConfig(const ScopeContext& c, unsigned entries, unsigned ways, unsigned latency, const char* what);
  unsigned entries() const { return entries_; }
  unsigned ways() const { return ways_; }
  unsigned latency() const { return latency_; }

 private:
  Param<unsigned> entries_;
  Param<unsigned> ways_;
  Param<unsigned> latency_;
};

// The STLB, and whether it is inclusive of the L1 DTLB (an STLB eviction also drops the
// translation from the L1 DTLB). The tracking hardware's STLB annex needs inclusion: every
// translation a core uses must have its annex entry (docs/tracking.md).
class StlbConfig : public TlbConfig {
 public:
  explicit StlbConfig(const ScopeContext& c);
  enum class Inclusion { Auto, Yes, No };
  Inclusion inclusion() const;
  // Inclusive or not, with `auto` resolved: inclusive when the tracking hardware annexes the STLB.
  bool inclusive(bool tracking_annexes_stlb) const {
    return inclusion() == Inclusion::Auto ? tracking_annexes_stlb : inclusion() == Inclusion::Yes;
  }

 private:
  Param<std::string> inclusive_;
};
template <>
const std::vector<std::string>& names_of<StlbConfig::Inclusion>();

// The page-table walk after an STLB miss. `memory`: the walker reads the four levels of an x86-64
// page table (PML4, PDPT, PD, PT entries, 8 bytes each) through the L1D, L2 and LLC, as a load does,
// starting below the deepest level its page-walk caches hold; the tables live in the memory of
// the node that first walked them (docs/cores.md). `fixed`: a constant latency and no traffic.
class PageWalkConfig : public ParamScope {
 public:
  explicit PageWalkConfig(const ScopeContext& c) : ParamScope(c) {}
  bool in_memory() const { return model.get() == "memory"; }
  Param<std::string> model{*this, "model", "memory",
                           "memory (the walker reads page-table entries through the caches) or fixed (a constant "
                           "latency, no memory traffic)",
                           std::vector<std::string>{"memory", "fixed"}};
  Param<unsigned> latency{*this, "latency", 30, "Cycles of a walk with model: fixed", between(0u, 100000u)};
  Param<unsigned> cache_latency{*this, "cache_latency", 1,
                                "Cycles to look up the page-walk caches before the first entry read (model: memory)",
                                between(0u, 10000u)};
  Param<unsigned> pml4e_cache{*this, "pml4e_cache", 2, "Entries of the PML4E walk cache (0: none)", between(0u, 64u)};
  Param<unsigned> pdpte_cache{*this, "pdpte_cache", 4, "Entries of the PDPTE walk cache (0: none)", between(0u, 64u)};
  Param<unsigned> pde_cache{*this, "pde_cache", 32, "Entries of the PDE walk cache (0: none)", between(0u, 64u)};
};

// Table I: 4-wide, 256-entry ROB; L1D 32 KB 8-way 4 cycles; L2 1 MB 16-way 14 cycles. TLBs and the
// page walk as on a Skylake-class core (docs/cores.md).
class CoreConfig : public ParamScope {
 public:
  explicit CoreConfig(const ScopeContext& c);
  Param<unsigned> width{*this, "width", 4, "Instructions dispatched per cycle", between(1u, 16u)};
  Param<unsigned> rob{*this, "rob", 256, "Reorder buffer entries: how far dispatch runs past an incomplete load",
                      between(1u, 4096u)};
  Param<unsigned> mshrs{*this, "mshrs", 16, "Outstanding L1D misses (loads and stores)", between(1u, 1024u)};
  Param<unsigned> store_buffer{*this, "store_buffer", 56, "Store buffer entries", between(1u, 1024u)};
  Param<std::string> dependent_loads{
      *this, "dependent_loads", "overlap",
      "A dependent operation (its address from the previous load): stall (dispatch waits for that load) or "
      "overlap (only the operation waits; dispatch goes on within the ROB, as out-of-order cores do; docs/cores.md)",
      std::vector<std::string>{"stall", "overlap"}};
  Param<unsigned> light_loads{*this, "light_loads", 128,
                              "Mixed modality: a light core's miss slots, the LLC-missing loads it keeps in flight "
                              "(the paper's artifact: 128, its cores' load queue; docs/cores.md)",
                              between(1u, 65536u)};
  CacheConfig l1d;
  CacheConfig l2;
  TlbConfig dtlb;
  StlbConfig stlb;
  PageWalkConfig page_walk;
  // The virtual addresses this core translates: the 2^48 bytes of x86-64's four-level page tables,
  // or less when a TLB has too few sets for its 31-bit tags to name them all. `path`: the core's.
  AddressLimit virtual_address_limit(const std::string& path) const;
};

// Table I: LLC 2 MB per core, 16-way, 30 cycles, shared by the socket's cores, non-inclusive.
class LlcConfig : public CacheConfig {
 public:
  explicit LlcConfig(const ScopeContext& c);
  unsigned mshrs(unsigned cores) const { return mshrs_per_core_ * cores; }

 private:
  Param<unsigned> mshrs_per_core_;
};

}  // namespace starnuma
