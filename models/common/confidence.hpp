// Confidence intervals of a sampled estimate (docs/sampling.md, "Intervals"). A sampled run's
// quantities are ratios pooled over its units (IPC: instructions over cycles; AMAT: latency-time
// over accesses), so their interval is the ratio estimator's: with R = sum(y) / sum(x) and the
// residuals d_k = y_k - R x_k over n units, R +- t(n-1) * sd(d) / (sqrt(n) * mean(x)), t Student's
// two-sided quantile at the interval's level (tools/report/intervals.py computes the same).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

namespace starnuma {

// The regularised incomplete beta function I_x(a, b), by its continued fraction (modified Lentz),
// on the side where it converges fast.
inline double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incomplete_beta(b, a, 1 - x);
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log(1 - x)) / a;
  constexpr double kTiny = 1e-300;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 400; ++i) {
    const int m = i / 2;
    double numerator = 1;
    if (i > 0 && i % 2 == 0) numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    if (i % 2 == 1) numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
    c = 1 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    f *= c * d;
    if (std::fabs(1 - c * d) < 1e-14) break;
  }
  return front * (f - 1);
}

// Student's t: the two-sided quantile for `level` (0.95: the t with 2.5 % beyond it on either
// side) at `dof` degrees of freedom (not necessarily whole: Satterthwaite's), found by bisection on
// P(|T| > t) = I_{dof/(dof+t^2)}(dof/2, 1/2).
inline double student_t(double level, double dof) {
  const double v = dof, tail = 1 - level;
  double lo = 0, hi = 1;
  while (incomplete_beta(v / 2, 0.5, v / (v + hi * hi)) > tail) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (incomplete_beta(v / 2, 0.5, v / (v + mid * mid)) > tail ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

struct Interval {
  double estimate = 0, low = 0, high = 0;
  // Half the interval's width over the estimate (0.03: +-3 %).
  double relative_half_width() const { return estimate != 0 ? (high - low) / 2 / std::fabs(estimate) : 0; }
};

// sum(y) / sum(x) with its interval at `level`; none for fewer than two units or a zero sum(x).
inline std::optional<Interval> ratio_interval(const std::vector<double>& y, const std::vector<double>& x,
                                              double level = 0.95) {
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
  const double half = student_t(level, n - 1) * std::sqrt(ss / static_cast<double>(n - 1)) /
                      (std::sqrt(static_cast<double>(n)) * (sx / static_cast<double>(n)));
  return Interval{r, r - half, r + half};
}

// The same estimator over strata (docs/sampling.md, "The phases' starts, a stratum"): unit k in
// stratum[k] stands for weight[k] of the population (the same within a stratum), R = sum(w y) /
// sum(w x), d_k = y_k - R x_k, and Var(R) = sum_h w_h^2 n_h s_h^2 / sum(w x)^2 with s_h^2 the
// variance of the d within stratum h (a stratum of one unit adds none); t at Satterthwaite's degrees
// of freedom. One stratum of weight 1 is ratio_interval. None for fewer than two units in all
// strata together with a variance, or a zero sum(w x).
inline std::optional<Interval> stratified_ratio_interval(const std::vector<double>& y, const std::vector<double>& x,
                                                         const std::vector<double>& weight,
                                                         const std::vector<size_t>& stratum, double level = 0.95) {
  const size_t n = std::min({y.size(), x.size(), weight.size(), stratum.size()});
  double swy = 0, swx = 0;
  size_t strata = 0;
  for (size_t k = 0; k < n; ++k) {
    swy += weight[k] * y[k];
    swx += weight[k] * x[k];
    strata = std::max(strata, stratum[k] + 1);
  }
  if (swx == 0) return std::nullopt;
  const double r = swy / swx;
  std::vector<double> sum(strata, 0), sum_sq(strata, 0), w(strata, 0);
  std::vector<size_t> count(strata, 0);
  for (size_t k = 0; k < n; ++k) {
    const double d = y[k] - r * x[k];
    sum[stratum[k]] += d;
    sum_sq[stratum[k]] += d * d;
    w[stratum[k]] = weight[k];
    ++count[stratum[k]];
  }
  double variance = 0, dof_denominator = 0;
  for (size_t h = 0; h < strata; ++h) {
    if (count[h] < 2) continue;
    const double nh = static_cast<double>(count[h]);
    const double s2 = std::max(0.0, (sum_sq[h] - sum[h] * sum[h] / nh) / (nh - 1));
    const double v = w[h] * w[h] * nh * s2;
    variance += v;
    dof_denominator += v * v / (nh - 1);
  }
  if (dof_denominator == 0) {
    size_t with_variance = 0;  // every d zero: a zero-width interval, if any stratum could vary
    for (size_t h = 0; h < strata; ++h) with_variance += count[h] >= 2 ? count[h] : 0;
    if (with_variance < 2) return std::nullopt;
    return Interval{r, r, r};
  }
  const double half = student_t(level, variance * variance / dof_denominator) * std::sqrt(variance) / swx;
  return Interval{r, r - half, r + half};
}

}  // namespace starnuma
