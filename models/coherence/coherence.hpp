// Directory-based MESI coherence between sockets at 64-byte block granularity (StarNUMA III-C).
//
// The caching agent is the socket (its LLC); each home tracks the blocks of its address range: a
// socket's home agent with an unbounded directory, the pool's MHD with a finite one. A request
// goes from the requester R to the home H, which answers from memory or forwards to the owner O:
// - a socket-homed block held E/M elsewhere completes in 3 hops, R -> H -> O -> R;
// - a pool-homed one in 4 hops, R -> H -> O -> H -> R (the owner answers the device, CXL
//   back-invalidate style; the device then answers the host).
// Every message is a fabric message (request or data size) over the links, with their occupancy;
// the nodes add named latencies (directory lookup, owner snoop, the MHD's internal crossing).
//
// Transactions are atomic in call order, which is the simulated global order the checker uses.
// The home serializes a block's transactions: a request reaching the home while another is in
// progress waits for it; one that is earlier in simulated time than the transaction held (issued
// late under temporal decoupling) does not wait for it (DirEntry::start_at). Callers start a
// transaction that involves another socket at its own time (CacheHierarchy::start_miss_in_time).
// Details, transitions and derived latencies: docs/coherence.md.
#pragma once

#include <array>

#include <memory>
#include <unordered_map>
#include <vector>

#include "coherence/checker.hpp"
#include "coherence/directory.hpp"
#include "debug/waves.hpp"
#include "common/flat_map.hpp"
#include "common/component.hpp"
#include "fabric/fabric.hpp"

namespace starnuma {

enum class MesiState : uint8_t { I, S, E, M };
const char* mesi_name(MesiState s);

// The requests a socket sends its home.
enum class CohRequest : uint8_t { GetS, GetM, Upgrade, PutM, PutE };
inline constexpr size_t kCohRequests = 5;
const char* coh_request_name(CohRequest r);

// How a load or store was served.
enum class CohPath : uint8_t { Hit, Memory, Upgrade, BtSocket, BtPool };

// A socket's caches: they keep the state of the socket's copies (in the LLC's tags, where its
// lookups already are), and are told when the protocol takes a block away from them (an
// invalidation, a forwarded GetM, a back-invalidation), so they drop every copy they hold of it.
// A socket with none attached (protocol tests) has its states kept by the protocol.
class CoherentCaches {
 public:
  virtual ~CoherentCaches() = default;
  // The state of the copy of `line` (I: none).
  virtual MesiState state(uint64_t line) const = 0;
  // The new state of a copy held. The copy a miss brings in is not yet there: its state is the
  // transaction's (Result::granted), which the caches fill it with.
  virtual void set_state(uint64_t line, MesiState s) = 0;
  virtual void invalidated(uint64_t line) = 0;
  // Bring what invalidated(line) will look up into the host's caches: hints, no effect on the
  // model. The protocol calls prefetch() for every socket it is about to take a block from, then
  // prefetch_behind() for each (what the first brought in may name more to look up), before the
  // first message, so those lookups overlap instead of waiting for host memory in turn.
  virtual void prefetch(uint64_t /*line*/) const {}
  virtual void prefetch_behind(uint64_t /*line*/) const {}
};

// Deliberate protocol bugs for tests of the checker.
// SkipOneInvalidation: a GetM/Upgrade forgets one sharer. KeepStaleCopies: the sockets' caches are
// never told of the blocks taken from them.
enum class CohFault : uint8_t { None, SkipOneInvalidation, KeepStaleCopies };

class Coherence : public Component {
 public:
  // `fabric` null: parameters only (the schema for `starnuma list`).
  Coherence(sc_core::sc_module_name name, const ScopeContext& ctx, Fabric* fabric);

