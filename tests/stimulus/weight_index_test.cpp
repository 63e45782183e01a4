// WeightIndex gives the index std::upper_bound gives, for every draw, so `sharing` streams are
// what they were with the binary search over all the weights.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stimulus/weight_index.hpp"

namespace starnuma {
namespace {

std::vector<double> cumulative(const std::vector<double>& weights) {
  std::vector<double> c;
  for (double w : weights) c.push_back((c.empty() ? 0.0 : c.back()) + w);
  return c;
}

// Draws as `sharing` makes them (a 53-bit unit times the total), and the slices' own edges, which
// are where a search that starts in the wrong slice would be off by one.
void expect_same_as_upper_bound(const std::vector<double>& c) {
  const WeightIndex index(c);
  const double total = c.back();
  std::mt19937_64 rng(7);
  std::vector<double> draws;
  for (int i = 0; i < 200000; ++i) draws.push_back(static_cast<double>(rng() >> 11) * 0x1.0p-53 * total);
  for (size_t j = 0; j < c.size(); ++j) {
    const double edge = total * static_cast<double>(j) / static_cast<double>(c.size());
    draws.insert(draws.end(),
                 {edge, std::nextafter(edge, 0.0), std::nextafter(edge, total), c[j], std::nextafter(c[j], 0.0)});
  }
  size_t wrong = 0;
  for (double u : draws) {
    if (u >= total || u < 0) continue;
    const size_t expected = static_cast<size_t>(std::upper_bound(c.begin(), c.end(), u) - c.begin());
    if (index.find(u) != expected && ++wrong <= 5)
      ADD_FAILURE() << "draw " << u << ": " << index.find(u) << " against " << expected;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(WeightIndex, EqualWeightsLandOnTheSlicesEdges) {
  expect_same_as_upper_bound(cumulative(std::vector<double>(1000, 1.0)));
}

// Tenths are not exact in binary: the slice computed from a draw near an edge is often one off,
// and the weights sit on those edges; the index must not be.
TEST(WeightIndex, EqualWeightsNotExactInBinary) {
  expect_same_as_upper_bound(cumulative(std::vector<double>(1000, 0.1)));
  expect_same_as_upper_bound(cumulative(std::vector<double>(4096, 0.3)));
}

TEST(WeightIndex, OneWeight) { expect_same_as_upper_bound({3.5}); }

TEST(WeightIndex, SharingsWeightsOverEveryPageOfASocket) {
  // k^2.2 for sharer counts drawn as the default distribution draws them.
  std::mt19937_64 rng(3);
  const unsigned ks[] = {1, 2, 4, 8, 12, 16};
  std::vector<double> w;
  for (int i = 0; i < 5000; ++i) w.push_back(std::pow(ks[rng() % 6], 2.2));
  expect_same_as_upper_bound(cumulative(w));
}

TEST(WeightIndex, WeightsOfVeryDifferentSizes) {
  std::mt19937_64 rng(5);
  std::vector<double> w;
  for (int i = 0; i < 3000; ++i) w.push_back(std::ldexp(1.0, static_cast<int>(rng() % 60) - 30));
  expect_same_as_upper_bound(cumulative(w));
}

}  // namespace
}  // namespace starnuma
