// Linux's automatic NUMA balancing (AutoNUMA) and the LACX paper's change to it
// (papers/lacx-electronics25.txt; docs/os.md, "AutoNUMA and LACX").
//
// A scanner wakes every `numa_scan_period` and unmaps the next `numa_scan_size` of placed memory
// (change_prot_numa: the pages become PROT_NONE and their translations are shot down). The next
// access to such a page takes a NUMA hinting fault in the page walk: the faulting core spends
// `numa_fault_cycles`, the page is mapped again, and the fault is classified against the page's
// last fault (its cpupid: the node and task that took it):
//   - local or remote: the page is on the faulting socket's node or not;
//   - private or shared: the same task took the last fault or another one.
// AutoNUMA then migrates a private remote page to the faulting node, if the two-fault filter
// passes (the last fault came from the same node), the node has room, and the destination's rate
// limit allows; it leaves shared pages where they are (threads are pinned: no task migration).
// LACX (`os.migration: lacx`): a page whose fault is shared between tasks on different nodes moves
// to the CPU-less CXL node instead, and is marked so that AutoNUMA does not bring it back.
// Migration happens in the fault, as migrate_misplaced_page does: the faulting core pays the
// kernel's work (`os.page_cycles`) and waits for the copy.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/flat_map.hpp"
#include "common/units.hpp"
#include "core/hinting_faults.hpp"
#include "core/run_control.hpp"
#include "os/page_mover.hpp"

namespace starnuma {

// What AutoNUMA keeps per page (struct page's last_cpupid, and LACX's mark).
struct NumaPageState {
  uint8_t last_socket = 0;   // socket + 1 of the last fault; 0: none yet
  uint32_t last_task = 0;    // task + 1 of the last fault; 0: none yet
  bool lacx_marked = false;  // LACX moved it to the CXL node: AutoNUMA leaves it there
};

enum class FaultOutcome : uint8_t {
  Local,     // on the faulting node already: nothing to do
  Shared,    // AutoNUMA leaves shared pages alone
  TwoFault,  // the last fault came from another node: the filter holds it
  Kept,      // on the CXL node, marked by LACX
  Migrate,   // to `target`
};

struct FaultDecision {
  bool local = false, shared = false;
  FaultOutcome outcome = FaultOutcome::Local;
  size_t target = 0;  // node, when Migrate
  bool to_cxl = false;
};

struct NumaRules {
  std::vector<size_t> socket_node;            // node of each socket's memory
  size_t cxl_node = static_cast<size_t>(-1);  // the CPU-less CXL node; npos: none
  bool lacx = false;
};

// Classifies a hinting fault by `task` on `socket` at a page on `page_node` and decides what to do,
// updating the page's state (its last fault becomes this one). Capacity and rate limits are the
// caller's to check.
FaultDecision decide_fault(NumaPageState& page, size_t page_node, size_t socket, unsigned task, const NumaRules& rules);

class AutoNuma : public HintingFaults {
 public:
  struct Setup {
    PageMap* pages = nullptr;
    PageMover* mover = nullptr;
    RunControl* control = nullptr;
    NumaRules rules;
    Time scan_period;
    uint64_t scan_pages = 0;    // pages unmapped per scan
    unsigned fault_cycles = 0;  // the hinting fault's cost on the faulting core
    unsigned page_cycles = 0;   // the kernel's work per migrated page, besides the copy
    uint64_t rate_pages = 0;    // pages migrated into a node per rate window at most
    Time rate_window;
  };
  explicit AutoNuma(Setup setup);

  // Spawns the scanner (before sc_start).
  void start();
  // Whether `vpage` is unmapped for a hinting fault (cheap when nothing is).
  bool armed(uint64_t vpage) const override { return !armed_.empty() && armed_.find(vpage); }
  // The hinting fault of an access by `task` on `socket` at local time `t` (fs), on a core whose
  // cycle is `cycle_fs`; returns when the access may go on (fs).
  int64_t fault(uint64_t vpage, size_t socket, unsigned task, int64_t t, int64_t cycle_fs) override;
  // Ends copies done by now (at the end of the run).
  void finish();
  nlohmann::ordered_json report() const;

 private:
  void scan();
  // The fault itself, from `t` on; returns when the access may go on (fs).
  int64_t handle(uint64_t vpage, size_t socket, unsigned task, int64_t t, int64_t cycle_fs);

  Setup s_;
  FlatMap<uint8_t> armed_;
  FlatMap<NumaPageState> state_;
  uint64_t cursor_ = 0;  // the scan resumes after this virtual page
  struct Window {
    int64_t index = -1;  // which rate window (time / rate_window)
    uint64_t pages = 0;
  };
  std::vector<Window> rate_;  // per node
  // When each core's last fault ends (by global core id): a thread takes one fault at a time (a
  // fault is taken when its instruction is the oldest; the younger ones wait for the handler).
  std::vector<int64_t> fault_ends_;
  struct Counts {
    uint64_t scans = 0, armed = 0, faults = 0, local = 0, shared = 0, two_fault = 0, kept = 0;
    uint64_t migrated = 0, to_cxl = 0, from_cxl = 0, node_full = 0, rate_limited = 0, in_flight = 0;
    uint64_t fault_ps = 0, migration_ps = 0;  // time the faulting cores spent
    uint64_t fault_wait_ps = 0;               // faults waiting for the core's previous fault
  } n_;
};

}  // namespace starnuma
