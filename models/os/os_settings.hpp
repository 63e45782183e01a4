// The operating system's choices for a run (the platform file's `os:` section; `--set os.KEY=V`):
// where pages go first, and, with `placement: dynamic`, the migration phases of StarNUMA section
// III-D and IV-C (docs/os.md).
#pragma once

#include <string>
#include <vector>

#include "common/component.hpp"
#include "common/enum_names.hpp"
#include "paging/allocation_policy.hpp"
#include "paging/page_map.hpp"

namespace starnuma {

enum class Placement { FirstTouch, Oracle, Dynamic };
template <>
const std::vector<std::string>& names_of<Placement>();
// Whose knowledge drives dynamic migration: the tracking hardware's metadata (Algorithm 1 on
// regions, StarNUMA) or exact per-socket counts of every page (the paper's favoured baseline).
enum class MigrationKnowledge { Tracker, Perfect };
// os.migration's choices: the registered phase policies (os/phase_policy.hpp: algorithm1, balance,
// ...), then the fault-driven autonuma and lacx (os/autonuma.hpp).
std::vector<std::string> migration_names();

class OsSettings : public Component {
 public:
  OsSettings(sc_core::sc_module_name name, const ScopeContext& ctx) : Component(name, ctx) {}

  Placement placement() const;
  // The allocation policy's name (paging/allocation_policy.hpp).
  const std::string& allocation() const { return allocation_.get(); }
  double cpuless_share() const { return cpuless_share_; }
  double pool_fraction() const { return pool_fraction_; }
  // More sharers than this send a region to the pool; 0 in the file means half the sockets.
  unsigned pool_sharers(size_t sockets) const {
    return pool_sharers_ ? pool_sharers_.get() : static_cast<unsigned>(sockets / 2);
  }
  // `tracking_on`: whether the sockets' tracking hardware is on (policy auto follows it).
  MigrationKnowledge knowledge(bool tracking_on) const;
  // os.migration: a phase policy's name, autonuma or lacx.
  const std::string& migration() const { return migration_.get(); }
  // AutoNUMA or LACX: decided at hinting faults, not in phases.
  bool numa_balancing() const { return migration() == "autonuma" || lacx(); }
  bool lacx() const { return migration() == "lacx"; }
  Time numa_scan_period() const { return numa_scan_period_; }
  Size numa_scan_size() const { return numa_scan_size_; }
  unsigned numa_fault_cycles() const { return numa_fault_cycles_; }
  Bandwidth numa_rate_limit() const { return numa_rate_limit_; }
  const std::string& policy_text() const { return policy_.get(); }
  uint64_t phase_instructions() const { return phase_instructions_; }
  // Nonzero: phases start every this much simulated time instead (phase_instructions ignored).
  Time phase_period() const { return phase_period_; }
  uint64_t hi_start() const { return hi_start_; }
  uint64_t lo_start() const { return lo_start_; }
  uint64_t lo_max() const { return lo_max_; }
  uint64_t migration_limit() const { return migration_limit_; }
  // T0 (no counters): regions shared by at least this many sockets are candidates; 0: all sockets.
  unsigned t0_sharers(size_t sockets) const { return t0_sharers_ ? t0_sharers_.get() : static_cast<unsigned>(sockets); }
  unsigned page_cycles() const { return page_cycles_; }
  unsigned scan_cycles_per_entry() const { return scan_cycles_per_entry_; }
  unsigned scan_lines_in_flight() const { return scan_lines_in_flight_; }
  unsigned os_socket() const { return os_socket_; }
  Time poll() const { return poll_; }

