// Systematic sampling over the windows (docs/sampling.md, "Choosing the number of units"): places on
// the execution's grid, strides that nest and keep the boundaries, and the units a target needs.
#include "run/unit_selection.hpp"

#include <gtest/gtest.h>

namespace starnuma {
namespace {

// The places of N boundaries with U units after each of the first N - 1 (as `checkpoint` writes them).
std::vector<uint64_t> places(uint64_t boundaries, uint64_t units) {
  std::vector<uint64_t> p;
  for (uint64_t phase = 1; phase <= boundaries; ++phase)
    for (uint64_t unit = 0; unit <= (phase < boundaries ? units : 0); ++unit)
      p.push_back(grid_place(phase, unit, units));
  return p;
}

TEST(UnitSelection, PlacesAreEvenlySpacedInTheExecutionsOrder) {
  EXPECT_EQ(grid_place(1, 0, 3), 0u);
  EXPECT_EQ(grid_place(1, 3, 3), 3u);
  EXPECT_EQ(grid_place(2, 0, 3), 4u);
  const std::vector<uint64_t> p = places(6, 3);
  ASSERT_EQ(p.size(), 21u);
  for (size_t k = 0; k < p.size(); ++k) EXPECT_EQ(p[k], k);
}

TEST(UnitSelection, StridesNestAndEveryStrideTakingUnitsTakesTheirBoundaries) {
  const std::vector<uint64_t> p = places(6, 3);
  EXPECT_EQ(stride_chain(p, 3), (std::vector<uint64_t>{16, 8, 4, 2, 1}));
  EXPECT_EQ(windows_at(p, 1), 21u);
  EXPECT_EQ(windows_at(p, 2), 11u);
  EXPECT_EQ(windows_at(p, 4), 6u);  // the boundaries
  EXPECT_EQ(windows_at(p, 16), 2u);
  // U + 1 = 12: its prime factors one at a time (2, 2, 3), so 4 divides 12 and 12 every boundary.
  const std::vector<uint64_t> q = places(20, 11);
  const std::vector<uint64_t> chain = stride_chain(q, 11);
  EXPECT_EQ(chain, (std::vector<uint64_t>{192, 96, 48, 24, 12, 4, 2, 1}));
  for (size_t k = 0; k + 1 < chain.size(); ++k) EXPECT_EQ(chain[k] % chain[k + 1], 0u) << chain[k];
  for (uint64_t stride : chain)
    if (stride <= 12)
      for (uint64_t phase = 1; phase <= 20; ++phase) EXPECT_EQ(grid_place(phase, 0, 11) % stride, 0u);
  // No units: halving over the boundaries; one window: only stride 1.
  EXPECT_EQ(stride_chain(places(5, 0), 0), (std::vector<uint64_t>{4, 2, 1}));
  EXPECT_EQ(stride_chain(places(1, 0), 0), (std::vector<uint64_t>{1}));
}

TEST(UnitSelection, UnitsNeededGrowAsTheSquareOfTheWidthAskedAway) {
  EXPECT_EQ(units_needed(10, 0.06, 0.03), 40u);
  EXPECT_EQ(units_needed(10, 0.03, 0.03), 10u);
  EXPECT_EQ(units_needed(21, 0.0945, 0.05), 76u);  // ceil(21 x 3.572)
}

}  // namespace
}  // namespace starnuma
