// What the cores of one run share: barriers (a thread waits until every thread still running
// has arrived) and the count of threads still running. Used from the cores' SystemC threads.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

namespace starnuma {

class RunControl {
 public:
  // `warming_up`: every thread first runs a warm-up (Core::Job::warmup) and reports its end.
  explicit RunControl(unsigned threads, bool warming_up = false) : active_(threads), warming_(warming_up ? threads : 0) {}

  // Called by a thread whose local time is synchronised with simulated time; returns when every
  // running thread has reached the barrier (at the time the last one arrived).
  // `starts_measurement`: when all have arrived, statistics restart and the measured interval begins.
  void barrier(uint64_t id, bool starts_measurement = false);
  // The calling thread has finished; barriers stop waiting for it.
  void finished();
  // The calling thread (synchronised with simulated time) has ended its warm-up and restarted its
  // own statistics. When the last one has, every other statistic (links, memories, the
  // directory, trackers) restarts and the measured interval begins: no global barrier, which
  // could meet a workload's own barriers in a different order.
  void warmed_up();
  unsigned active() const { return active_; }
  // Whether every thread's warm-up has ended (always, without one).
  bool measuring() const { return warming_ == 0; }
  uint64_t barriers_passed() const { return generation_; }
  // A progress report, called from the cores about once per 64 quanta of their time; it only
  // reads. No SystemC process of its own: another process would change the order in which SystemC
  // runs the cores at equal times, and with it the results (which core first touches a page).
  void set_progress(std::function<void()> report) { progress_ = std::move(report); }
  void tick() {
    if (sampler_) sampler_();
    if (progress_ && (++ticks_ & 63) == 0) progress_();
  }
  // Called at every quantum boundary of every core (a run's timeline); it only reads, as above.
  void set_sampler(std::function<void()> sample) { sampler_ = std::move(sample); }
  // Mixed modality: detailed cores report their progress; light cores run at their measured IPC.
  void report_detailed(uint64_t instructions, uint64_t cycles) {
    detailed_instructions_ += instructions;
    detailed_cycles_ += cycles;
  }
  // Instructions per cycle of the detailed cores so far (1 until they have reported).
  double detailed_ipc() const {
    return detailed_cycles_ ? static_cast<double>(detailed_instructions_) / static_cast<double>(detailed_cycles_) : 1.0;
  }
  // When the measured interval began (zero unless a barrier started measurement).
  sc_core::sc_time measurement_start() const { return measurement_start_; }
  // When the last thread finished (helper processes such as the progress line or the OS may wake
  // later; the run ends here).
  sc_core::sc_time end() const { return end_; }

 private:
  void release();

  unsigned active_;
  unsigned warming_;
  unsigned arrived_ = 0;
  uint64_t current_id_ = 0;
  bool current_starts_measurement_ = false;
  std::function<void()> progress_;
  std::function<void()> sampler_;
  uint64_t ticks_ = 0;
  sc_core::sc_time end_;
  sc_core::sc_time measurement_start_;
  uint64_t detailed_instructions_ = 0, detailed_cycles_ = 0;
  uint64_t generation_ = 0;
  sc_core::sc_event released_;
};

}  // namespace starnuma
