// Plumbing shared by the RTL benches: plusargs, a seeded generator, functional coverage, the
// scoreboard's error log, a clock driver with optional FST tracing, and the summary line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <verilated.h>
#include <verilated_fst_c.h>

namespace starnuma::bench {

struct Options {
  uint64_t seed = 1;
  unsigned width = 4;       // T_i counter width of the model under test
  uint64_t cycles = 20000;  // random-phase length
  bool trace = false;
  std::string trace_file;  // default: <bench>_T<width>_seed<seed>.fst
};

// Reads +seed=N +width=N +cycles=N +trace[=file.fst]; anything else is an error (exit 2).
Options parse_options(int argc, char** argv, const char* bench);

// xoshiro256** seeded by splitmix64: the same seed gives the same run on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool percent(unsigned p) { return below(100) < p; }

 private:
  uint64_t s_[4];
};

// Named coverage points; a point marked not applicable (e.g. counter saturation in the metadata
// for T0, which has no counter) leaves the denominator.
class Coverage {
 public:
  int add(const char* name, bool applicable = true);
  void hit(int id, bool cond = true) {
    if (cond) ++points_[id].hits;
  }
  uint64_t hits(int id) const { return points_[id].hits; }
  double percent() const;
  bool complete() const;
  void report() const;  // one line per point

 private:
  struct Point {
    std::string name;
    bool applicable;
    uint64_t hits = 0;
  };
  std::vector<Point> points_;
};

// Counts checks and records mismatches (the first few are printed).
class Scoreboard {
 public:
  void check(bool ok, const std::string& what);
  void error(const std::string& what) { check(false, what); }
  uint64_t checked() const { return checked_; }
  uint64_t errors() const { return errors_; }

 private:
  uint64_t checked_ = 0;
  uint64_t errors_ = 0;
};

// Prints the summary line and returns the exit code: 0 only with no error and full coverage.
int summarize(const char* bench, const Options& o, const Scoreboard& sb, const Coverage& cov, uint64_t transactions,
              bool rtl_assertion_failed);

// Owns a Verilated model and its context. Per cycle the bench drives inputs, calls settle() (clock
// low: combinational outputs valid, dumped), samples handshakes, then rise() (the clock edge).
template <class V>
class Clocked {
 public:
  Clocked(const Options& o, const char* bench, int argc, char** argv) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->commandArgs(argc, argv);
    ctx_->fatalOnError(false);  // an RTL assertion ends the run as a reported failure, not abort()
    ctx_->traceEverOn(o.trace);
    top_ = std::make_unique<V>(ctx_.get(), "top");
    if (o.trace) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      const std::string file = o.trace_file.empty() ? std::string(bench) + "_T" + std::to_string(o.width) + "_seed" +
                                                          std::to_string(o.seed) + ".fst"
                                                    : o.trace_file;
      fst_->open(file.c_str());
    }
  }
  ~Clocked() {
    if (fst_) fst_->close();
    top_->final();
  }
  V* operator->() { return top_.get(); }
  void settle() {
    top_->clk = 0;
    top_->eval();
    dump();
  }
  void rise() {
    top_->clk = 1;
    top_->eval();
    dump();
    ++cycle_;
  }
  void reset(unsigned cycles = 4) {
    top_->rst = 1;
    for (unsigned i = 0; i < cycles; ++i) {
      settle();
      rise();
    }
    top_->rst = 0;
  }
  uint64_t cycle() const { return cycle_; }
  bool assertion_failed() const { return ctx_->gotError(); }

 private:
  void dump() {
    ctx_->timeInc(1);
    if (fst_) fst_->dump(ctx_->time());
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycle_ = 0;
};

}  // namespace starnuma::bench
