"""Confidence intervals of sampled comparisons (docs/sampling.md, "Intervals"), for the report and
the main job's summary: no pandas, so main_job.py can use it with any Python."""
from __future__ import annotations

import math

# Student's t, two-sided 95 %, by degrees of freedom (1-30); beyond, the normal's 1.96 (the table of
# models/common/confidence.hpp, which `sample` uses for one run's intervals).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042]


def paired_speedup(faster: dict | None, base: dict | None) -> tuple[float, float, float] | None:
    """The speedup of `faster` over `base` (sampled runs' aggregates) with its 95 % confidence
    interval, from their windows paired by phase (docs/sampling.md, "Intervals"): (speedup, low,
    high), or None without at least two common phases. Every window runs the same instructions, so
    a run's CPI is the mean of its windows' and the speedup the ratio of the two means; its
    interval is the ratio estimator's (the delta method on the paired differences
    CPI_base - S * CPI_faster, as ratio_interval in models/common/confidence.hpp), which pairing
    narrows by the phases' common variation."""
    if not faster or not base:
        return None
    # A window is its boundary's phase, or a unit inside the phase after it (docs/sampling.md, "Units").
    cpi = lambda r: {(w["phase"], w.get("unit", 0)): 1 / w["ipc"] for w in r.get("per_window", []) if w.get("ipc")}
    b, f = cpi(base), cpi(faster)
    phases = sorted(set(b) & set(f))
    n = len(phases)
    if n < 2:
        return None
    mb, mf = sum(b[k] for k in phases) / n, sum(f[k] for k in phases) / n
    speedup = mb / mf
    d = [b[k] - speedup * f[k] for k in phases]
    sd = math.sqrt(sum(x * x for x in d) / (n - 1))  # the d have mean 0 by the choice of speedup
    half = (T95[n - 2] if n - 1 <= len(T95) else 1.96) * sd / (math.sqrt(n) * mf)
    return speedup, speedup - half, speedup + half
