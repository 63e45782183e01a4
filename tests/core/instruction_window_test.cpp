// The core's window between dispatch and retirement, against caches that answer each address
// with a set latency and record when each access was sent.
#include "core/instruction_window.hpp"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace starnuma {
namespace {

struct Owner : StatOwner {};

constexpr int64_t kNs = 1000000;  // fs
constexpr int64_t kL1 = 2 * kNs;

struct Sent {
  uint64_t address;
  bool store;
  int64_t at, done;
};

class ScriptedCaches {
 public:
  // Addresses below 1000 hit the L1; others take their set latency (default 100 ns).
  void latency(uint64_t address, int64_t fs) { latency_[address] = fs; }
  int64_t access(uint64_t address, bool store, int64_t at) {
    const auto it = latency_.find(address);
    int64_t latency = address < 1000 ? kL1 : it != latency_.end() ? it->second : 100 * kNs;
    if (const auto f = fault_.find(address); f != fault_.end()) {
      fault_end_ = at + f->second;
      latency += f->second;
      fault_.erase(f);  // the handler maps the page
    }
    sent.push_back(Sent{address, store, at, at + latency});
    return latency;
  }
  bool certain_l1_hit(uint64_t address) const { return address < 1000; }
  // The LLC's shared miss slots: none free for `address` before `fs`.
  void llc_slot(uint64_t address, int64_t fs) { llc_slot_[address] = fs; }
  int64_t llc_slot_at(uint64_t address, int64_t at) const {
    const auto it = llc_slot_.find(address);
    return it == llc_slot_.end() ? at : std::max(at, it->second);
  }
  // An access to `address` takes a hinting fault of `fs` before it goes on (its latency includes it).
  void fault(uint64_t address, int64_t fs) { fault_[address] = fs; }
  int64_t take_fault_end() {
    const int64_t end = fault_end_;
    fault_end_ = 0;
    return end;
  }
  std::vector<Sent> sent;

 private:
  std::map<uint64_t, int64_t> latency_, llc_slot_, fault_;
  int64_t fault_end_ = 0;
};

StreamOp load(uint64_t address, bool dependent = false, uint32_t instructions = 0) {
  return StreamOp{StreamOp::Kind::Load, dependent, false, instructions, address};
}
StreamOp store(uint64_t address, bool dependent = false, uint32_t instructions = 0) {
  return StreamOp{StreamOp::Kind::Store, dependent, false, instructions, address};
}

struct Harness {
  explicit Harness(bool overlap, unsigned rob = 256, unsigned mshrs = 16, unsigned store_buffer = 56)
      : window({rob, mshrs, store_buffer, overlap, kNs / 4, kL1, int64_t{1} << 60}, caches,
               {rob_stalls, mshr_stalls, store_buffer_stalls}, 0) {}
  void run(const std::vector<StreamOp>& ops) {
    for (const StreamOp& op : ops) {
      window.dispatch(op, index + op.instructions);
      index += op.instructions + 1;
    }
    window.complete_all();
  }
  int64_t sent_at(uint64_t address) const {
    for (const Sent& s : caches.sent)
      if (s.address == address) return s.at;
    return -1;
  }
  std::vector<uint64_t> order() const {
    std::vector<uint64_t> a;
    for (const Sent& s : caches.sent) a.push_back(s.address);
    return a;
  }
  Owner owner;
  Counter rob_stalls{owner, "rob", "", ""}, mshr_stalls{owner, "mshr", "", ""},
      store_buffer_stalls{owner, "sb", "", ""};
  ScriptedCaches caches;
  InstructionWindow<ScriptedCaches> window;
  uint64_t index = 0;
};

// A miss, a load depending on it, then two independent misses.
const std::vector<StreamOp> kChainThenIndependent{load(5000), load(6000, true), load(7000), load(8000)};

TEST(InstructionWindow, UnderStallDispatchWaitsForTheLoadADependentOneNeeds) {
  Harness h(false);
  h.caches.latency(5000, 800 * kNs);
  h.run(kChainThenIndependent);
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 6000, 7000, 8000}));
  EXPECT_EQ(h.sent_at(6000), h.sent_at(5000) + 800 * kNs + kNs / 4);  // dispatched once its address is known
  EXPECT_GT(h.sent_at(7000), h.sent_at(6000));                        // and everything after it with it
}

TEST(InstructionWindow, UnderOverlapTheDependentLoadLeavesInTimeOrderAfterTheIndependentOnes) {
  Harness h(true);
  h.caches.latency(5000, 800 * kNs);
  h.run(kChainThenIndependent);
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 7000, 8000, 6000}));
  EXPECT_EQ(h.sent_at(6000), h.sent_at(5000) + 800 * kNs);  // as soon as its address is ready
  EXPECT_LT(h.sent_at(8000), 2 * kNs);                      // dispatch went on
}

