// The functional pass paced by time (checkpoint --pace time; docs/sampling.md, "Paced by time"):
// time-based fast-forwarding (Carlson et al., ISPASS 2013) with a functional clock.
//
// Equal turns keep every thread at the mean thread's work, where a timed run's threads drift apart:
// one whose misses go far, or wait long, retires less in the same time. Here each thread has a
// clock: its instructions at its core's full width; for each LLC miss, the core's L1, L2 and LLC
// lookups and the unloaded latency of the transaction (the fabric's read of the line's home,
// Fabric::unloaded_latency, the figures `starnuma latency` measures; a line another socket's LLC
// supplies at the protocol's block transfer, Coherence::unloaded_bt_socket, _bt_pool; a store that
// invalidates sharers no sooner than their acks, an upgrade at its grant); and the wait where a
// server the transaction's messages cross on its way is saturated. The servers are each home's DRAM
// at its peak bandwidth and each link direction at its own: every message of the transaction, as
// the timed protocol sends it (Coherence::request: the request, snoops, forwarded data, acks, the
// data; the victims' writebacks and back-invalidations), busies each link direction it crosses for
// its size, booked in stretches of kStretchNs, so that messages the pass makes out of time order
// (threads' clocks lie up to a quantum apart) do not wait for one another unless a stretch is full.
// The thread waits for those on its answer's way; the others (an owner's ack to the home, a
// victim's writeback) load the links without holding it. For each tracker update a flush makes,
// the stall a full tracker queue puts on its core (the update busies its socket's tracker for its
// read, modify and write, booked the same way; the core waits only for what is beyond the queue's
// depth). Misses do not overlap, and below saturation nothing waits. A thread runs while its clock
// is behind a common horizon, which moves on by a quantum once every thread that may run has
// reached it; a barrier releases its threads at the clock of the last one to arrive.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "coherence/functional_llcs.hpp"
#include "fabric/fabric.hpp"
#include "run/run_setup.hpp"

namespace starnuma {

class Coherence;

class TimePace {
 public:
  static constexpr uint64_t kStretchNs = 100;  // the servers' and trackers' booking
  // A resource booked by the stretch of time: a request at `at` for `length` takes what its stretch
  // has left, or the first later stretch with room; it waits only when moved to a later one.
  class Stretches {
   public:
    // The wait of a request at `at` that busies the resource for `length`.
    uint64_t book(uint64_t at, uint64_t length);

   private:
    static constexpr size_t kRing = 4096;  // stretches kept: far beyond a quantum and a saturated backlog
    std::vector<uint64_t> used_ = std::vector<uint64_t>(kRing, 0);
    uint64_t first_ = 0;  // the oldest stretch kept
  };
  // `quantum_cycles`: how far the horizon moves, in cycles of the first thread's core.
  // `coherence`: the platform's protocol, when the pass keeps its LLCs coherent (lines supplied by
  // their owners); null otherwise.
  TimePace(const Fabric& fabric, const std::vector<ThreadPlace>& threads, unsigned quantum_cycles,
           const Coherence* coherence = nullptr);

  void retire(size_t t, uint64_t instructions) { clock_fs_[t] += instructions * instruction_fs_[t]; }
  // Thread t's LLC answered its load or `store` of physical line `line` (address >> line_shift) as
  // `out` says: a miss, or a store's upgrade; its hits cost nothing here.
  void access(size_t t, uint64_t line, unsigned line_shift, bool store, const FunctionalLlcs::Outcome& out);
  // Thread t's flush updates the tracker entry at physical line `line`, which its socket's LLC held
  // (`hit`) or read from memory; `writes`: the entry changed, so the update writes it back.
  void tracker_update(size_t t, uint64_t line, unsigned line_shift, bool hit, bool writes);
  // Whether thread t may run in this round: its clock behind the horizon.
  bool behind(size_t t) const { return clock_fs_[t] < horizon_fs_; }
  // After a round: once every thread that may run (`running(t)`) has reached the horizon, it moves
  // a quantum past the earliest of them.
  template <class Running>
  void after_round(Running&& running) {
    uint64_t earliest = UINT64_MAX;
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (running(t)) {
        if (clock_fs_[t] < horizon_fs_) return;
        earliest = std::min(earliest, clock_fs_[t]);
      }
    if (earliest != UINT64_MAX) horizon_fs_ = earliest + quantum_fs_;
  }
  // A barrier opens for the threads `at(t)`: they leave at the last arrival's clock.
  template <class At>
  void release(At&& at) {
    uint64_t last = 0;
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (at(t)) last = std::max(last, clock_fs_[t]);
    for (size_t t = 0; t < clock_fs_.size(); ++t)
      if (at(t)) clock_fs_[t] = last;
  }
  // Thread t's clock in its core's cycles, and the part of it spent waiting for servers and trackers.
  double cycles(size_t t) const;
  double waiting_cycles(size_t t) const;
  // The servers the clock booked busiest, each at least `least` of the clock's span (its latest
  // thread's): a link direction ("link path: from->to") or a home's DRAM ("node path: dram"), the
  // fraction of the span it was booked, its messages and their mean wait, busiest first.
  struct Busy {
    std::string server;
    double utilization, mean_wait_ns;
    uint64_t messages;
  };
  std::vector<Busy> busiest(double least) const;
  unsigned quantum_cycles() const { return quantum_cycles_; }

