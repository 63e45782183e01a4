#include "common/confidence.hpp"

#include <gtest/gtest.h>

namespace starnuma {
namespace {

TEST(Confidence, UnitsInProportionHaveNoSpread) {
  auto i = ratio_interval({2, 4, 6}, {1, 2, 3});
  ASSERT_TRUE(i);
  EXPECT_DOUBLE_EQ(i->estimate, 2.0);
  EXPECT_DOUBLE_EQ(i->low, 2.0);
  EXPECT_DOUBLE_EQ(i->high, 2.0);
  EXPECT_DOUBLE_EQ(i->relative_half_width(), 0.0);
}

TEST(Confidence, TheIntervalIsTheRatioEstimators) {
  // Units (y, x): (10, 1), (5, 1): R = 7.5, residuals 2.5 and -2.5, sd = 3.536, t(1) = 12.706,
  // half = 12.706 * 3.536 / (1.414 * 1) = 31.77.
  auto i = ratio_interval({10, 5}, {1, 1});
  ASSERT_TRUE(i);
  EXPECT_DOUBLE_EQ(i->estimate, 7.5);
  EXPECT_NEAR(i->high - 7.5, 12.7062 * std::sqrt(12.5) / std::sqrt(2.0), 1e-3);
  EXPECT_NEAR(7.5 - i->low, i->high - 7.5, 1e-9);
  EXPECT_NEAR(i->relative_half_width(), (i->high - 7.5) / 7.5, 1e-12);
}

TEST(Confidence, MoreUnitsOfTheSameSpreadNarrowIt) {
  std::vector<double> y, x;
  double width4 = 0;
  for (int k = 0; k < 32; ++k) {
    y.push_back(k % 2 ? 12 : 8);
    x.push_back(1);
    if (y.size() == 4) width4 = ratio_interval(y, x)->relative_half_width();
  }
  const double width32 = ratio_interval(y, x)->relative_half_width();
  EXPECT_LT(width32, width4 / 2.5);  // sqrt(8) from n and a smaller t
}

TEST(Confidence, FewerThanTwoUnitsHaveNone) {
  EXPECT_FALSE(ratio_interval({1}, {1}));
  EXPECT_FALSE(ratio_interval({}, {}));
  EXPECT_FALSE(ratio_interval({1, 2}, {0, 0}));
}

TEST(Confidence, OneStratumOfWeightOneIsTheRatioEstimator) {
  const std::vector<double> y = {10, 12, 9, 11, 13}, x = {1.1, 0.9, 1, 1.2, 1};
  const auto pooled = ratio_interval(y, x);
  const auto strata = stratified_ratio_interval(y, x, {1, 1, 1, 1, 1}, {0, 0, 0, 0, 0});
  ASSERT_TRUE(pooled && strata);
  EXPECT_DOUBLE_EQ(strata->estimate, pooled->estimate);
  EXPECT_NEAR(strata->low, pooled->low, 1e-9);
  EXPECT_NEAR(strata->high, pooled->high, 1e-9);
}

TEST(Confidence, StrataWeighTheirUnitsAndAddTheirOwnSpread) {
  // Stratum 0, weight 1: (1, 1), (3, 1); stratum 1, weight 3: (4, 1), (6, 1), (5, 1).
  // R = (4 + 3 * 15) / (2 + 3 * 3) = 49 / 11. The d's deviations within each stratum are -1, 1 and
  // -1, 1, 0: s^2 = 2 and 1, so Var(R) * 11^2 = 1 * 2 * 2 + 9 * 3 * 1 = 31, with Satterthwaite's
  // 31^2 / (4^2 / 1 + 27^2 / 2) = 2.53 degrees of freedom.
  const auto i = stratified_ratio_interval({1, 3, 4, 6, 5}, {1, 1, 1, 1, 1}, {1, 1, 3, 3, 3}, {0, 0, 1, 1, 1});
  ASSERT_TRUE(i);
  EXPECT_DOUBLE_EQ(i->estimate, 49.0 / 11);
  const double t = student_t(0.95, 961 / 380.5);
  EXPECT_GT(t, student_t(0.95, 3));
  EXPECT_LT(t, student_t(0.95, 2));
  EXPECT_NEAR(i->high - i->estimate, t * std::sqrt(31.0) / 11, 1e-9);
  EXPECT_NEAR(i->estimate - i->low, i->high - i->estimate, 1e-9);
  // Pooled with equal weights the same units give another estimate and a wider spread.
  EXPECT_NE(ratio_interval({1, 3, 4, 6, 5}, {1, 1, 1, 1, 1})->estimate, i->estimate);
}

TEST(Confidence, AStratumOfOneUnitAddsNoSpread) {
  // The lone unit of stratum 0 moves the estimate, not the interval's variance: stratum 1's alone.
  const auto i = stratified_ratio_interval({2, 4, 6, 5}, {1, 1, 1, 1}, {1, 2, 2, 2}, {0, 1, 1, 1});
  ASSERT_TRUE(i);
  const double r = (2 + 2 * 15.0) / 7;
  EXPECT_DOUBLE_EQ(i->estimate, r);
  EXPECT_NEAR(i->high - r, student_t(0.95, 2) * std::sqrt(4 * 3 * 1.0) / 7, 1e-9);
  EXPECT_FALSE(stratified_ratio_interval({2, 4}, {1, 1}, {1, 2}, {0, 1}));  // no stratum with a spread
}

// Against published tables (two-sided quantiles).
TEST(Confidence, StudentsQuantiles) {
  EXPECT_NEAR(student_t(0.95, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t(0.95, 4), 2.7764, 1e-4);
  EXPECT_NEAR(student_t(0.95, 30), 2.0423, 1e-4);
  EXPECT_NEAR(student_t(0.95, 120), 1.9799, 1e-4);
  EXPECT_NEAR(student_t(0.95, 1000000), 1.9600, 1e-4);  // the normal's
  EXPECT_NEAR(student_t(0.99, 10), 3.1693, 1e-4);
  EXPECT_NEAR(student_t(0.90, 5), 2.0150, 1e-4);
  EXPECT_NEAR(student_t(0.999, 2), 31.5991, 1e-3);
  EXPECT_NEAR(student_t(0.5, 3), 0.7649, 1e-4);
}

TEST(Confidence, AHigherLevelWidensTheInterval) {
  const std::vector<double> y = {10, 12, 9, 11, 13}, x = {1, 1, 1, 1, 1};
  const double w90 = ratio_interval(y, x, 0.90)->relative_half_width();
  const double w95 = ratio_interval(y, x)->relative_half_width();
  const double w99 = ratio_interval(y, x, 0.99)->relative_half_width();
  EXPECT_LT(w90, w95);
  EXPECT_LT(w95, w99);
  EXPECT_NEAR(w99 / w95, student_t(0.99, 4) / student_t(0.95, 4), 1e-12);
}

}  // namespace
}  // namespace starnuma
