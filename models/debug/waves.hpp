// Waveforms of a whole-platform run (`run --waves FILE.fst|.vcd`, docs/debugging.md). The model
// computes times rather than toggling signals, and with temporal decoupling it computes them out
// of time order: so components record changes with their simulated time (a queue grows at an
// arrival and shrinks at a departure already known), and the recorder sorts them when it writes.
// Changes outside the window are folded into the value the window starts with or dropped, so a
// window bounds both the file and the host memory a run's waves take.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace starnuma {

struct WaveOptions {
  std::string path;  // FILE.fst (GTKWave's compressed format) or FILE.vcd
  int64_t start_ps = 0;
  int64_t end_ps = std::numeric_limits<int64_t>::max();
  // Glob patterns (fnmatch) on a signal's component path, e.g. "links.cxl_*"; empty: every signal.
  std::vector<std::string> filters;
};

// The options of `run --waves FILE --waves-window START:END --waves-filter P,...`, checked (a
// starnuma/usage error names the option) and the file's place too, before anything runs.
WaveOptions wave_options(const std::string& path, const std::string& window, const std::vector<std::string>& filters);

class Waves {
 public:
  using Signal = int32_t;
  static constexpr Signal kOff = -1;  // a signal the filters leave out: recording it does nothing

  explicit Waves(WaveOptions options);
  const WaveOptions& options() const { return options_; }

  // A signal `name` of the component at `scope` (its SystemC name, "links.cxl_socket0_pool"),
  // `width` bits wide. A level moves by deltas (add: a queue's depth, a busy flag); a value is set
  // (set: a running total, a state).
  Signal level(const std::string& scope, const std::string& name, unsigned width);
  Signal value(const std::string& scope, const std::string& name, unsigned width);
  void add(Signal s, int64_t t_ps, int64_t delta) {
    if (s >= 0) record(s, t_ps, delta);
  }
  void set(Signal s, int64_t t_ps, int64_t value) {
    if (s >= 0) record(s, t_ps, value);
  }
  // Whether anything under `scope` passes the filters (so a component may skip declaring).
  bool wants(const std::string& scope) const;

  // Writes the file (atomically), in time order; changes at the same time collapse into one.
  void write();
  size_t changes() const { return events_.size(); }
  size_t signals() const { return vars_.size(); }

 private:
  struct Var {
    std::string scope, name;
    unsigned width;
    bool level;
    int64_t initial = 0;     // the value when the window opens
    int64_t initial_t = -1;  // a value's latest change before the window (-1: none)
  };
  struct Event {
    int64_t t;
    int64_t v;
    uint32_t s;
  };
  Signal declare(const std::string& scope, const std::string& name, unsigned width, bool level);
  void record(Signal s, int64_t t, int64_t v);
  // Calls emit(time, signal, value) for every change in time order, after init(signal, value).
  template <class Init, class Emit>
  void replay(Init init, Emit emit) const;
  template <class Open, class Close, class Declare>
  void declare_in_scope_order(Open open, Close close, Declare declare) const;
  void write_vcd(const std::string& path) const;
  void write_fst(const std::string& path) const;

  WaveOptions options_;
  std::vector<Var> vars_;
  std::vector<Event> events_;
  uint64_t budget_;  // bytes: half the host memory this command may use (starnuma --max-host-memory)
};

// Every component of the elaborated design declares its signals (Component::attach_waves).
void attach_waves(Waves& waves);

}  // namespace starnuma
