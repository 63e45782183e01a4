// One direction of a link: a first-come-first-served server of fixed bandwidth.
//
// A message arriving at time t takes the first idle stretch of the direction at or after t that is
// long enough for it (size/bandwidth), and arrives at the far end `latency` after it started. The unloaded delay
// is exactly `latency` (serialization of a message is part of the link's quoted latency); under
// load the extra delay is the queueing wait, which for Poisson arrivals of fixed-size messages is
// the M/D/1 waiting time rho*S / (2*(1-rho)) (docs/fabric.md).
//
// Busy stretches are kept for a window behind the latest arrival, so a message that arrives (in
// call order) after one that is later in simulated time still finds the gap before it: with
// temporal decoupling, calls are not in time order. For calls in time order this is exactly
// first come, first served.
#pragma once

#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "common/units.hpp"
#include "debug/waves.hpp"

namespace starnuma {

class Channel {
 public:
  Channel(StatOwner& owner, const std::string& direction, Bandwidth bandwidth, Time latency);

  // The time the message's head reaches the far end (arrival + wait + latency).
  Time traverse(Time arrival, uint32_t bytes) { return traverse(arrival, bytes, service_ps(bytes)); }
  // As above, with the message's serialization time already known (service_ps(bytes)).
  Time traverse(Time arrival, uint32_t bytes, int64_t service) {
    const int64_t start = occupy(arrival.ps(), service);
    if (waves_) record_waves(arrival.ps(), start, service);
    busy_ps_ += service;
    const int64_t wait = start - arrival.ps();
    wait_ps_ += wait;
    if (wait > 0) ++queued_;
    ++messages_;
    bytes_ += bytes;
    return Time::from_ps(start) + latency_;
  }

  // How long the direction is busy sending `bytes`.
  int64_t service_ps(uint32_t bytes) const { return static_cast<int64_t>(bytes * ps_per_byte_ + 0.5); }
  Time latency() const { return latency_; }
  Bandwidth bandwidth() const { return bandwidth_; }
  uint64_t messages() const { return messages_.value(); }
  // Fraction of `elapsed` (from the accounting's start) this direction spent sending: messages
  // booked to send after it count only up to its end.
  double utilization(Time elapsed) const;
  Time busy_time() const { return Time::from_ps(busy_ps_); }
  double mean_wait_ns() const;
  // Records this direction's busy flag and queue (messages waiting or being sent) under `scope`.
  void attach_waves(Waves& waves, const std::string& scope);
  // Restarts the busy and wait accounting at SystemC time (the counters restart with their owner).
  void reset_accounting() {
    busy_ps_ = 0;
    wait_ps_ = 0;
    accounting_from_ps_ = static_cast<int64_t>(sc_core::sc_time_stamp().value());
  }

 private:
  struct Busy {
    int64_t start, end;
  };
  // Reserves `service` ps in the first idle stretch at or after `arrival`; returns its start.
  int64_t occupy(int64_t arrival, int64_t service);
  void compact();
  void record_waves(int64_t arrival, int64_t start, int64_t service) {
    waves_->add(busy_signal_, start, 1);
    waves_->add(busy_signal_, start + service, -1);
    waves_->add(queue_signal_, arrival, 1);
    waves_->add(queue_signal_, start + service, -1);
  }

  Bandwidth bandwidth_;
  Time latency_;
  double ps_per_byte_;
  std::vector<Busy> busy_;  // disjoint, sorted; entries before `first_` are forgotten
  size_t first_ = 0;
  int64_t newest_ = 0;  // latest arrival seen
  int64_t busy_ps_ = 0;
  int64_t wait_ps_ = 0;
  int64_t accounting_from_ps_ = 0;
  Counter messages_;
  Counter bytes_;
  Counter queued_;
  Formula utilization_stat_;
  Formula wait_stat_;
  Waves* waves_ = nullptr;
  Waves::Signal busy_signal_ = Waves::kOff, queue_signal_ = Waves::kOff;
};

}  // namespace starnuma