 private:
  Param<std::string> placement_{
      *this, "placement", "first-touch",
      "Page placement: first-touch, oracle (static, from a profile of the run's LLC misses) or "
      "dynamic (first touch, then migration phases; docs/os.md)",
      names_of<Placement>()};
  Param<std::string> allocation_{*this, "allocation", "first-touch",
                                 "Where a page's first touch puts it: first-touch (the toucher's node, then the "
                                 "nearest with room), interleave (round-robin over the nodes), hybrid (the toucher's "
                                 "node, then round-robin over the others once it is full), usage-aware (the "
                                 "toucher's node, then the least used), weighted (a share cpuless_share of each "
                                 "socket's new pages round-robin over the CPU-less CXL nodes, the rest first-touch) "
                                 "or another registered one (starnuma list; docs/os.md)",
                                 allocation_names()};
  Param<double> cpuless_share_{*this, "cpuless_share", 0.5,
                               "allocation weighted: the share of each socket's new pages placed on the CPU-less "
                               "CXL nodes (cxl_pool numa_node: true): the CXL pooling paper's pooled fraction",
                               between(0.0, 1.0)};
  Param<double> pool_fraction_{*this, "pool_fraction", 0.2, "Share of the workload's footprint the pool may hold",
                               between(0.0, 1.0)};
  Param<unsigned> pool_sharers_{*this, "pool_sharers", 0,
                                "A region (oracle: a page) shared by more sockets than this goes to the pool; 0: half "
                                "the platform's sockets (the paper's 8 of 16)",
                                between(0u, 64u)};
  Param<std::string> migration_{
      *this, "migration", "algorithm1",
      "What decides dynamic placement's migrations: a phase policy (algorithm1: StarNUMA's Algorithm 1; "
      "balance: the multi-chip placement paper's DM, pages other sockets access move from the busiest "
      "node to the least busy, up to migration_limit per phase; chmu: Algorithm 1 with the pool's victims "
      "judged by the pool device's CHMU, docs/cxl-device.md; or another registered one, starnuma list), autonuma "
      "(Linux's NUMA balancing: scans, hinting faults, migration on fault) or lacx "
      "(AutoNUMA with LACX: pages shared across nodes go to the CPU-less CXL node) (docs/os.md)",
      migration_names()};
  Param<Time> numa_scan_period_{*this, "numa_scan_period", Time::from_ns(100000),
                                "autonuma, lacx: how often the scanner unmaps the next numa_scan_size of memory "
                                "(Linux's 1 s minimum, scaled to the scaled runs' milliseconds)",
                                between(Time::from_ns(100), Time::from_ns(1000000000))};
  Param<Size> numa_scan_size_{*this, "numa_scan_size", Size::kib(256),
                              "autonuma, lacx: memory unmapped per scan (Linux's 256 MB, scaled with the footprints)",
                              between(Size::kib(4), Size::gib(1024))};
  Param<unsigned> numa_fault_cycles_{*this, "numa_fault_cycles", 2400,
                                     "autonuma, lacx: cycles a NUMA hinting fault costs the faulting core (trap, "
                                     "do_numa_page, remap)",
                                     between(0u, 10000000u)};
  Param<Bandwidth> numa_rate_limit_{*this, "numa_rate_limit", Bandwidth::from_bytes_per_s(1.28e9),
                                    "autonuma, lacx: migration into one node at most this fast, counted per tenth of "
                                    "numa_scan_period (Linux: 128 MB per 100 ms)",
                                    between(Bandwidth::from_bytes_per_s(1e6), Bandwidth::from_bytes_per_s(1e14))};
  Param<std::string> policy_{*this, "policy", "auto",
                             "Dynamic placement's knowledge: tracker (Algorithm 1 on the tracking hardware's "
                             "metadata regions), perfect (exact per-socket counts of every 4 KiB page at no cost, "
                             "the paper's baseline) or auto (tracker when tracking.impl is not none; perfect for "
                             "migration: balance, which reads per-page counts)",
                             std::vector<std::string>{"auto", "tracker", "perfect"}};
  Param<uint64_t> phase_instructions_{*this, "phase_instructions", 500000,
                                      "Instructions of the mean thread in one migration phase (the paper's 1 B per "
                                      "thread, scaled to the scaled runs; docs/os.md, \"A phase\")",
                                      between(uint64_t{1000}, uint64_t{1} << 40)};
  Param<Time> phase_period_{*this, "phase_period", Time(),
                            "Nonzero: a phase every this much simulated time instead of every phase_instructions "
                            "(the OS's periodic work, e.g. DM's; in a mix the programs' instruction counts part, so "
                            "time is their common clock)",
                            between(Time(), Time::from_ns(1000000000))};
  Param<uint64_t> hi_start_{*this, "hi_start", 20000,
                            "Algorithm 1's HI threshold at the first phase, in region accesses per phase of 1 B "
                            "instructions per thread (the paper's; scaled to phase_instructions, and per page with "
                            "policy perfect divided by a 512 KiB region's 128 pages), adapted each phase",
                            between(uint64_t{1}, uint64_t{1} << 32)};
  Param<uint64_t> lo_start_{*this, "lo_start", 1000,
                            "Algorithm 1's LO threshold at the first phase (scaled as hi_start): a region this cold or "
                            "colder may be evicted from a full destination",
                            between(uint64_t{0}, uint64_t{1} << 32)};
  Param<uint64_t> lo_max_{*this, "lo_max", 10000, "The most LO adapts up to (scaled as hi_start)",
                          between(uint64_t{0}, uint64_t{1} << 32)};
  Param<uint64_t> migration_limit_{*this, "migration_limit", 1024,
                                   "4 KiB pages migrated per phase at most (the paper's 0 to 256 K)",
                                   between(uint64_t{0}, uint64_t{262144})};
  Param<unsigned> t0_sharers_{*this, "t0_sharers", 0,
                              "T0 trackers (counter_bits: 0) count no accesses: regions with at least this many "
                              "sharers are candidates; 0: every socket (the paper's fixed HI of 16)",
                              between(0u, 64u)};
  Param<unsigned> page_cycles_{*this, "page_cycles", 3000,
                               "Cycles the OS core spends per migrated page besides the copy (TLB shootdown through "
                               "the shared TLB directory, page-table update; the paper's 3 K)",
                               between(0u, 10000000u)};
  Param<unsigned> scan_cycles_per_entry_{*this, "scan_cycles_per_entry", 2,
                                         "The scan's work per tracker entry, in OS-core cycles, when memory keeps up",
                                         between(0u, 100000u)};
  Param<unsigned> scan_lines_in_flight_{*this, "scan_lines_in_flight", 4,
                                        "Metadata lines the scanning core has in flight (its memory-level parallelism)",
                                        between(1u, 64u)};
  Param<unsigned> os_socket_{*this, "os_socket", 0, "Socket of the OS's dedicated migration core", between(0u, 1023u)};
  Param<Time> poll_{*this, "poll", Time::from_ns(1000),
                    "How often the OS thread checks for a phase boundary (simulated time; boundaries are found "
                    "this late at most)",
                    between(Time::from_ns(10), Time::from_ns(1000000))};
};

}  // namespace starnuma
