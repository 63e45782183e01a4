// Sampled memory transactions of a run in the Trace Event format that Perfetto and
// chrome://tracing open (`run --trace-transactions FILE.json`, docs/debugging.md). Each sampled
// LLC miss becomes slices on the tracks of the components it crosses (its core, each link
// direction, router, home, DRAM), one after another from the miss to its completion, joined by
// flow arrows; its memory slices add up to the latency the run's statistics count for it.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "common/mem_access.hpp"

namespace starnuma {

struct TransactionOptions {
  std::string path;       // FILE.json
  uint64_t every = 1000;  // one LLC miss in `every` of each socket's, counted from the start
  uint64_t low = 0, high = std::numeric_limits<uint64_t>::max();  // physical addresses [low, high)
  std::vector<std::string> sockets;                               // socket names (empty: all)
  int64_t start_ps = 0, end_ps = std::numeric_limits<int64_t>::max();
};

// The options of `run --trace-transactions FILE --trace-every N --trace-addresses LO:HI
// --trace-sockets S,... --trace-window START:END`, checked (starnuma/usage errors).
TransactionOptions transaction_options(const std::string& path, uint64_t every, const std::string& addresses,
                                       const std::vector<std::string>& sockets, const std::string& window);

class TransactionTrace {
 public:
  TransactionTrace(TransactionOptions options, const std::vector<std::string>& socket_names);
  // Whether to record socket `requester`'s LLC miss of `paddr` issued at `issue`: the trace to
  // fill (cleared), or null. Counts the socket's misses for the sampling.
  PathTrace* sample(size_t requester, uint64_t paddr, Time issue) {
    if (++seen_[requester] % options_.every != 0 || !wanted_[requester]) return nullptr;
    if (!eligible(paddr, issue)) return nullptr;
    scratch_.steps.clear();
    return &scratch_;
  }
  // The sampled miss is done: `lookup_from` is when the core's access reached the caches (their
  // lookups and the wait for a miss slot end at `issue`), `done` when the line is back.
  void record(const std::string& core, bool store, uint64_t vaddr, uint64_t paddr, const char* path_class,
              Time lookup_from, Time lookup_end, Time issue, Time done);
  void write() const;
  size_t transactions() const { return transactions_; }

 private:
  bool eligible(uint64_t paddr, Time issue) const {
    return paddr >= options_.low && paddr < options_.high && issue.ps() >= options_.start_ps &&
           issue.ps() < options_.end_ps;
  }
  // The track (pid, tid) of a component path.
  std::pair<int, int> track(const std::string& where);

  TransactionOptions options_;
  std::vector<uint64_t> seen_;
  std::vector<bool> wanted_;
  PathTrace scratch_;
  std::map<std::string, int> processes_;                // top-level scope -> pid
  std::map<std::string, std::pair<int, int>> threads_;  // component path -> (pid, tid)
  std::string events_;                                  // the traceEvents, comma-separated
  size_t transactions_ = 0;
};

}  // namespace starnuma
