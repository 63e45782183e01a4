// What a core's interval model keeps between dispatch and retirement: the loads that missed the L1
// (in flight, at most `mshrs`), the ROB's reach past the oldest incomplete load, the store buffer,
// and the core's local time.
//
// A dependent operation (its address from the previous load) issues when that load is done. Under
// `stall` dispatch waits for it. Under `overlap` dispatch goes on and the operation waits here, in
// program order, until local time reaches the moment its address is ready; only then is it sent.
// An access that may miss the LLC while all of the socket's LLC miss slots are busy waits here
// too, until one frees. A hinting fault is taken when its access retires: what follows it in
// program order is squashed and dispatched again after the handler, so nothing younger issues
// before the fault ends (a fence). Every access thus leaves the core in time order and at most a
// quantum ahead of SystemC time, as the caches, links and memories past the core expect; behind
// it only after the core waited in SystemC inside an access (a page walk's read in time order),
// and then the memories keep what it may still need (common/request_floor.hpp). (Sending it at
// dispatch, timed up to a chain of miss latencies ahead, made results depend on the quantum;
// docs/decisions.md.)
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <vector>

#include <algorithm>

#include "common/local_time.hpp"
#include "common/stats.hpp"
#include "debug/waves.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

// `Caches`: the core's CacheHierarchy (a stand-in in tests): access(address, store, at) -> latency,
// certain_l1_hit(address), llc_slot_at(address, at), take_fault_end() -> the last access's
// hinting fault's end, 0 when it took none.
template <class Caches>
class InstructionWindow {
 public:
  struct Shape {
    unsigned rob, mshrs, store_buffer;
    bool overlap;         // dependent_loads: overlap
    int64_t dispatch_fs;  // one instruction's share of a cycle
    int64_t l1_fs;        // an L1 hit's latency: longer is a miss
    int64_t quantum_fs;   // how far ahead of SystemC time an access may be sent
  };
  struct Stalls {
    Counter& rob;
    Counter& mshr;
    Counter& store_buffer;
  };
  InstructionWindow(const Shape& shape, Caches& caches, Stalls stalls, int64_t start_fs);
  void attach_waves(Waves* waves, Waves::Signal outstanding) {
    waves_ = waves;
    outstanding_ = outstanding;
  }

  int64_t now() const { return now_; }
  // Local time moves on to `t` (when later), sending the waiting accesses due by then, and on to the
  // end of a hinting fault one of them took.
  void advance(int64_t t);
  // Dispatches a load or store after its `op.instructions` non-memory instructions; `index` is
  // the operation's instruction number, counted over the whole run.
  void dispatch(const StreamOp& op, uint64_t index);
  // A fence (a barrier): every load dispatched completes; local time is then the last completion.
  void complete_loads();
  // The end of the stream: every load and store completes.
  void complete_all();
  // Whether the last access sent missed the L1 (the host's lookahead hint).
  bool missing() const { return missing_; }

 private:
  static constexpr int64_t kUnknown = std::numeric_limits<int64_t>::max();
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  struct Outstanding {
    uint64_t index;  // instruction number of the load
    int64_t done;    // completion; kUnknown while it waits for its address
  };
  struct Waiting {
    uint64_t index;  // instruction number: program order
    uint64_t address;
    int64_t dispatched;
    int64_t issue;        // when its address is ready; kUnknown while its load waits here too
    uint64_t parent;      // that load's index
    uint32_t store_slot;  // a store's entry in the store buffer
    bool store;
    bool mshr_stalled = false;  // counted once however often it waits for one
  };

