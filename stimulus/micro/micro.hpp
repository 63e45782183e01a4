// Micro-benchmarks, really executed and traced per hardware thread: STREAM (`stream`), HPCC
// RandomAccess (`gups`), the logical-memory-pools vector sum (`vecsum`) and a key-value store
// (`kv`). Each stream is a small state machine over the kernel's loop indices, so it is produced
// on the fly in bounded memory, whatever the array sizes and operation counts. The helpers here
// are shared by the four kernels; the kernels' functional parts are exposed for the tests.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/host_prefetch.hpp"
#include "common/param.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/stream.hpp"

namespace starnuma::micro {

__extension__ typedef unsigned __int128 u128;  // for products of 64-bit counts

// How many threads the first socket runs when `threads` are placed on `sockets` in order.
unsigned threads_on_first_socket(unsigned threads, unsigned sockets);

// The order of a parallel load of n items, each thread its static share: rounds of one item per
// thread, in thread order; calls insert(item, thread) in that order.
template <class Insert>
void parallel_load_order(uint64_t n, unsigned threads, Insert&& insert) {
  std::vector<Share> shares;
  uint64_t rounds = 0;
  for (unsigned t = 0; t < threads; ++t) {
    shares.push_back(static_share(n, t, threads));
    rounds = std::max(rounds, shares.back().size());
  }
  for (uint64_t r = 0; r < rounds; ++r)
    for (unsigned t = 0; t < threads; ++t)
      if (shares[t].begin + r < shares[t].end) insert(shares[t].begin + r, t);
}

// A thread's parallel first-touch initialisation of its share of the elements [begin, end) of up
// to three equally long arrays of 8-byte elements, as a loop writing all of them at index j does.
// Only the first touch of a page matters (it places the page), so one store is emitted per page of
// each array, at the share's first element in it, with no instruction cost, as the other workloads'
// initialisations do: it is not measured, and the run's instruction budget counts from its end.
class FirstTouch {
 public:
  FirstTouch() = default;
  FirstTouch(std::vector<uint64_t> bases, Share elements);
  // The next store, or false when the share is initialised.
  bool next(StreamOp& op);

 private:
  std::vector<uint64_t> bases_;
  uint64_t at_ = 0, end_ = 0;  // element index of the current page chunk
  size_t array_ = 0;
};

// The base of the kernels' streams: `Derived::step(StreamOp*)` writes the next 1..kMaxStep
// operations and returns how many, 0 when the thread is done. fill() copies whole steps straight
// into the core's batch and keeps the tail of a step that does not fit. (CRTP, so the step is
// inlined into the batch loop.)
template <class Derived>
class StepStream : public ThreadStream {
 public:
  static constexpr size_t kMaxStep = 4;
  size_t fill(StreamOp* out, size_t max) final {
    auto& self = static_cast<Derived&>(*this);
    size_t n = 0;
    while (n < max) {
      if (spill_head_ < spill_size_) {
        out[n++] = spill_[spill_head_++];
      } else if (n + kMaxStep <= max) {
        const size_t k = self.step(out + n);
        if (k == 0) break;
        n += k;
      } else {  // the batch's last few places: step into the spill
        spill_size_ = self.step(spill_.data());
        spill_head_ = 0;
        if (spill_size_ == 0) break;
      }
    }
    return n;
  }

 protected:
  StepStream() = default;
  explicit StepStream(FirstTouch first_touch) : first_touch_(std::move(first_touch)) {}
  // While initialising: writes the next first-touch store, or the barrier that ends the
  // initialisation and starts measurement, to out[0] and returns true.
  bool initialising(StreamOp* out) {
    if (initialised_) return false;
    if (!first_touch_.next(out[0])) {
      out[0] = barrier(true);
      initialised_ = true;
    }
    return true;
  }
  // Every thread passes the same barriers in the same order, so ids count up from 1 per thread.
  StreamOp barrier(bool starts_measurement = false) {
    return StreamOp{StreamOp::Kind::Barrier, false, starts_measurement, 0, next_barrier_++};
  }
  static StreamOp load(uint64_t address, uint32_t instructions, bool dependent = false) {
    return StreamOp{StreamOp::Kind::Load, dependent, false, instructions, address};
  }
  static StreamOp store(uint64_t address, uint32_t instructions, bool dependent = false) {
    return StreamOp{StreamOp::Kind::Store, dependent, false, instructions, address};
  }

