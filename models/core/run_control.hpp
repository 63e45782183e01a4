// What the cores of one run share: barriers (a thread waits until every thread of its program
// still running has arrived) and the count of threads still running. Used from the cores' SystemC
// threads. The threads form groups, one per program of a mix (one for a single workload): each
// group's barriers are its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

namespace starnuma {

class RunControl {
 public:
  // `warming_up`: every thread first runs a warm-up (Core::Job::warmup) and reports its end.
  explicit RunControl(unsigned threads, bool warming_up = false)
      : RunControl(std::vector<unsigned>{threads}, 0, warming_up) {}
  // `group_threads[g]`: the threads of group g. `initialising_groups`: how many groups begin with
  // an initialisation ended by a barrier that starts measurement.
  RunControl(const std::vector<unsigned>& group_threads, unsigned initialising_groups, bool warming_up);

  // Called by a thread of `group` whose local time is synchronised with simulated time; returns
  // when every running thread of the group has reached the barrier (at the time the last one
  // arrived). `starts_measurement`: when all have arrived, statistics restart and the measured
  // interval begins; with several groups, only that group's cores restart (the caller's returns
  // true: it restarts its own) and everything else once the last initialising group has passed.
  bool barrier(uint64_t id, bool starts_measurement = false, size_t group = 0);
  // The calling thread of `group` has finished; the group's barriers stop waiting for it.
  void finished(size_t group = 0);
  // The calling thread (synchronised with simulated time) has ended its warm-up and restarted its
  // own statistics. When the last one has, every other statistic (links, memories, the
  // directory, trackers) restarts and the measured interval begins: no global barrier, which
  // could meet a workload's own barriers in a different order.
  void warmed_up();
  // A measured interval over a common span of time (a sampled window's unit; docs/sampling.md):
  // the warm-up ends when the threads together have retired `warmup` instructions, the measurement
  // when they have retired `total` more, each thread at its next instruction after that, instead of
  // each at its own counts.
  void set_span(uint64_t total, uint64_t warmup) {
    span_total_ = span_end_ = total;
    warmup_total_ = warmup;
  }
  // A boundary's window timing its phase's copies (run --time-copies-to; docs/sampling.md): the
  // span ends at `least` once the OS has started every copy (copies_started()), else at its total.
  void set_span_floor(uint64_t least) { span_least_ = std::min(least, span_total_); }
  void copies_started() {
    if (span_least_) span_end_ = span_least_;
  }
  bool spans() const { return span_total_ > 0; }
  // A thread's instructions retired since it last reported, in its warm-up or in its measurement
  // (counted once every thread measures).
  void warming(uint64_t n);
  // Over a span, a thread still warming waits at a barrier (`held`), or has left it. When the
  // warm-up's total is reached while it waits, its warm-up ends there (it retires nothing until the
  // barrier releases it, so it could not see the end itself): the measurement must not start late
  // by the rest of that wait. Leaving returns whether its warm-up ended so (then it has been
  // counted as warmed up and must not call warmed_up()).
  void hold_warming() { ++held_warming_; }
  bool leave_held_warming();
  void retired(uint64_t n) {
    if (measuring()) span_over_ = span_over_ || (span_done_ += n) >= span_end_;
  }
  bool warmup_span_over() const { return warmup_over_; }
  bool span_over() const { return span_over_; }
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
  // When the measured interval began (zero unless a barrier started measurement).
  sc_core::sc_time measurement_start() const { return measurement_start_; }
  // When the last thread finished (helper processes such as the progress line or the OS may wake
  // later; the run ends here).
  sc_core::sc_time end() const { return end_; }

 private:
  struct Group {
    unsigned active;
    unsigned arrived = 0;
    uint64_t current_id = 0;
    bool current_starts_measurement = false;
    uint64_t generation = 0;
    sc_core::sc_event released;
  };
  void release(Group& g);

  unsigned active_;
  unsigned warming_;
  unsigned initialising_groups_;
  std::deque<Group> groups_;  // sc_event neither copies nor moves
  std::function<void()> progress_;
  std::function<void()> sampler_;
  uint64_t ticks_ = 0;
  uint64_t span_total_ = 0, span_done_ = 0, warmup_total_ = 0, warmup_done_ = 0;
  uint64_t span_end_ = 0, span_least_ = 0;  // span_end_: span_total_, or span_least_ once copied
  unsigned held_warming_ = 0;               // threads waiting at a barrier in their warm-up
  unsigned warmup_ended_held_ = 0;          // of them, those whose warm-up ended while they waited
  bool span_over_ = false, warmup_over_ = false;
  sc_core::sc_time end_;
  sc_core::sc_time measurement_start_;
  uint64_t generation_ = 0;
};

}  // namespace starnuma