  struct Result {
    Time done;  // the data or permission is back at the requester's LLC
    CohPath path = CohPath::Hit;
    size_t range = 0;                  // the home's address range (index into the fabric's address map)
    int owner = -1;                    // the socket that supplied the block (BtSocket, BtPool)
    MesiState granted = MesiState::I;  // the requester's copy's state now
  };
  // A load or store by socket `s` whose LLC lookup ended at `issue`.
  // `trace`: record the transaction's critical path there (docs/debugging.md), each step a slice
  // from where the last one ended, so the steps add up to its latency.
  Result load(size_t s, uint64_t address, Time issue, PathTrace* trace = nullptr);
  Result store(size_t s, uint64_t address, Time issue, PathTrace* trace = nullptr);
  // Either, when the caller has just looked up the state of its copy (`mine`, I after an LLC miss):
  // the protocol does not look it up again.
  Result request(size_t s, uint64_t address, bool write, MesiState mine, Time issue, PathTrace* trace = nullptr);
  // Socket `s`'s copy, held in state `held`, has left its caches: PutM (with the data) or PutE,
  // acknowledged by the home; an S copy leaves silently. Returns whether the block went home
  // written (PutM). The socket does not wait for the acknowledgement.
  bool evict(size_t s, uint64_t address, MesiState held, Time issue);
  // The same for a socket whose states the protocol keeps (no caches attached): its copy's state
  // is looked up and forgotten.
  bool evict(size_t s, uint64_t address, Time issue);

  // Host-side only: brings what a request from socket `s` for `address` would look up first (its
  // copy, the home's directory entry) into the host's caches. No effect on the model.
  void prefetch(size_t s, uint64_t address) const;
  // With checking on: socket `s`'s caches hit on `address` (a load, or a store already granted);
  // the socket must hold the block, and its copy must be the latest version.
  void check_hit(size_t s, uint64_t address) {
    if (check_) checked_hit(s, address);
  }
  MesiState state(size_t s, uint64_t address) const;
  // Whether the home's directory names a socket other than `s` as the block's owner or a sharer.
  bool held_elsewhere(size_t s, uint64_t address) const;
  size_t sockets() const { return listeners_.size(); }
  // The caches of socket `s`, which keep its copies' states and hear of the blocks taken from them
  // (null: none; the protocol keeps the states). Attached before the first transaction.
  void attach(size_t s, CoherentCaches* caches) { listeners_.at(s) = caches; }
  // An empty directory for fabric home `home` as this protocol keeps it: a socket's unbounded, a
  // device's of pool_directory_entries in pool_directory_ways (a functional pass keeps its own).
  std::unique_ptr<Directory> new_directory(const Fabric::Home& home) const;

  // Functional warming (docs/sampling.md), before the first transaction. warm_entry: the directory
  // of fabric home `home` gets `block`'s entry (owner, sharers), the most recent of its set; false
  // if that evicted another (a directory smaller than the checkpoint's). warm_copy: whether the
  // home's directory lists socket `s` holding `block` in state `c` (S: a sharer, E or M: the owner).
  bool warm_entry(size_t home, uint64_t block, int owner, uint64_t sharers);
  bool warm_copy(size_t s, uint64_t block, MesiState c);
  bool enabled() const { return enabled_; }
  bool checking() const { return check_; }
  const InvariantChecker& checker() const { return checker_; }
  void set_fault(CohFault f) { fault_ = f; }
  // Transactions that started and that completed (every one must).
  uint64_t started() const { return started_; }
  uint64_t completed() const { return completed_; }

  // Unloaded latencies of block transfers, from the parameters and routes only: R's load of a
  // block homed at socket h (or at the node of address range `range`) held M by socket o.
  Time unloaded_bt_socket(size_t r, size_t h, size_t o) const;
  Time unloaded_bt_pool(size_t r, size_t range, size_t o) const;
  // The unloaded latency of the block transfer (BtSocket, BtPool) `r` just completed.
  Time unloaded_transfer(size_t r, const Result& res) const;
  // The same for what a write waits for beyond its data (the functional pass's clock, TimePace), at
  // fabric home `home`: R's request answered once every socket in `sharers` (a bit each) acknowledged
  // its invalidation, the acks to R from a socket's home, to the device from the pool; an upgrade's
  // grant alone (no sharers) from the home; and the wait a directory's victim adds to the transaction
  // that evicts it, the back-invalidation of each of its `holders`.
  Time unloaded_acks(size_t r, size_t home, uint64_t sharers) const;
  Time unloaded_grant(size_t r, size_t home) const;
  Time unloaded_back_invalidation(size_t home, uint64_t holders) const;

