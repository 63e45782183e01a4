// The contract between workloads (stimulus/) and cores (models/core/): each hardware thread reads
// a stream of operations. An operation is a load, a store or a barrier, preceded by a number of
// non-memory instructions. Streams are filled in batches, so a core pays one virtual call per
// batch, not per operation, and a generator may produce its stream incrementally in bounded
// memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace starnuma {

struct StreamOp {
  enum class Kind : uint8_t { Load, Store, Barrier };
  Kind kind = Kind::Load;
  // The address was computed from the value of the thread's previous load (pointer chasing): the
  // core cannot issue this operation before that load completes.
  bool dependent = false;
  // On a barrier: measurement starts when every thread has passed it (statistics restart and the
  // run's instruction budget counts from here), so initialisation is not measured.
  bool starts_measurement = false;
  uint32_t instructions = 0;  // non-memory instructions retired before this operation
  uint64_t address = 0;       // virtual byte address; for a barrier, the barrier's id
};

class ThreadStream {
 public:
  virtual ~ThreadStream() = default;
  // Writes up to `max` next operations into `out` and returns how many; 0: the thread is done.
  virtual size_t fill(StreamOp* out, size_t max) = 0;
  // Passes over the next `n` operations without delivering them; returns how many it passed
  // (fewer only when the stream ended). A sampled window resumes a stream this way. A stream that
  // can seek (a recorded trace) passes whole blocks unread; others produce and drop them.
  virtual uint64_t skip(uint64_t n) {
    StreamOp dropped[256];
    uint64_t passed = 0;
    while (passed < n) {
      const size_t got = fill(dropped, static_cast<size_t>(std::min<uint64_t>(n - passed, 256)));
      if (got == 0) break;
      passed += got;
    }
    return passed;
  }
};

// A workload: one stream per hardware thread over one shared virtual address space.
// Threads that meet at a barrier (same id) wait for each other; every thread reaches every
// barrier id in the same order. A workload with an initialisation phase ends it with a barrier
// that starts measurement.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual unsigned threads() const = 0;
  // Bytes of virtual memory the workload touches (the pool's capacity limit is a fraction of it).
  virtual uint64_t footprint() const = 0;
  // The stream of `thread`, from its beginning; the same seed gives the same stream.
  virtual std::unique_ptr<ThreadStream> stream(unsigned thread) const = 0;
  // Whether every stream begins with an initialisation that a barrier starting measurement ends.
  virtual bool initialises() const { return false; }
  // The same for one thread (programs of a mix may differ).
  virtual bool thread_initialises(unsigned) const { return initialises(); }
  // Whether its threads run instructions at all (idle's do not, by design: no budget applies).
  virtual bool executes() const { return true; }
};

}  // namespace starnuma