 private:
  std::array<StreamOp, kMaxStep> spill_{};
  size_t spill_head_ = 0, spill_size_ = 0;
  uint64_t next_barrier_ = 1;
  FirstTouch first_touch_;
  bool initialised_ = false;
};

// ---- stream: STREAM (McCalpin) -----------------------------------------------------------------

// STREAM's kernels, each dst[j] = f(src1[j], src2[j]) over arrays a, b, c with scalar 3.
struct StreamKernel {
  enum Array : uint8_t { A, B, C, None };
  const char* name;
  Array dst, src1, src2;  // src2 None: one source
  uint32_t flops;         // arithmetic instructions per element
};
inline constexpr double kStreamScalar = 3.0;
inline constexpr StreamKernel kCopy{"copy", StreamKernel::C, StreamKernel::A, StreamKernel::None, 0};
inline constexpr StreamKernel kScale{"scale", StreamKernel::B, StreamKernel::C, StreamKernel::None, 1};
inline constexpr StreamKernel kAdd{"add", StreamKernel::C, StreamKernel::A, StreamKernel::B, 1};
inline constexpr StreamKernel kTriad{"triad", StreamKernel::A, StreamKernel::B, StreamKernel::C, 2};

class StreamWorkload : public Workload {
 public:
  // `all_kernels`: each iteration runs copy, scale, add and triad as STREAM does; else triad only.
  StreamWorkload(uint64_t elements, unsigned iterations, bool all_kernels, unsigned threads);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return layout_.bytes(); }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  uint64_t array(StreamKernel::Array which) const { return bases_[which]; }
  uint64_t elements() const { return elements_; }
  unsigned iterations() const { return iterations_; }
  const std::vector<StreamKernel>& kernels() const { return kernels_; }

 private:
  uint64_t elements_;
  unsigned iterations_, threads_;
  std::vector<StreamKernel> kernels_;
  ArrayAllocator layout_;
  std::array<uint64_t, 3> bases_{};
};

// ---- gups: HPCC RandomAccess -------------------------------------------------------------------

// HPCC's generator: the powers of x in GF(2)[x] modulo x^64 + x^2 + x + 1, one step a shift.
inline uint64_t hpcc_next(uint64_t ran) { return (ran << 1) ^ (static_cast<int64_t>(ran) < 0 ? uint64_t{7} : 0); }
// The n-th value of the sequence that starts at 1 (x^n), computed by square-and-multiply.
uint64_t hpcc_starts(uint64_t n);

class GupsWorkload : public Workload {
 public:
  GupsWorkload(unsigned log2_words, unsigned updates_per_word, unsigned threads);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return words_ * 8; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  uint64_t table() const { return table_; }
  uint64_t words() const { return words_; }
  uint64_t updates() const { return updates_; }

 private:
  uint64_t words_, updates_;
  unsigned threads_;
  uint64_t table_;
};

// ---- vecsum: the logical-memory-pools vector sum ----------------------------------------------

class VecsumWorkload : public Workload {
 public:
  // `summers`: the threads that sum (the first `summers` threads; the rest only initialise).
  VecsumWorkload(uint64_t elements, unsigned repeats, unsigned summers, unsigned threads);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return elements_ * 8; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  uint64_t vector() const { return vector_; }
  uint64_t elements() const { return elements_; }
  unsigned summers() const { return summers_; }
  unsigned repeats() const { return repeats_; }
  // Element i holds i: the closed form of one pass, n(n-1)/2 (modulo 2^64, as the sum wraps).
  static uint64_t value(uint64_t i) { return i; }
  static uint64_t expected_sum(uint64_t n);

