// `stream`: McCalpin's STREAM as its OpenMP build runs: arrays a, b, c of doubles, each loop
// `#pragma omp parallel for` (schedule(static), an implicit barrier at its end). Initialisation is
// STREAM's parallel loop a[j] = 1, b[j] = 2, c[j] = 0, so each thread first touches the parts it
// later works on; a barrier that starts measurement ends it. Each iteration then runs triad
// a[j] = b[j] + 3 c[j] (or, with kernels=all, STREAM's copy, scale, add, triad in turn).
#include "stimulus/micro/micro.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace micro {

namespace {

constexpr uint64_t kStreamBase = uint64_t{1} << 40;
// Instruction cost model, from the scalar loops gcc -O2 emits: the index increment, compare and
// branch per element (before its first load), the kernel's multiplies and adds before its store.
constexpr uint32_t kLoopPerElement = 3;

class StreamStream : public StepStream<StreamStream> {
 public:
  StreamStream(const StreamWorkload& w, unsigned t, unsigned threads)
      : StepStream(FirstTouch({w.array(StreamKernel::A), w.array(StreamKernel::B), w.array(StreamKernel::C)},
                              static_share(w.elements(), t, threads))),
        bases_{w.array(StreamKernel::A), w.array(StreamKernel::B), w.array(StreamKernel::C)},
        kernels_(w.kernels()),
        iterations_(w.iterations()),
        share_(static_share(w.elements(), t, threads)),
        j_(share_.begin) {}

  size_t step(StreamOp* out) {
    if (initialising(out)) return 1;
    if (iteration_ >= iterations_) return 0;
    const StreamKernel& k = kernels_[kernel_];
    if (j_ < share_.end) {  // one element: its loads, then its store
      size_t n = 0;
      out[n++] = load(bases_[k.src1] + j_ * 8, kLoopPerElement);
      if (k.src2 != StreamKernel::None) out[n++] = load(bases_[k.src2] + j_ * 8, 0);
      out[n++] = store(bases_[k.dst] + j_ * 8, k.flops);
      ++j_;
      return n;
    }
    // The loop's implicit barrier, then the next kernel.
    out[0] = barrier();
    j_ = share_.begin;
    if (++kernel_ == kernels_.size()) {
      kernel_ = 0;
      ++iteration_;
    }
    return 1;
  }

 private:
  std::array<uint64_t, 3> bases_;
  std::vector<StreamKernel> kernels_;
  unsigned iterations_;
  Share share_;
  unsigned iteration_ = 0;
  size_t kernel_ = 0;
  uint64_t j_;
};

}  // namespace

StreamWorkload::StreamWorkload(uint64_t elements, unsigned iterations, bool all_kernels, unsigned threads)
    : elements_(elements), iterations_(iterations), threads_(threads), layout_(kStreamBase) {
  kernels_ = all_kernels ? std::vector<StreamKernel>{kCopy, kScale, kAdd, kTriad} : std::vector<StreamKernel>{kTriad};
  for (uint64_t& base : bases_) base = layout_.allocate(elements * 8);
}

std::unique_ptr<ThreadStream> StreamWorkload::stream(unsigned t) const {
  return std::make_unique<StreamStream>(*this, t, threads_);
}

namespace {

class StreamSpec : public WorkloadSpec {
 public:
  explicit StreamSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t) const override {
    return std::make_unique<StreamWorkload>(elements_, iterations_, kernels_.get() == "all", threads);
  }

 private:
  Param<uint64_t> elements_{*this, "elements", 10000000,
                            "Doubles in each of the three arrays (STREAM_ARRAY_SIZE; STREAM's default 10 M)",
                            between(uint64_t{512}, uint64_t{1} << 36)};
  Param<unsigned> iterations_{*this, "iterations", 10u, "Repetitions of the kernels (STREAM's NTIMES)",
                              between(1u, 1000000u)};
  Param<std::string> kernels_{*this, "kernels", "triad",
                              "triad: a = b + 3c each iteration; all: copy, scale, add and triad as STREAM runs them",
                              std::vector<std::string>{"triad", "all"}};
};

}  // namespace
}  // namespace micro

STARNUMA_REGISTER_WORKLOAD(micro::StreamSpec, "stream",
                           "STREAM triad (or all four kernels) over three arrays of doubles, static OpenMP schedule");

}  // namespace starnuma