TEST(InstructionWindow, AChainOfDependentLoadsIsSentLinkByLink) {
  Harness h(true);
  h.run({load(5000), load(6000, true), load(7000, true), load(8000, true), load(9000)});
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 9000, 6000, 7000, 8000}));
  EXPECT_EQ(h.sent_at(7000), h.sent_at(6000) + 100 * kNs);
  EXPECT_EQ(h.sent_at(8000), h.sent_at(7000) + 100 * kNs);
}

TEST(InstructionWindow, AWaitingLoadAtTheHeadOfAFullRobHoldsDispatch) {
  Harness h(true, /*rob=*/8);
  h.caches.latency(5000, 800 * kNs);
  std::vector<StreamOp> ops{load(5000), load(6000, true)};
  for (uint64_t a = 0; a < 10; ++a) ops.push_back(load(a * 64));  // L1 hits
  h.run(ops);
  // The ROB reaches 8 instructions past the first load; the 9th waits for it, and the one after
  // the dependent load waits for that one too.
  EXPECT_GE(h.sent_at(8 * 64), 800 * kNs);
  EXPECT_GE(h.sent_at(9 * 64), 900 * kNs);
  EXPECT_GE(h.rob_stalls.value(), 2u);
}

TEST(InstructionWindow, AWaitingLoadTakesAMissSlotWhenItIssues) {
  Harness h(true, 256, /*mshrs=*/2);
  h.caches.latency(5000, 800 * kNs);  // A
  h.caches.latency(7000, 900 * kNs);  // C, independent, holds the other slot until 900 ns
  h.run({load(5000), load(6000, true), load(7000), load(8000)});
  // B (6000) issues into the slot A frees; D waits for the first slot to free after that, B's.
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 7000, 6000, 8000}));
  EXPECT_EQ(h.sent_at(6000), h.sent_at(5000) + 800 * kNs);
  EXPECT_EQ(h.sent_at(8000), h.sent_at(6000) + 100 * kNs);
  EXPECT_EQ(h.mshr_stalls.value(), 1u);
}

// Loads held for the LLC's slot then wait for the core's: each counts one MSHR stall, however many
// times a miss slot frees for another load first.
TEST(InstructionWindow, ALoadCountsOneMshrStallHoweverOftenItWaits) {
  Harness h(true, 256, /*mshrs=*/2);
  for (uint64_t a : {6000, 7000, 8000}) h.caches.llc_slot(a, 10 * kNs);
  h.run({load(5000), load(6000), load(7000), load(8000)});
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 6000, 7000, 8000}));
  EXPECT_EQ(h.sent_at(6000), 10 * kNs);
  EXPECT_EQ(h.sent_at(7000), h.sent_at(5000) + 100 * kNs);  // the first slot to free
  EXPECT_EQ(h.sent_at(8000), h.sent_at(6000) + 100 * kNs);  // passed over at 5000's, then the next
  EXPECT_EQ(h.mshr_stalls.value(), 2u);
}

TEST(InstructionWindow, ADependentStoreWaitsForItsAddressAndHoldsItsStoreBufferEntry) {
  Harness h(true, 256, 16, /*store_buffer=*/1);
  h.caches.latency(5000, 800 * kNs);
  h.run({load(5000), store(6000, true), store(7000)});
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{5000, 6000, 7000}));
  EXPECT_EQ(h.sent_at(6000), h.sent_at(5000) + 800 * kNs);
  EXPECT_EQ(h.sent_at(7000), h.sent_at(6000) + 100 * kNs);  // the one entry is its until then
  EXPECT_EQ(h.store_buffer_stalls.value(), 1u);
}

TEST(InstructionWindow, AnAccessWaitsForTheSocketsLlcSlotWhileDispatchGoesOn) {
  for (const bool overlap : {false, true}) {
    Harness h(overlap);
    h.caches.latency(5000, 800 * kNs);
    h.caches.llc_slot(5000, 300 * kNs);  // every slot busy until 300 ns
    h.run({load(6000), store(7000), load(5000), load(8000, true)});
    // A (5000) waits in the window; the load and store before it leave at dispatch; C, dependent
    // on A, leaves when A is done.
    EXPECT_EQ(h.order(), (std::vector<uint64_t>{6000, 7000, 5000, 8000})) << overlap;
    EXPECT_EQ(h.sent_at(5000), 300 * kNs) << overlap;
    EXPECT_GE(h.sent_at(8000), 1100 * kNs) << overlap;  // under stall, a dispatch slot later
    EXPECT_LE(h.sent_at(8000), 1100 * kNs + kNs / 4) << overlap;
  }
}