 private:
  struct Home {
    FabricNode* node;
    int socket;    // the home's requester index, or -1 (the pool)
    Time transit;  // the MHD's internal crossing, per direction (0 at a socket)
    Time lookup;   // directory lookup
    std::unique_ptr<Directory> directory;
    size_t range;  // the address map's window it serves
  };
  // The device address of `block` at `h` (an interleave set's devices see dense addresses).
  uint64_t device_offset(const Home& h, uint64_t block) const;
  struct Txn;  // one transaction in progress (coherence.cpp)

  // Messages, port to port, with the home's internal crossing; from == to costs nothing.
  // About line `block` (which of the socket's links to an interleaving device the message takes).
  // Each counted by its kind on the links it crosses (Link::coherent_from).
  Time to_home(size_t s, const Home& h, uint64_t block, Time t, CohMessage kind, PathTrace* trace = nullptr);
  Time from_home(const Home& h, size_t s, uint64_t block, Time t, CohMessage kind, PathTrace* trace = nullptr);
  size_t index_of(const Home& h) const { return static_cast<size_t>(&h - homes_.data()); }
  Time peer(size_t a, size_t b, Time t, CohMessage kind, PathTrace* trace = nullptr);  // socket to socket
  Time one_way(size_t a, size_t b) const;                                              // unloaded socket to socket
  Time one_way_home(size_t s, const Home& h) const;  // unloaded socket to home, transit included

  // Invalidates every sharer but `keep`; returns when the last ack reached the collector (R for a
  // socket home, the home for the pool).
  Time invalidate(Txn& x, uint64_t sharers, Time t);
  Time back_invalidate(Home& h, const Directory::Victim& v, Time t);
  Time read_memory(Home& h, uint64_t block, Time t);
  void write_memory(Home& h, uint64_t block, uint64_t version, Time t);
  void check(uint64_t block, const Home& h);
  void checked_hit(size_t s, uint64_t address);
  void count_violations() { violations_ += checker_.violations() - violations_.value(); }
  // The state of socket `s`'s copy of `block`, wherever it is kept, and its change.
  MesiState held(size_t s, uint64_t block) const {
    if (listeners_[s]) return listeners_[s]->state(block);
    const MesiState* c = states_[s].find(block);
    return c ? *c : MesiState::I;
  }
  void set_held(size_t s, uint64_t block, MesiState c) {
    if (listeners_[s]) listeners_[s]->set_state(block, c);
    else keep_state(s, block, c);
  }
  // The version socket `s` holds of `block` (the checker's; 0 without it, kept nowhere).
  uint64_t version_of(size_t s, uint64_t block) const { return check_ ? checked_version(s, block) : 0; }
  void set_version(size_t s, uint64_t block, uint64_t v) {
    if (check_) record_version(s, block, v);
  }
  // Socket `s` no longer holds `block` (its caches, if attached, no longer have it).
  void forget(size_t s, uint64_t block) {
    if (!listeners_[s] || check_) forget_kept(s, block);
  }
  // Versions are the checker's: without it they stay 0 and nothing remembers them.
  uint64_t next_version(uint64_t block) { return check_ ? checker_.store(block) : 0; }
  // What the protocol keeps itself: states of sockets with no caches attached (protocol tests),
  // versions when checking. Cold, out of line: the timing runs' transactions stay small in the
  // host's instruction cache.
  [[gnu::cold]] void keep_state(size_t s, uint64_t block, MesiState c);
  [[gnu::cold]] uint64_t checked_version(size_t s, uint64_t block) const;
  [[gnu::cold]] void record_version(size_t s, uint64_t block, uint64_t v);
  [[gnu::cold]] void forget_kept(size_t s, uint64_t block);
  [[gnu::cold]] uint64_t memory_version(uint64_t block) const;
  // A transaction's waveform samples (with waves attached).
  [[gnu::cold]] void record_waves(CohPath path, const Home& h, Time issue, Time at_home, Time done);
  // Host-side: each socket in `sockets` (a bit per socket) will lose `block`.
  void prefetch_drops(uint64_t sockets, uint64_t block) const;
  // The protocol takes the block from socket `s` (not the socket's own eviction).
  void drop(size_t s, uint64_t block) {
    if (listeners_[s] && fault_ == CohFault::KeepStaleCopies)
      listeners_[s]->set_state(block, MesiState::I);  // the bug under test: the line stays, not held
    else if (listeners_[s]) listeners_[s]->invalidated(block);
    forget(s, block);
  }
  Home& home_of(uint64_t address, uint64_t& block);
  double per_pool_us(uint64_t n) const;  // n per microsecond of the span pool transactions arrived in

