// `vecsum`: the vector sum of the logical-memory-pools paper (HotNets '23): one server's cores sum
// a large vector held in pooled memory, each core a part, ten times. Here the vector (64-bit
// integers, v[i] = i) is initialised by every thread in parallel, each its static share, so
// first-touch placement spreads it over all sockets as a logical pool spreads it over the
// servers; a barrier that starts measurement ends the initialisation. The summing threads (by
// default those of the first socket, the paper's one server; `summers=all` sums near the data, the
// paper's computation shipping) then each sum a contiguous static share of the vector with
// sequential loads, a barrier ending every pass.
#include "stimulus/micro/micro.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace micro {

namespace {

constexpr uint64_t kVecsumBase = uint64_t{1} << 42;
// Instruction cost model, from the scalar reduction loop: the add, the index increment, compare
// and branch per element.
constexpr uint32_t kPerElement = 4;

class VecsumStream : public StepStream<VecsumStream> {
 public:
  VecsumStream(const VecsumWorkload& w, unsigned t, unsigned threads)
      : StepStream(FirstTouch({w.vector()}, static_share(w.elements(), t, threads))),
        vector_(w.vector()),
        repeats_(w.repeats()),
        sum_(t < w.summers() ? static_share(w.elements(), t, w.summers()) : Share{}),
        i_(sum_.begin) {}

  size_t step(StreamOp* out) {
    if (initialising(out)) return 1;
    if (repeat_ >= repeats_) return 0;
    if (i_ < sum_.end) {
      out[0] = load(vector_ + i_++ * 8, kPerElement);
      return 1;
    }
    out[0] = barrier();  // the end of a pass (the threads that do not sum wait here too)
    ++repeat_;
    i_ = sum_.begin;
    return 1;
  }

 private:
  uint64_t vector_;
  unsigned repeats_, repeat_ = 0;
  Share sum_;
  uint64_t i_;
};

}  // namespace

VecsumWorkload::VecsumWorkload(uint64_t elements, unsigned repeats, unsigned summers, unsigned threads)
    : elements_(elements), repeats_(repeats), summers_(summers), threads_(threads), vector_(kVecsumBase) {}

std::unique_ptr<ThreadStream> VecsumWorkload::stream(unsigned t) const {
  return std::make_unique<VecsumStream>(*this, t, threads_);
}

uint64_t VecsumWorkload::expected_sum(uint64_t n) { return static_cast<uint64_t>(u128{n} * (n - 1) / 2); }

namespace {

class VecsumSpec : public WorkloadSpec {
 public:
  explicit VecsumSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned sockets, uint64_t) const override {
    const uint64_t bytes = size_->bytes();
    if (bytes % 8 != 0)
      report_error(msg::kConfig,
                   "vecsum: size " + format_size(size_.get()) + " is not a whole number of 8-byte elements");
    const unsigned summers = summers_.get() == "all" ? threads : threads_on_first_socket(threads, sockets);
    return std::make_unique<VecsumWorkload>(bytes / 8, repeats_, summers, threads);
  }

 private:
  Param<Size> size_{*this, "size", 256_MiB, "Size of the vector of 64-bit integers (the paper: 8 to 96 GB)",
                    between(4_KiB, Size::from_bytes(uint64_t{1} << 42))};
  Param<unsigned> repeats_{*this, "repeats", 10u, "Passes over the vector (the paper: 10)", between(1u, 1000000u)};
  Param<std::string> summers_{*this, "summers", "socket",
                              "socket: the first socket's threads sum (one server, as in the paper); all: every "
                              "thread sums the part it initialised",
                              std::vector<std::string>{"socket", "all"}};
};

}  // namespace
}  // namespace micro

STARNUMA_REGISTER_WORKLOAD(micro::VecsumSpec, "vecsum",
                           "Logical-memory-pools vector sum: one socket's threads sum a vector spread over sockets");

}  // namespace starnuma
