// What the graph kernels share: a kernel is computed first (its real result, deterministically),
// then described as a sequence of OpenMP-style parallel loops separated by barriers. Each thread's
// stream walks those loops, runs its share of each loop's items through the kernel's loop body
// (which emits the loads and stores of the real arrays at their addresses) and closes every loop
// with a barrier. Streams are produced on the fly, in bounded memory.
//
// Scheduling is modelled without simulated timing, so a thread's work never depends on it:
//   Static    schedule(static): one contiguous share per thread;
//   Dynamic   schedule(dynamic, chunk): rounds of one chunk per thread, the threads of each round
//             in a random order drawn from the loop's salt, so the work stays balanced but a
//             chunk's thread changes from loop to loop, as in a real run;
//   Serial    thread 0 alone (an `omp single` or serial section);
//   PerThread each thread its own items (thread-private work such as copying a local buffer).
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "stimulus/graph/kronecker.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

constexpr uint64_t kGraphPage = 4096, kGraphLine = 64;

struct ParallelLoop {
  enum class Schedule : uint8_t { Static, Dynamic, Serial, PerThread };
  uint8_t body = 0;  // which of the kernel's loop bodies runs the items
  Schedule schedule = Schedule::Static;
  int64_t begin = 0, end = 0;  // the items (PerThread: the kernel's thread_items decides)
  int64_t chunk = 1;           // Dynamic
  uint64_t salt = 0;           // Dynamic: the thread order of each round
  uint32_t round = 0;          // the kernel's own numbering (a trial, an iteration) ...
  uint32_t step = 0;           // ... and a step within it
};

// The items of one loop that one thread runs, in the order it runs them.
class LoopShare {
 public:
  LoopShare() = default;
  LoopShare(const ParallelLoop& loop, unsigned thread, unsigned threads, std::pair<int64_t, int64_t> per_thread_items);
  // The next item, or -1 when the thread's share is done.
  int64_t next() {
    while (next_ >= chunk_end_) {
      if (!dynamic_ || next_ >= end_) return -1;
      ++round_;
      start_round();
    }
    return next_++;
  }

 private:
  void start_round();
  int64_t begin_ = 0, end_ = 0, chunk_ = 1, next_ = 0, chunk_end_ = 0, round_ = 0;
  unsigned thread_ = 0, threads_ = 1;
  uint64_t salt_ = 0;
  bool dynamic_ = false;
  std::vector<unsigned> order_;
};

// Where a loop body puts the operations of one item.
class OpSink {
 public:
  void load(uint64_t address, uint32_t instructions, bool dependent = false) {
    ops_.push_back(StreamOp{StreamOp::Kind::Load, dependent, false, instructions, address});
  }
  void store(uint64_t address, uint32_t instructions, bool dependent = false) {
    ops_.push_back(StreamOp{StreamOp::Kind::Store, dependent, false, instructions, address});
  }

 private:
  friend class ProgramStream;
  std::vector<StreamOp> ops_;
};

// A kernel after its execution: the loops its threads run and what one item of each does.
class ParallelProgram {
 public:
  virtual ~ParallelProgram() = default;
  // The loop at `index` in the order every thread runs them, or nullptr past the last. The pointer
  // stays valid as long as the program. Thread-safe.
  const ParallelLoop* loop(size_t index) const;
  // The rounds computed so far (add_round); 1 for a kernel that gave its loops whole.
  uint32_t rounds_made() const;
  // Emits the operations of item `item` of `loop`, run by `thread`.
  virtual void run_item(const ParallelLoop& loop, int64_t item, unsigned thread, OpSink& sink) const = 0;
  // PerThread loops: the items [first, second) of `thread`.
  virtual std::pair<int64_t, int64_t> thread_items(const ParallelLoop&, unsigned) const { return {0, 0}; }
  // The pages `thread` touches first while the data is built (one store each), before the
  // barrier that starts measurement.
  virtual void first_touch(unsigned thread, unsigned threads, std::vector<uint64_t>& pages) const = 0;
  virtual uint64_t footprint() const = 0;

 protected:
  // A kernel whose loops are all known when it is built gives them here, once.
  void set_loops(const std::vector<ParallelLoop>& loops);
  // A kernel of rounds (searches from different roots, one after another) may instead compute each
  // round when a stream first reaches it: appends round `round`'s loops to `loops` and returns true,
  // or false when there is no such round. Called once per round, in order, under a lock, so a run
  // computes (and holds) only the rounds its streams reach.
  virtual bool add_round(uint32_t /*round*/, std::vector<ParallelLoop>& /*loops*/) const { return false; }

 private:
  mutable std::mutex mutex_;
  mutable std::deque<ParallelLoop> loops_;  // a deque: references stay valid as rounds are added
  mutable uint32_t rounds_ = 0;             // made so far; set_loops makes its one
  mutable bool complete_ = false;
};

// Appends the pages overlapping the bytes [from, to).
void append_pages(std::vector<uint64_t>& pages, uint64_t from, uint64_t to);
// Appends the pages of `thread`'s static share of a per-vertex array of `element` bytes.
void append_vertex_share(std::vector<uint64_t>& pages, uint64_t base, uint64_t element, int64_t vertices,
                         unsigned thread, unsigned threads);
// Appends the pages of a CSR graph (offsets and neighbours) that `thread` builds: its static share
// of the vertices and their edges, as a parallel build first touches them.
void append_csr_share(std::vector<uint64_t>& pages, const CsrGraph& g, uint64_t offsets, uint64_t neighbors,
                      uint64_t neighbor_bytes, unsigned thread, unsigned threads);

// A workload that runs a ParallelProgram: the same for every graph kernel.
class ProgramWorkload : public Workload {
 public:
  ProgramWorkload(std::shared_ptr<const ParallelProgram> program, unsigned threads)
      : program_(std::move(program)), threads_(threads) {}
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return program_->footprint(); }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  const ParallelProgram& program() const { return *program_; }

 private:
  std::shared_ptr<const ParallelProgram> program_;
  unsigned threads_;
};

}  // namespace starnuma