  // Sends access `index` at `at` (within the quantum of SystemC time); returns its completion.
  int64_t send(uint64_t index, uint64_t address, bool store, int64_t at);
  // Access `index` took a hinting fault that ends at `end`: nothing younger issues before.
  void fence(uint64_t index, int64_t end);
  // A waiting operation's address is ready at `issue`: it joins those timed.
  void time(Waiting waiting, int64_t issue);
  // Sends the timed operation due first, or delays it until a miss slot is free.
  void send_next_timed();
  // A waiting load sent completes at `done`: the ROB learns it, and the operations waiting for its
  // value are timed.
  void load_sent(uint64_t index, int64_t done);
  // Local time moves on until the waiting operation `index` has been sent.
  void wait_for(uint64_t index);
  void send_all_waiting();
  // Dispatch waits for a free miss slot; returns whether it had to.
  bool wait_for_mshr();
  // The first time from `t` (not before local time) at which fewer than `mshrs` sent loads are in
  // flight.
  int64_t mshr_free_at(int64_t t);
  // Drops the in-flight loads done by local time.
  void retire_in_flight();
  // Orders the timed: the root of the heap is the one due first (ties: program order).
  static bool later(const Waiting& a, const Waiting& b) {
    return a.issue != b.issue ? a.issue > b.issue : a.index > b.index;
  }
  // A sent load missed the L1: it holds a miss slot until `done`.
  void hold_mshr(int64_t done) {
    in_flight_.insert(std::upper_bound(in_flight_.begin(), in_flight_.end(), done, std::greater<>()), done);
  }
  // The one due first is not due before `issue`.
  void delay_next_timed(int64_t issue);

  const Shape shape_;
  Caches& caches_;
  Stalls stalls_;
  Waves* waves_ = nullptr;
  Waves::Signal outstanding_ = Waves::kOff;

  int64_t now_;
  std::vector<Outstanding> loads_;   // incomplete loads that may miss, in program order
  std::vector<int64_t> in_flight_;   // completions of the sent loads that missed, latest first
  size_t waiting_loads_ = 0;         // of which waiting for their address
  std::vector<int64_t> store_done_;  // ring of completion times (kUnknown: waiting)
  std::vector<uint64_t> store_index_;
  size_t store_head_ = 0;
  // Waiting operations: those whose address is ready at a known time (a heap, see `later`), and
  // those whose load is itself waiting, in program order.
  std::vector<Waiting> timed_;
  std::deque<Waiting> untimed_;
  int64_t next_issue_ = kUnknown;  // the earliest issue time among the timed
  // The previous load: its completion, or its index while it waits here.
  int64_t last_load_done_;
  uint64_t last_load_waiting_ = kNone;
  bool missing_ = false;
  int64_t known_sim_fs_ = 0;  // SystemC time when last read
  int64_t resume_fs_ = 0;     // the last fence: dispatch resumes no earlier
};

template <class Caches>
InstructionWindow<Caches>::InstructionWindow(const Shape& shape, Caches& caches, Stalls stalls, int64_t start_fs)
    : shape_(shape),
      caches_(caches),
      stalls_(stalls),
      now_(start_fs),
      store_done_(shape.store_buffer, 0),
      store_index_(shape.store_buffer, kNone),
      last_load_done_(start_fs) {
  loads_.reserve(shape.rob + 1);
  in_flight_.reserve(shape.rob + 1);
  timed_.reserve(shape.rob + shape.store_buffer + 1);
}

template <class Caches>
void InstructionWindow<Caches>::advance(int64_t t) {
  for (;;) {
    while (next_issue_ <= t) send_next_timed();
    now_ = std::max(now_, t);
    if (resume_fs_ <= now_) return;
    t = resume_fs_;  // an access sent took a hinting fault: dispatch resumes after its handler
  }
}

