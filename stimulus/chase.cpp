// `chase`: one thread follows a pointer chain through an array (every load depends on the one
// before), the classic probe of memory latency. Thread `init_thread` first touches the array (one
// store per page, so first-touch placement puts it on that thread's socket); after a barrier that
// every thread passes (measurement starts there), thread 0 walks a random cycle through all the
// array's lines.
#include <numeric>
#include <random>
#include <vector>

#include "stimulus/layout.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace {

constexpr uint64_t kChaseBase = uint64_t{1} << 33;

class ChaseStream : public ThreadStream {
 public:
  ChaseStream(bool init, bool chase, uint64_t footprint, uint64_t operations, uint32_t gap, uint64_t seed)
      : init_(init), chase_(chase), pages_(footprint / kPageBytes), operations_(operations), gap_(gap) {
    if (chase) {
      // Sattolo's algorithm: a random permutation that is one cycle through every line.
      next_.resize(footprint / kLineBytes);
      std::iota(next_.begin(), next_.end(), 0);
      std::mt19937_64 rng(seed);
      for (size_t i = next_.size() - 1; i > 0; --i) std::swap(next_[i], next_[rng() % i]);
    }
  }
  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max) {
      if (init_ && page_ < pages_) {
        out[n++] = StreamOp{StreamOp::Kind::Store, false, false, 0, kChaseBase + page_++ * kPageBytes};
      } else if (!barrier_done_) {
        out[n++] = StreamOp{StreamOp::Kind::Barrier, false, true, 0, 1};
        barrier_done_ = true;
      } else if (chase_ && done_ < operations_) {
        at_ = next_[at_];
        out[n++] = StreamOp{StreamOp::Kind::Load, true, false, gap_, kChaseBase + at_ * kLineBytes};
        ++done_;
      } else {
        break;
      }
    }
    return n;
  }

 private:
  bool init_, chase_;
  uint64_t pages_, operations_;
  uint32_t gap_;
  std::vector<uint32_t> next_;
  uint64_t page_ = 0, at_ = 0, done_ = 0;
  bool barrier_done_ = false;
};

class Chase : public Workload {
 public:
  Chase(unsigned threads, uint64_t footprint, unsigned init_thread, uint64_t operations, uint32_t gap, uint64_t seed)
      : threads_(threads), footprint_(footprint), init_(init_thread), operations_(operations), gap_(gap), seed_(seed) {}
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return footprint_; }
  bool initialises() const override { return true; }
  std::unique_ptr<ThreadStream> stream(unsigned t) const override {
    return std::make_unique<ChaseStream>(t == init_, t == 0, footprint_, operations_, gap_, seed_);
  }

 private:
  unsigned threads_;
  uint64_t footprint_;
  unsigned init_;
  uint64_t operations_;
  uint32_t gap_;
  uint64_t seed_;
};

class ChaseSpec : public WorkloadSpec {
 public:
  explicit ChaseSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    if (init_thread_ >= threads)
      report_error(msg::kConfig, "chase: init_thread " + std::to_string(init_thread_.get()) + " does not exist (" +
                                     std::to_string(threads) + " threads)");
    return std::make_unique<Chase>(threads, footprint_->bytes(), init_thread_, operations_, instructions_, seed);
  }

 private:
  Param<Size> footprint_{*this, "footprint", 64_MiB, "Size of the array the chain runs through",
                         between(4_KiB, Size::from_bytes(uint64_t{1} << 38))};
  Param<unsigned> init_thread_{*this, "init_thread", 0, "Thread that first touches the array (its socket holds it)"};
  Param<uint64_t> operations_{*this, "operations", uint64_t{1} << 40, "Loads in the chain",
                              between(uint64_t{1}, uint64_t{1} << 50)};
  Param<uint32_t> instructions_{*this, "instructions", 0u, "Non-memory instructions between loads",
                                between(0u, 100000u)};
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(ChaseSpec, "chase",
                           "One thread chases pointers through an array another thread first touched");

}  // namespace starnuma
