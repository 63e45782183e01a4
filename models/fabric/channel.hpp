// One direction of a link: a first-come-first-served server of fixed bandwidth.
//
// A message arriving at time t waits until the direction is free (its own occupancy), occupies it
// for size/bandwidth, and arrives at the far end `latency` after it started. The unloaded delay
// is exactly `latency` (serialization of a message is part of the link's quoted latency); under
// load the extra delay is the queueing wait, which for Poisson arrivals of fixed-size messages is
// the M/D/1 waiting time rho*S / (2*(1-rho)) (docs/fabric.md).
//
// Arrivals are served in call order. With one initiator, or initiators within one quantum of each
// other, call order is time order or close to it (docs/fabric.md discusses the approximation).
#pragma once

#include <cstdint>

#include "common/stats.hpp"
#include "common/units.hpp"

namespace starnuma {

class Channel {
 public:
  Channel(StatOwner& owner, const std::string& direction, Bandwidth bandwidth, Time latency);

  // The time the message's head reaches the far end (arrival + wait + latency).
  Time traverse(Time arrival, uint32_t bytes) {
    const Time start = arrival > busy_until_ ? arrival : busy_until_;
    const Time service = Time::from_ps(static_cast<int64_t>(bytes * ps_per_byte_ + 0.5));
    busy_until_ = start + service;
    busy_ps_ += service.ps();
    const int64_t wait = (start - arrival).ps();
    wait_ps_ += wait;
    if (wait > 0) ++queued_;
    ++messages_;
    bytes_ += bytes;
    return start + latency_;
  }

  Time latency() const { return latency_; }
  Bandwidth bandwidth() const { return bandwidth_; }
  uint64_t messages() const { return messages_.value(); }
  // Fraction of `elapsed` this direction spent sending.
  double utilization(Time elapsed) const;
  Time busy_time() const { return Time::from_ps(busy_ps_); }
  double mean_wait_ns() const;

 private:
  Bandwidth bandwidth_;
  Time latency_;
  double ps_per_byte_;
  Time busy_until_;
  int64_t busy_ps_ = 0;
  int64_t wait_ps_ = 0;
  Counter messages_;
  Counter bytes_;
  Counter queued_;
  Formula utilization_stat_;
  Formula wait_stat_;
};

}  // namespace starnuma