template <class Caches>
void InstructionWindow<Caches>::dispatch(const StreamOp& op, uint64_t index) {
  // Loads completed by now leave the ROB; the ROB holds `rob` instructions past the oldest one.
  while (!loads_.empty() && loads_.front().done <= now_) loads_.erase(loads_.begin());
  while (!loads_.empty() && index - loads_.front().index >= shape_.rob) {
    if (loads_.front().done == kUnknown) {  // not even issued: dispatch waits until it is
      wait_for(loads_.front().index);
      continue;
    }
    advance(loads_.front().done);
    loads_.erase(loads_.begin());
    ++stalls_.rob;
  }
  if (op.dependent && !shape_.overlap) {
    if (last_load_waiting_ != kNone) wait_for(last_load_waiting_);  // waiting for an LLC miss slot
    advance(last_load_done_);
  }
  advance(now_ + static_cast<int64_t>(op.instructions + 1) * shape_.dispatch_fs);

  const bool store = op.kind == StreamOp::Kind::Store;
  if (store && store_done_[store_head_] > now_) {  // the store buffer is full
    if (store_done_[store_head_] == kUnknown) wait_for(store_index_[store_head_]);
    advance(store_done_[store_head_]);
    ++stalls_.store_buffer;
  }
  // A dependent operation whose address is not ready (under `overlap`), or an access the socket's
  // LLC has no miss slot for yet, waits here.
  const bool address_waits = op.dependent && (last_load_waiting_ != kNone || last_load_done_ > now_);
  int64_t slot = now_;
  bool mshr_stalled = false;
  if (!address_waits) {
    if (!store && !caches_.certain_l1_hit(op.address)) mshr_stalled = wait_for_mshr();
    slot = caches_.llc_slot_at(op.address, now_);
  }
  if (address_waits || slot > now_) {
    Waiting waiting{index, op.address, now_,        kUnknown, address_waits ? last_load_waiting_ : kNone,
                    0,     store,      mshr_stalled};
    if (store) {
      waiting.store_slot = static_cast<uint32_t>(store_head_);
      store_done_[store_head_] = kUnknown;
      store_index_[store_head_] = index;
      store_head_ = (store_head_ + 1) % store_done_.size();
    } else {
      loads_.push_back(Outstanding{index, kUnknown});
      ++waiting_loads_;
      last_load_waiting_ = index;
    }
    if (waiting.parent == kNone) time(waiting, address_waits ? last_load_done_ : slot);
    else untimed_.push_back(waiting);
    return;
  }
  if (store) {
    store_done_[store_head_] = send(index, op.address, true, now_);
    store_head_ = (store_head_ + 1) % store_done_.size();
    return;
  }
  const int64_t done = send(index, op.address, false, now_);
  if (missing_) {
    loads_.push_back(Outstanding{index, done});
    hold_mshr(done);
  }
  last_load_done_ = done;
  last_load_waiting_ = kNone;
}

template <class Caches>
int64_t InstructionWindow<Caches>::send(uint64_t index, uint64_t address, bool store, int64_t at) {
  // SystemC time moves only while this thread waits (here, or in a page walk), so the last reading
  // is a lower bound: the kernel is asked only when that bound says the access may be too far ahead.
  if (at - known_sim_fs_ >= shape_.quantum_fs) {
    wait_if_ahead(at, shape_.quantum_fs);
    known_sim_fs_ = sim_now_fs();
  }
  const int64_t latency = caches_.access(address, store, at);
  if (const int64_t fault_end = caches_.take_fault_end()) fence(index, fault_end);
  missing_ = latency > shape_.l1_fs;
  if (waves_ && missing_ && !store) {
    waves_->add(outstanding_, at / 1000, 1);
    waves_->add(outstanding_, (at + latency) / 1000, -1);
  }
  return at + latency;
}

template <class Caches>
void InstructionWindow<Caches>::fence(uint64_t index, int64_t end) {
  resume_fs_ = std::max(resume_fs_, end);
  bool moved = false;
  for (Waiting& w : timed_)
    if (w.index > index && w.issue < end) {
      w.issue = end;
      moved = true;
    }
  if (moved) {
    std::make_heap(timed_.begin(), timed_.end(), later);
    next_issue_ = timed_.front().issue;
  }
  for (Waiting& w : untimed_)  // timed later, from their dispatch on
    if (w.index > index) w.dispatched = std::max(w.dispatched, end);
}

template <class Caches>
void InstructionWindow<Caches>::time(Waiting waiting, int64_t issue) {
  waiting.issue = std::max(waiting.dispatched, issue);
  timed_.push_back(waiting);
  std::push_heap(timed_.begin(), timed_.end(), later);
  next_issue_ = timed_.front().issue;
}

template <class Caches>
void InstructionWindow<Caches>::delay_next_timed(int64_t issue) {
  // The root's key grows: it sinks to its place.
  Waiting w = timed_.front();
  w.issue = issue;
  size_t i = 0;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= timed_.size()) break;
    if (child + 1 < timed_.size() && later(timed_[child], timed_[child + 1])) ++child;
    if (!later(w, timed_[child])) break;
    timed_[i] = timed_[child];
    i = child;
  }
  timed_[i] = w;
  next_issue_ = timed_.front().issue;
}

