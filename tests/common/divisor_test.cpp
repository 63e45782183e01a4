#include "common/divisor.hpp"

#include <gtest/gtest.h>

namespace starnuma {
namespace {

// Shifts and masks for powers of two, division otherwise: both must agree with plain arithmetic.
TEST(Divisor, AgreesWithDivisionForPowersOfTwoAndOthers) {
  for (uint64_t d : {1u, 2u, 3u, 8u, 12u, 256u, 1000u, 8192u}) {
    const Divisor by(d);
    EXPECT_EQ(by.value(), d);
    for (uint64_t x : {uint64_t{0}, uint64_t{1}, d - 1, d, d + 1, uint64_t{123456789}, (uint64_t{1} << 40) + 7}) {
      EXPECT_EQ(by.div(x), x / d) << x << " / " << d;
      EXPECT_EQ(by.mod(x), x % d) << x << " % " << d;
      EXPECT_EQ(by.mul(x), x * d) << x << " * " << d;
    }
  }
}

}  // namespace
}  // namespace starnuma
