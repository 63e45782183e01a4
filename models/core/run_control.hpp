// What the cores of one run share: barriers (a thread waits until every thread still running
// has arrived) and the count of threads still running. Used from the cores' SystemC threads.
#pragma once

#include <cstdint>

#include <systemc>

namespace starnuma {

class RunControl {
 public:
  explicit RunControl(unsigned threads) : active_(threads) {}

  // Called by a thread whose local time is synchronised with simulated time; returns when every
  // running thread has reached the barrier (at the time the last one arrived).
  // `starts_measurement`: when all have arrived, statistics restart and the measured interval begins.
  void barrier(uint64_t id, bool starts_measurement = false);
  // The calling thread has finished; barriers stop waiting for it.
  void finished();
  unsigned active() const { return active_; }
  uint64_t barriers_passed() const { return generation_; }
  // When the measured interval began (zero unless a barrier started measurement).
  sc_core::sc_time measurement_start() const { return measurement_start_; }

 private:
  void release();

  unsigned active_;
  unsigned arrived_ = 0;
  uint64_t current_id_ = 0;
  bool current_starts_measurement_ = false;
  sc_core::sc_time measurement_start_;
  uint64_t generation_ = 0;
  sc_core::sc_event released_;
};

}  // namespace starnuma
