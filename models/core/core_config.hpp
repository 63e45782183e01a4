// Parameters of the cores and caches of a socket. Every core of a socket uses the socket's `core:`
// map (a template: `--set topology.socket.core.rob=128` changes every core), and the socket's
// `llc:` map configures its shared last-level cache. Latencies are in core cycles (Table I gives
// them so); sizes need units.
#pragma once

#include "cache/cache_array.hpp"
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
  Replacement replacement() const { return replacement_.get() == "random" ? Replacement::Random : Replacement::Lru; }

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
  Param<unsigned> page_walk_latency{*this, "page_walk_latency", 30,
                                    "Cycles of a page-table walk after an STLB miss (walk caches hit)",
                                    between(0u, 100000u)};
  CacheConfig l1d;
  CacheConfig l2;
  TlbConfig dtlb;
  StlbConfig stlb;
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
