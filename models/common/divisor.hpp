// Division by a divisor fixed at construction, by a shift and a mask when it is a power of two
// (the usual geometry of caches and memories): a 64-bit division costs tens of cycles on the
// simulator's hot path, a shift one.
#pragma once

#include <cstdint>

namespace starnuma {

class Divisor {
 public:
  explicit Divisor(uint64_t d = 1) : d_(d), pow2_((d & (d - 1)) == 0) {
    while (pow2_ && (uint64_t{1} << shift_) < d_) ++shift_;
  }
  uint64_t value() const { return d_; }
  uint64_t div(uint64_t x) const { return pow2_ ? x >> shift_ : x / d_; }
  uint64_t mod(uint64_t x) const { return pow2_ ? x & (d_ - 1) : x % d_; }
  uint64_t mul(uint64_t x) const { return pow2_ ? x << shift_ : x * d_; }

 private:
  uint64_t d_;
  bool pow2_;
  unsigned shift_ = 0;
};

// Floor division of non-negative times (ps, below 2^53) by a fixed period, by a multiplication
// with its reciprocal and one correction: a 64-bit division costs tens of cycles on the hot path.
class Reciprocal {
 public:
  Reciprocal() : Reciprocal(1) {}
  explicit Reciprocal(int64_t d) : d_(d), inverse_(d > 0 ? 1.0 / static_cast<double>(d) : 0.0) {}
  int64_t value() const { return d_; }
  int64_t div(int64_t t) const {
    int64_t q = static_cast<int64_t>(static_cast<double>(t) * inverse_);
    if (q * d_ > t) --q;
    else if ((q + 1) * d_ <= t) ++q;
    return q;
  }

 private:
  int64_t d_;
  double inverse_;
};

}  // namespace starnuma
