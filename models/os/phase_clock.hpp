// The clock that migration phases are counted by (os.phase_instructions): the mean thread's
// instructions over the threads that have not finished. Each time it is read it advances by the
// instructions the threads retired since the last reading, divided by the number of threads that
// took part: those that retired something or have not finished. So every phase holds the same work
// (threads x os.phase_instructions) however the threads drift apart or wait at barriers, in a timed
// run as in the functional pass (whose equal turns keep its threads together), which is what the
// thresholds, scaled per instruction of a thread, assume; one thread sprinting ahead does not bring
// a phase forward; and threads that finished (a chase's spare threads) do not hold phases back
// (docs/os.md, "A phase"; docs/decisions.md, "Phases by the mean thread's work").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starnuma {

class PhaseClock {
 public:
  explicit PhaseClock(size_t threads) : last_(threads, 0) {}

  // One reading: `retired(t)` is thread t's instructions since the start, `finished(t)` whether its
  // stream or budget has ended.
  template <class Retired, class Finished>
  void advance(Retired&& retired, Finished&& finished) {
    uint64_t sum = 0, taking_part = 0;
    for (size_t t = 0; t < last_.size(); ++t) {
      const uint64_t now = retired(t), delta = now - last_[t];
      last_[t] = now;
      sum += delta;
      taking_part += delta > 0 || !finished(t);
    }
    if (taking_part) fixed_ += (sum << kFraction) / taking_part;
  }
  uint64_t instructions() const { return fixed_ >> kFraction; }

 private:
  static constexpr unsigned kFraction = 16;  // fixed point: deterministic, no rounding drift to speak of
  std::vector<uint64_t> last_;
  uint64_t fixed_ = 0;
};

}  // namespace starnuma