 private:
  struct Server {
    Stretches busy;
    uint64_t request_fs = 0, data_fs = 0;  // a message without data, one with a line (DRAM: a line's read or write)
    uint64_t booked_fs = 0, waited_fs = 0, messages = 0;  // its totals, for busiest()
    // The wait of a message of `length` at `at`, counted.
    uint64_t take(uint64_t at, uint64_t length) {
      const uint64_t wait = busy.book(at, length);
      booked_fs += length;
      waited_fs += wait;
      ++messages;
      return wait;
    }
  };
  // Link directions a message crosses: servers_[path_servers_[k]] for k in [first, last).
  struct Path {
    uint32_t first = 0, last = 0;
  };
  const Fabric::Range& range_of(uint64_t address) const;
  size_t index_of(const Fabric::Range& r) const { return static_cast<size_t>(&r - fabric_.address_map().data()); }
  size_t home_of(const Fabric::Range& r, uint64_t address) const {
    uint64_t offset = 0;
    return fabric_.serving_home(r, address, offset);
  }
  // A message crossing `path` from `at`: the wait its saturated link directions add.
  uint64_t send(Path path, bool data, uint64_t at);
  uint64_t dram(size_t home, uint64_t at) {
    return servers_[home].data_fs ? servers_[home].take(at, servers_[home].data_fs) : 0;
  }
  // The messages' ways: socket s to home h and back (a socket's home from its own node), socket a to b.
  Path to_home(size_t s, size_t h) const { return to_home_[s * homes_ + h]; }
  Path from_home(size_t h, size_t s) const { return from_home_[s * homes_ + h]; }
  Path peer(size_t a, size_t b) const { return peer_[a * sockets_ + b]; }
  // A home's snoops to `sockets` and their answers (to requester `s`, or to the home: -1), each with
  // the line when `data`: the wait they put on the transaction.
  uint64_t snoops(size_t h, uint64_t sockets, int s, bool data, uint64_t at);
  // The requester's victim leaving its LLC (PutM, PutE and the home's Put-Ack), posted.
  void put(size_t s, uint64_t line, unsigned line_shift, bool dirty, uint64_t at);

  const Fabric& fabric_;
  const bool coherent_;  // the pass's LLCs coherent: an outcome's supplier, sharers and grants count
  const unsigned quantum_cycles_;
  uint64_t quantum_fs_ = 0, horizon_fs_ = 0;
  std::vector<uint64_t> clock_fs_, waited_fs_;
  std::vector<uint64_t> instruction_fs_, cycle_fs_;  // per thread: its core's cycle over its width, its cycle
  std::vector<size_t> socket_, tracker_;             // per thread: its requester, its tracker
  size_t ranges_ = 0, homes_ = 0, sockets_ = 0;
  std::vector<uint64_t> miss_fs_;     // [socket * ranges_ + range]: lookups and the unloaded read
  std::vector<uint64_t> lookups_fs_;  // per socket: its core's L1, L2 and LLC lookups
  std::vector<Server> servers_;       // each home's DRAM, then each link direction
  std::vector<std::string> server_names_;
  std::vector<uint32_t> path_servers_;
  std::vector<Path> to_home_, from_home_, peer_;  // [socket * homes_ + home], [a * sockets_ + b]
  // Coherent passes only, the protocol's unloaded figures with the lookups, each taken once here:
  // a line supplied by an owner, [(socket * ranges_ + range) * sockets_ + owner], its block transfer;
  // a store's answer when `sharer` held the line, [(socket * homes_ + home) * sockets_ + sharer], at
  // its ack (a store waits for the latest of its sharers'); an upgrade's grant, [socket * homes_ +
  // home]; a directory victim's back-invalidation of `holder`, [home * sockets_ + holder].
  std::vector<uint64_t> transfer_fs_, ack_fs_, grant_fs_, back_fs_;
  // The latest of table[first + x] over the sockets x in `sockets`.
  static uint64_t latest(const std::vector<uint64_t>& table, size_t first, uint64_t sockets);
  std::vector<int> home_socket_;  // per fabric home: the socket whose memory it is, or -1 (a device's)
  std::vector<Stretches> trackers_;
  std::vector<uint64_t> llc_fs_, issue_fs_, modify_fs_;  // per socket: an LLC hit, a tracker's issue and modify
  std::vector<unsigned> depth_;                          // per socket: its trackers' queue depth
};

}  // namespace starnuma
