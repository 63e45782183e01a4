// Confidence intervals of a sampled estimate (docs/sampling.md, "Intervals"). A sampled run's
// quantities are ratios pooled over its units (IPC: instructions over cycles; AMAT: latency-time
// over accesses), so their interval is the ratio estimator's: with R = sum(y) / sum(x) and the
// residuals d_k = y_k - R x_k over n units, R +- t(n-1) * sd(d) / (sqrt(n) * mean(x)), t Student's
// two-sided quantile. Only 95 % is offered: the tables of other levels would be numbers nobody
// checks.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

namespace starnuma {

// Student's t, two-sided 95 %, for `dof` degrees of freedom (the normal's 1.96 beyond 30).
inline double student_t95(size_t dof) {
  static constexpr double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  return dof >= 1 && dof <= 30 ? kT[dof - 1] : 1.96;
}

struct Interval {
  double estimate = 0, low = 0, high = 0;
  // Half the interval's width over the estimate (0.03: +-3 %).
  double relative_half_width() const { return estimate != 0 ? (high - low) / 2 / std::fabs(estimate) : 0; }
};

// sum(y) / sum(x) with its 95 % interval; none for fewer than two units or a zero sum(x).
inline std::optional<Interval> ratio_interval(const std::vector<double>& y, const std::vector<double>& x) {
  const size_t n = std::min(y.size(), x.size());
  if (n < 2) return std::nullopt;
  double sy = 0, sx = 0;
  for (size_t k = 0; k < n; ++k) {
    sy += y[k];
    sx += x[k];
  }
  if (sx == 0) return std::nullopt;
  const double r = sy / sx;
  double ss = 0;
  for (size_t k = 0; k < n; ++k) ss += (y[k] - r * x[k]) * (y[k] - r * x[k]);
  const double half = student_t95(n - 1) * std::sqrt(ss / static_cast<double>(n - 1)) /
                      (std::sqrt(static_cast<double>(n)) * (sx / static_cast<double>(n)));
  return Interval{r, r - half, r + half};
}

}  // namespace starnuma
