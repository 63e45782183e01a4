"""Confidence intervals of sampled comparisons (docs/sampling.md, "Intervals"), for the report and
the main job's summary: no pandas, so main_job.py can use it with any Python."""
from __future__ import annotations

import math

def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) by its continued fraction (modified
    Lentz), as models/common/confidence.hpp computes it."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - _incomplete_beta(b, a, 1 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)) / a
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(401):
        m = i // 2
        if i == 0:
            numerator = 1.0
        elif i % 2 == 0:
            numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + numerator * d
        d = 1 / (tiny if abs(d) < tiny else d)
        c = 1 + numerator / c
        c = tiny if abs(c) < tiny else c
        f *= c * d
        if abs(1 - c * d) < 1e-14:
            break
    return front * (f - 1)


def student_t(level: float, dof: int) -> float:
    """Student's two-sided quantile for `level` at `dof` degrees of freedom (0.95, 1: 12.706), by
    bisection on P(|T| > t), as models/common/confidence.hpp's student_t."""
    tail = 1 - level
    lo, hi = 0.0, 1.0
    while _incomplete_beta(dof / 2, 0.5, dof / (dof + hi * hi)) > tail:
        hi *= 2
    for _ in range(200):
        if hi - lo <= 1e-12 * hi:
            break
        mid = (lo + hi) / 2
        if _incomplete_beta(dof / 2, 0.5, dof / (dof + mid * mid)) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def stratified_ratio(y: list[float], x: list[float], weight: list[float], stratum: list[int],
                     level: float = 0.95) -> tuple[float, float, float] | None:
    """sum(w y) / sum(w x) with its interval at `level`, the units in strata (docs/sampling.md, "The
    phases' starts, a stratum"), as stratified_ratio_interval in models/common/confidence.hpp:
    (estimate, low, high), or None without a stratum of two units or with a zero sum(w x)."""
    swy = sum(w * v for w, v in zip(weight, y))
    swx = sum(w * v for w, v in zip(weight, x))
    if swx == 0:
        return None
    r = swy / swx
    groups: dict[int, list[tuple[float, float]]] = {}
    for k in range(min(len(y), len(x), len(weight), len(stratum))):
        groups.setdefault(stratum[k], []).append((y[k] - r * x[k], weight[k]))
    variance = dof_denominator = 0.0
    varied = 0
    for units in groups.values():
        n = len(units)
        if n < 2:
            continue
        varied += n
        mean = sum(d for d, _ in units) / n
        s2 = sum((d - mean) ** 2 for d, _ in units) / (n - 1)
        v = units[0][1] ** 2 * n * s2
        variance += v
        dof_denominator += v * v / (n - 1)
    if varied < 2:
        return None
    if dof_denominator == 0:
        return r, r, r
    half = student_t(level, variance * variance / dof_denominator) * math.sqrt(variance) / swx
    return r, r - half, r + half


def paired_speedup(faster: dict | None, base: dict | None) -> tuple[float, float, float] | None:
    """The speedup of `faster` over `base` (sampled runs' aggregates) with its 95 % confidence
    interval, from their windows paired by phase (docs/sampling.md, "Intervals"): (speedup, low,
    high), or None without at least two common phases. Every window runs the same instructions, so
    a run's CPI is the mean of its windows' and the speedup the ratio of the two means; its
    interval is the ratio estimator's (the delta method on the paired differences
    CPI_base - S * CPI_faster, as ratio_interval in models/common/confidence.hpp), which pairing
    narrows by the phases' common variation. A window measured over a common span retires about,
    not exactly, its instructions: each CPI is weighted by the window's share of them, so that with
    every window paired the speedup is the ratio of the two aggregates' IPCs. Where the base's
    windows measuring a phase's start are a stratum (their per_window `starts_a_phase` and `weight`),
    the means and the interval are the stratified ones."""
    if not faster or not base:
        return None

    # A window is its boundary's phase, or a unit inside the phase after it (docs/sampling.md, "Units");
    # with units over the work the boundaries' windows only time the copies, outside the estimate.
    def windows(r):
        ws = [w for w in r.get("per_window", []) if w.get("ipc") and w.get("in_estimate", True)]
        mean_i = sum(w.get("instructions", 1) for w in ws) / len(ws) if ws else 1
        return {(w["phase"], w.get("unit", 0)): (w.get("instructions", 1) / mean_i / w["ipc"], w) for w in ws}

    b, f = windows(base), windows(faster)
    phases = sorted(set(b) & set(f))
    if len(phases) < 2:
        return None
    weight = [b[k][1].get("weight", 1.0) for k in phases]
    stratum = [int(b[k][1].get("starts_a_phase", False)) for k in phases]
    return stratified_ratio([b[k][0] for k in phases], [f[k][0] for k in phases], weight, stratum)