 private:
  uint64_t elements_;
  unsigned repeats_, summers_, threads_;
  uint64_t vector_;
};

// ---- kv: a hash-table key-value store ---------------------------------------------------------

// An open-addressing hash table with linear probing over 16-byte slots {key, value}, filled with
// keys 0..n-1 (their 64-bit key values are a seeded bijective mix of the index) in the order a
// parallel load inserts them. Only the key index of each slot is kept on the host (4 bytes per
// slot); the values are the simulated program's business.
class KvTable {
 public:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  // `threads` load their static shares of the keys concurrently, modelled as rounds of one
  // insertion per thread in thread order.
  KvTable(uint64_t keys, double load_factor, unsigned threads, uint64_t seed);
  // The power-of-two slot count that keeps the load at most `load_factor` (at least 16).
  static uint64_t capacity_for(uint64_t keys, double load_factor);
  uint64_t keys() const { return keys_; }
  uint64_t capacity() const { return slot_.size(); }
  uint64_t key(uint64_t index) const;      // the key value of key index `index`
  uint64_t home(uint64_t index) const;     // its hash: the first slot probed
  uint64_t slot_of(uint64_t index) const;  // the slot that holds it (probing from home)
  uint32_t at(uint64_t slot) const { return slot_[slot]; }
  // A hint that key `index` is about to be looked up (the host table is larger than its caches).
  void prefetch(uint64_t index) const { host_prefetch(&slot_[home(index)]); }
  // Per 4 KiB page of slots: the slot of the load's first insertion into it (kEmpty: none).
  uint64_t pages() const { return first_insert_.size(); }
  uint32_t first_insert(uint64_t page) const { return first_insert_[page]; }

 private:
  uint64_t keys_, seed_;
  unsigned shift_;
  std::vector<uint32_t> slot_, first_insert_;
};

// One thread's requests after the load: a uniformly chosen key, a get with probability
// `read_fraction`, else a put of a fresh value.
struct KvRequest {
  uint64_t key;  // index
  bool put;
  uint64_t value;  // put: the value written
};
class KvRequests {
 public:
  KvRequests(uint64_t keys, double read_fraction, uint64_t seed)
      : keys_(keys), read_fraction_(read_fraction), state_(seed) {}
  KvRequest next();

 private:
  uint64_t keys_;
  double read_fraction_;
  uint64_t state_;
};

// The request parameters of the key-value workloads (kv, masstree), declared in their scope
// after the workload's own.
struct KvRequestParams {
  explicit KvRequestParams(ParamScope& owner)
      : read_fraction(owner, "read_fraction", 0.5, "Fraction of requests that are gets (the rest are puts)",
                      between(0.0, 1.0)),
        operations(owner, "operations", uint64_t{1} << 40,
                   "Requests per thread after the load (the run's --instructions usually ends it first)",
                   between(uint64_t{1}, uint64_t{1} << 50)) {}
  Param<double> read_fraction;
  Param<uint64_t> operations;
};

class KvWorkload : public Workload {
 public:
  KvWorkload(uint64_t keys, double load_factor, double read_fraction, uint64_t operations, unsigned threads,
             uint64_t seed);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return table_->capacity() * 16; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  const KvTable& table() const { return *table_; }
  uint64_t slot_address(uint64_t slot) const { return base_ + slot * 16; }
  // The requests of `thread`, as its stream issues them.
  KvRequests requests(unsigned thread) const;
  // The value the load stores with key `index`.
  static uint64_t loaded_value(uint64_t index) { return ~index; }

 private:
  std::shared_ptr<const KvTable> table_;
  double read_fraction_;
  uint64_t operations_;
  unsigned threads_;
  uint64_t seed_, base_;
};

}  // namespace starnuma::micro