template <class Caches>
void InstructionWindow<Caches>::send_next_timed() {
  Waiting& next = timed_.front();
  if (!next.store && !caches_.certain_l1_hit(next.address)) {
    // The miss slot is taken at issue: a load issued while all are busy waits for the first to free.
    if (const int64_t free = mshr_free_at(next.issue); free > next.issue) {
      if (!next.mshr_stalled) ++stalls_.mshr;
      next.mshr_stalled = true;
      delay_next_timed(free);
      return;
    }
  }
  // So is the LLC's (the socket's cores share them).
  if (const int64_t slot = caches_.llc_slot_at(next.address, next.issue); slot > next.issue) {
    delay_next_timed(slot);
    return;
  }
  std::pop_heap(timed_.begin(), timed_.end(), later);
  const Waiting sent = timed_.back();
  timed_.pop_back();
  next_issue_ = timed_.empty() ? kUnknown : timed_.front().issue;
  const int64_t done = send(sent.index, sent.address, sent.store, sent.issue);
  if (sent.store) store_done_[sent.store_slot] = done;
  else load_sent(sent.index, done);
}

template <class Caches>
void InstructionWindow<Caches>::load_sent(uint64_t index, int64_t done) {
  const auto load = std::lower_bound(loads_.begin(), loads_.end(), index,
                                     [](const Outstanding& l, uint64_t i) { return l.index < i; });
  --waiting_loads_;
  if (missing_) {
    load->done = done;
    hold_mshr(done);
  } else {
    loads_.erase(load);
  }
  if (last_load_waiting_ == index) {
    last_load_waiting_ = kNone;
    last_load_done_ = done;
  }
  // Its dependants are the untimed operations right after it in program order.
  auto first = std::lower_bound(untimed_.begin(), untimed_.end(), index,
                                [](const Waiting& w, uint64_t i) { return w.index < i; });
  auto last = first;
  while (last != untimed_.end() && last->parent == index) time(*last++, done);
  untimed_.erase(first, last);
}

template <class Caches>
void InstructionWindow<Caches>::wait_for(uint64_t index) {
  for (;;) {
    // Follow the operation's chain back to the waiting operation that is timed.
    uint64_t wanted = index;
    for (;;) {
      const auto untimed = std::lower_bound(untimed_.begin(), untimed_.end(), wanted,
                                            [](const Waiting& w, uint64_t i) { return w.index < i; });
      if (untimed == untimed_.end() || untimed->index != wanted) break;
      wanted = untimed->parent;
    }
    const auto timed =
        std::find_if(timed_.begin(), timed_.end(), [wanted](const Waiting& w) { return w.index == wanted; });
    if (timed == timed_.end()) return;  // sent
    advance(timed->issue);
  }
}

template <class Caches>
void InstructionWindow<Caches>::send_all_waiting() {
  while (!timed_.empty()) advance(next_issue_);
}

template <class Caches>
void InstructionWindow<Caches>::retire_in_flight() {
  while (!in_flight_.empty() && in_flight_.back() <= now_) in_flight_.pop_back();
}

template <class Caches>
bool InstructionWindow<Caches>::wait_for_mshr() {
  // The ROB's entries done by now go too (the ROB's check counts a stall for each one it must wait for).
  loads_.erase(std::remove_if(loads_.begin(), loads_.end(), [this](const Outstanding& l) { return l.done <= now_; }),
               loads_.end());
  retire_in_flight();
  if (in_flight_.size() < shape_.mshrs) return false;
  ++stalls_.mshr;
  // Waiting loads sent meanwhile may take the slot that frees: then the next.
  while (in_flight_.size() >= shape_.mshrs) {
    advance(in_flight_.back());
    retire_in_flight();
  }
  loads_.erase(std::remove_if(loads_.begin(), loads_.end(), [this](const Outstanding& l) { return l.done <= now_; }),
               loads_.end());
  return true;
}

template <class Caches>
int64_t InstructionWindow<Caches>::mshr_free_at(int64_t t) {
  // Those done by local time cannot count at `t`.
  retire_in_flight();
  // The `mshrs`-th latest completion is when fewer than `mshrs` remain in flight.
  return in_flight_.size() < shape_.mshrs ? t : std::max(t, in_flight_[shape_.mshrs - 1]);
}

template <class Caches>
void InstructionWindow<Caches>::complete_loads() {
  send_all_waiting();
  for (const Outstanding& l : loads_) advance(l.done);
  loads_.clear();
  in_flight_.clear();
}

template <class Caches>
void InstructionWindow<Caches>::complete_all() {
  complete_loads();
  for (int64_t done : store_done_) advance(done);
}

}  // namespace starnuma
