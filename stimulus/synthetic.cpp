// Built-in synthetic workloads, so cores and placement can be exercised before the real kernels:
//   uniform  every thread reads and writes random lines of one shared array
//   local    every thread reads and writes random lines of its own private array
//   idle     no thread runs anything (a platform's initiators alone load it)
#include <random>

#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace {

struct RandomAccessParams {
  uint64_t footprint;  // bytes of the array (shared) or of each thread's array (private)
  double store_fraction;
  uint32_t instructions;  // non-memory instructions between memory operations
  uint64_t operations;    // per thread
  bool shared;
};

class RandomAccessStream : public ThreadStream {
 public:
  RandomAccessStream(const RandomAccessParams& p, uint64_t base, uint64_t seed)
      : p_(p), base_(base), rng_(seed), lines_(p.footprint / kLine) {}
  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    for (; n < max && done_ < p_.operations; ++n, ++done_) {
      const uint64_t r = rng_();
      out[n].kind =
          static_cast<double>(r >> 11) * 0x1.0p-53 < p_.store_fraction ? StreamOp::Kind::Store : StreamOp::Kind::Load;
      out[n].instructions = p_.instructions;
      out[n].address = base_ + (rng_() % lines_) * kLine;
    }
    return n;
  }

 private:
  static constexpr uint64_t kLine = 64;
  RandomAccessParams p_;
  uint64_t base_;
  std::mt19937_64 rng_;
  uint64_t lines_;
  uint64_t done_ = 0;
};

class RandomAccess : public Workload {
 public:
  RandomAccess(const RandomAccessParams& p, unsigned threads, uint64_t seed) : p_(p), threads_(threads), seed_(seed) {}
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return p_.shared ? p_.footprint : p_.footprint * threads_; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override {
    const uint64_t base = kBase + (p_.shared ? 0 : p_.footprint * thread);
    return std::make_unique<RandomAccessStream>(p_, base, thread_seed(seed_, thread));
  }

 private:
  static constexpr uint64_t kBase = uint64_t{1} << 32;  // where the heap starts in the virtual space
  RandomAccessParams p_;
  unsigned threads_;
  uint64_t seed_;
};

class RandomAccessSpec : public WorkloadSpec {
 public:
  RandomAccessSpec(const ScopeContext& c, bool shared, Size default_footprint)
      : WorkloadSpec(c),
        shared_(shared),
        footprint_(*this, "footprint", default_footprint,
                   shared ? "Size of the shared array" : "Size of each thread's private array",
                   between(4_KiB, Size::from_bytes(uint64_t{1} << 40))),
        store_fraction_(*this, "store_fraction", 0.25, "Fraction of memory operations that are stores",
                        between(0.0, 1.0)),
        instructions_(*this, "instructions", 4u, "Non-memory instructions between memory operations",
                      between(0u, 100000u)),
        operations_(*this, "operations", uint64_t{1} << 40,
                    "Memory operations per thread (the run's --instructions usually ends it first)",
                    between(uint64_t{1}, uint64_t{1} << 50)) {}

  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    return std::make_unique<RandomAccess>(
        RandomAccessParams{footprint_->bytes(), store_fraction_, instructions_, operations_, shared_}, threads, seed);
  }

 private:
  bool shared_;
  Param<Size> footprint_;
  Param<double> store_fraction_;
  Param<uint32_t> instructions_;
  Param<uint64_t> operations_;
};

struct UniformSpec : RandomAccessSpec {
  explicit UniformSpec(const ScopeContext& c) : RandomAccessSpec(c, true, 256_MiB) {}
};
struct LocalSpec : RandomAccessSpec {
  explicit LocalSpec(const ScopeContext& c) : RandomAccessSpec(c, false, 16_MiB) {}
};

class Idle : public Workload {
 public:
  explicit Idle(unsigned threads) : threads_(threads) {}
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return 0; }
  std::unique_ptr<ThreadStream> stream(unsigned) const override { return std::make_unique<Done>(); }
  bool executes() const override { return false; }

 private:
  struct Done : ThreadStream {
    size_t fill(StreamOp*, size_t) override { return 0; }
  };
  unsigned threads_;
};

struct IdleSpec : WorkloadSpec {
  using WorkloadSpec::WorkloadSpec;
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t) const override {
    return std::make_unique<Idle>(threads);
  }
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(IdleSpec, "idle",
                           "No thread runs anything: the cores stay idle while the platform's initiators (plug-ins, "
                           "docs/plugins.md) load it");
STARNUMA_REGISTER_WORKLOAD(UniformSpec, "uniform", "Every thread reads and writes random lines of one shared array");
STARNUMA_REGISTER_WORKLOAD(LocalSpec, "local", "Every thread reads and writes random lines of its own private array");

}  // namespace starnuma