  Fabric* fabric_;
  Param<bool> enabled_{*this, "enabled", false,
                       "Keep the sockets' caches coherent in `run`: LLC misses, upgrades and LLC evictions go through "
                       "the directories (slower; docs/coherence.md)"};
  Param<bool> check_{*this, "check", false, "Check the coherence invariants after every transaction (slower)"};
  Param<Time> socket_lookup_;
  Param<Time> pool_lookup_;
  Param<Time> snoop_;
  Param<unsigned> pool_entries_;
  Param<unsigned> pool_ways_;
  std::vector<Home> homes_;                                // per memory (Fabric::homes())
  std::vector<FlatMap<MesiState>> states_;                 // per socket with no caches attached: its copies' states
  std::vector<FlatMap<uint64_t>> versions_;                // per socket: their versions (checking only)
  std::vector<CoherentCaches*> listeners_;                 // per socket
  std::unordered_map<uint64_t, uint64_t> memory_version_;  // the version memory holds (checking only)
  InvariantChecker checker_;
  CohFault fault_ = CohFault::None;
  uint64_t started_ = 0, completed_ = 0;
  Time pool_first_, pool_last_;

  std::vector<std::unique_ptr<Counter>> requests_;  // [socket home, pool home][request]
  Counter bt_socket_{*this, "bt_socket", "transfers", "3-hop block transfers (socket home, R->H->O->R)"};
  Counter bt_pool_{*this, "bt_pool", "transfers", "4-hop block transfers via the pool (R->H->O->H->R)"};
  Average bt_socket_latency_{*this, "bt_socket_latency", "ns", "Latency of 3-hop transfers, LLC to LLC"};
  Average bt_pool_latency_{*this, "bt_pool_latency", "ns", "Latency of 4-hop transfers via the pool, LLC to LLC"};
  Counter invalidations_{*this, "invalidations", "messages", "Invalidations sent to sharers"};
  Average invalidations_per_write_{*this, "invalidations_per_write", "invalidations",
                                   "Invalidations per GetM or Upgrade"};
  Counter pool_transactions_{*this, "pool_directory_transactions", "transactions",
                             "Requests handled by the pool's directory"};
  Formula pool_rate_;
  Counter pool_actions_{*this, "pool_coherence_actions", "transactions",
                        "Pool directory transactions that forwarded to an owner, invalidated or back-invalidated"};
  Formula pool_action_rate_;
  Counter back_invalidations_{*this, "back_invalidations", "entries",
                              "Pool directory entries evicted, their copies back-invalidated (BISnp)"};
  Counter bisnp_{*this, "bisnp_messages", "messages", "Back-invalidation snoops sent to sockets"};
  Average bi_latency_{*this, "back_invalidation_latency", "ns", "From the eviction to the last BIRsp at the pool"};
  Counter violations_{*this, "violations", "violations", "Invariant violations found by the checker"};

 public:
  // Transactions in flight per path (memory, bt_socket, bt_pool, upgrade), and at the pool its
  // directory's entries in use and the back-invalidations so far.
  void attach_waves(Waves& waves) override;

 private:
  Waves* waves_ = nullptr;
  std::array<Waves::Signal, 4> in_flight_{Waves::kOff, Waves::kOff, Waves::kOff, Waves::kOff};
  Waves::Signal pool_entries_signal_ = Waves::kOff, back_invalidated_ = Waves::kOff;
};

}  // namespace starnuma
