// `gups`: HPCC RandomAccess. A table of 2^k 64-bit words, initialised table[i] = i by a parallel
// loop (each thread first touches its static share; a barrier that starts measurement ends it),
// then 4 x 2^k updates table[ran & (2^k - 1)] ^= ran along HPCC's random sequence. Thread t
// performs its static share of the update indices, starting its generator at that index with the
// jump-ahead (HPCC_starts), so the threads together perform exactly the sequential run's updates.
// An update is a load of the word, then a store to it. The store's value comes from the load but
// its address does not, so it is not marked dependent: that would stall dispatch until the load
// completes and serialise the independent updates, whose overlap is what GUPS measures.
#include "stimulus/micro/micro.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace micro {

namespace {

constexpr uint64_t kGupsBase = uint64_t{1} << 41;
// Instruction cost model, from HPCC's update loop: the generator step (shift, sign test, select,
// xor), the index mask and loop control before the load; the xor of the value before the store.
constexpr uint32_t kPerUpdate = 7, kGupsBeforeStore = 1;

// a * b in GF(2)[x] modulo x^64 + x^2 + x + 1: Horner's rule over b's bits, high to low, with
// hpcc_next as the multiplication by x.
uint64_t gf2_multiply(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  for (int bit = 63; bit >= 0; --bit) {
    r = hpcc_next(r);
    if ((b >> bit) & 1) r ^= a;
  }
  return r;
}

class GupsStream : public StepStream<GupsStream> {
 public:
  GupsStream(const GupsWorkload& w, unsigned t, unsigned threads)
      : StepStream(FirstTouch({w.table()}, static_share(w.words(), t, threads))),
        table_(w.table()),
        mask_(w.words() - 1),
        updates_(static_share(w.updates(), t, threads)),
        i_(updates_.begin),
        ran_(hpcc_starts(updates_.begin)) {}

  size_t step(StreamOp* out) {
    if (initialising(out)) return 1;
    if (i_ >= updates_.end) return 0;
    ++i_;
    ran_ = hpcc_next(ran_);
    const uint64_t address = table_ + (ran_ & mask_) * 8;
    out[0] = load(address, kPerUpdate);
    out[1] = store(address, kGupsBeforeStore);
    return 2;
  }

 private:
  uint64_t table_, mask_;
  Share updates_;
  uint64_t i_, ran_;
};

}  // namespace

uint64_t hpcc_starts(uint64_t n) {
  uint64_t result = 1, power = 2;  // x^0, x^1
  for (; n; n >>= 1) {
    if (n & 1) result = gf2_multiply(result, power);
    power = gf2_multiply(power, power);
  }
  return result;
}

GupsWorkload::GupsWorkload(unsigned log2_words, unsigned updates_per_word, unsigned threads)
    : words_(uint64_t{1} << log2_words), updates_(words_ * updates_per_word), threads_(threads), table_(kGupsBase) {}

std::unique_ptr<ThreadStream> GupsWorkload::stream(unsigned t) const {
  return std::make_unique<GupsStream>(*this, t, threads_);
}

namespace {

class GupsSpec : public WorkloadSpec {
 public:
  explicit GupsSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t) const override {
    return std::make_unique<GupsWorkload>(log2_size_, updates_per_word_, threads);
  }

 private:
  Param<unsigned> log2_size_{*this, "log2_size", 25u, "The table has 2^log2_size 64-bit words (HPCC's TableSize)",
                             between(9u, 40u)};
  Param<unsigned> updates_per_word_{*this, "updates_per_word", 4u, "Updates per table word (HPCC: 4)",
                                    between(1u, 1024u)};
};

}  // namespace
}  // namespace micro

STARNUMA_REGISTER_WORKLOAD(micro::GupsSpec, "gups",
                           "HPCC RandomAccess: XOR updates of random words of a 2^k-word table, HPCC's generator");

}  // namespace starnuma