// Random streams: every access leaves in time order, no dependent one before its load is done,
// none before the LLC has a slot for it, never more than `mshrs` misses in flight, and every
// operation is sent once.
// A hinting fault is taken at retirement: what is younger is squashed and runs after the handler,
// whether it was waiting for its address, timed, or not yet dispatched; what is older is not held.
TEST(InstructionWindow, AHintingFaultFencesEverythingYoungerButNothingOlder) {
  Harness h(true);
  h.caches.latency(5000, 800 * kNs);  // older, its dependant waits for it past the fault's end
  h.caches.llc_slot(7000, 10 * kNs);  // sent after the younger 8000 was timed
  h.caches.fault(7000, 2000 * kNs);
  h.caches.llc_slot(8000, 50 * kNs);  // younger, timed before the fault and due during it
  h.run({load(5000), load(6000, true), load(7000), load(8000), load(9000, true), load(10000, false, 100)});
  const int64_t fault_end = h.sent_at(7000) + 2000 * kNs;
  EXPECT_EQ(h.sent_at(6000), h.sent_at(5000) + 800 * kNs);  // older than the fault: not held
  EXPECT_LT(h.sent_at(6000), fault_end);
  EXPECT_EQ(h.sent_at(8000), fault_end);   // timed for 50 ns, held to the fault's end
  EXPECT_GE(h.sent_at(9000), fault_end);   // its load is held, so is it
  EXPECT_GE(h.sent_at(10000), fault_end);  // dispatched after the handler
}

TEST(InstructionWindow, WithoutAFaultNothingIsHeld) {
  Harness h(true);
  h.caches.latency(5000, 800 * kNs);
  h.caches.llc_slot(7000, 10 * kNs);
  h.caches.llc_slot(8000, 50 * kNs);
  h.run({load(5000), load(6000, true), load(7000), load(8000), load(9000, true), load(10000, false, 100)});
  EXPECT_EQ(h.sent_at(8000), 50 * kNs);
  EXPECT_LT(h.sent_at(10000), 50 * kNs);
}

TEST(InstructionWindow, RandomStreamsLeaveInTimeOrderWithinTheLimits) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const bool overlap = trial % 4 != 0;
    const unsigned mshrs = 1 + rng() % 8;
    Harness h(overlap, 4 + rng() % 64, mshrs, 1 + rng() % 8);
    std::vector<StreamOp> ops;
    for (uint64_t i = 0; i < 300; ++i) {
      const uint64_t address = rng() % 3 == 0 ? i : 1000 + i;  // unique; below 1000 an L1 hit
      h.caches.latency(address, (3 + rng() % 900) * kNs);      // longer than an L1 hit
      if (rng() % 5 == 0) h.caches.llc_slot(address, static_cast<int64_t>(rng() % 20000) * kNs);
      const bool dependent = rng() % 2 == 0;
      const uint32_t instructions = static_cast<uint32_t>(rng() % 4);
      ops.push_back(rng() % 4 == 0 ? store(address, dependent, instructions) : load(address, dependent, instructions));
    }
    h.run(ops);
    ASSERT_EQ(h.caches.sent.size(), ops.size());
    std::map<uint64_t, Sent> by_address;
    for (const Sent& s : h.caches.sent) by_address[s.address] = s;
    ASSERT_EQ(by_address.size(), ops.size());
    int64_t previous_load_done = 0;
    for (const StreamOp& op : ops) {
      const Sent& s = by_address.at(op.address);
      if (op.dependent) {
        EXPECT_GE(s.at, previous_load_done) << "trial " << trial;
      }
      if (op.kind == StreamOp::Kind::Load) previous_load_done = s.done;
    }
    for (size_t k = 1; k < h.caches.sent.size(); ++k)
      ASSERT_GE(h.caches.sent[k].at, h.caches.sent[k - 1].at) << "trial " << trial << ", access " << k;
    for (const Sent& s : h.caches.sent) EXPECT_GE(s.at, h.caches.llc_slot_at(s.address, 0)) << "trial " << trial;
    for (const Sent& s : h.caches.sent) {
      if (s.store || s.address < 1000) continue;
      unsigned in_flight = 0;  // misses holding a slot when this one issued, itself included
      for (const Sent& o : h.caches.sent) in_flight += !o.store && o.address >= 1000 && o.at <= s.at && o.done > s.at;
      EXPECT_LE(in_flight, mshrs) << "trial " << trial;
    }
  }
}

}  // namespace
}  // namespace starnuma
