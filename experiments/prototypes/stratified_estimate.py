"""A prototype estimate, not built into `sample` (docs/sampling.md, "What drift explains, and what an
exact pace leaves"): each boundary's window as the census of its phase's first stretch of work (the
mean thread's instructions it measured, from the boundary on), the units standing only for the rest
of their spacing, all clipped to the stretch the continuous runs cover; IPC pooled with those
weights and its 95 % interval as the ratio estimator's, AMAT the same way (latency-time over LLC
misses). Prints, per case of a coverage study, the units' estimate and the stratified one against
the continuous runs' mean, then the intervals held.

    python3 experiments/prototypes/stratified_estimate.py STUDY     (experiments/coverage.sh's OUT)
"""
import json
import math
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from coverage_table import reference, t95  # noqa: E402


def interval(y, x):
    """sum(y) / sum(x) and its 95 % interval (models/common/confidence.hpp, ratio_interval)."""
    n, r = len(y), sum(y) / sum(x)
    half = t95(n - 1) * math.sqrt(sum((a - r * b) ** 2 for a, b in zip(y, x)) / (n - 1)) / (math.sqrt(n) * sum(x) / n)
    return r, r - half, r + half


def overlap(a, b, c, d):
    return max(0.0, min(b, d) - max(a, c))


def case(path: pathlib.Path):
    manifest = json.loads((path / "manifest.json").read_text())
    every = manifest["unit_every"]
    grid = lambda p: (p + every // 2) // every * every  # noqa: E731 (a unit's multiple of K)
    first, last = grid(manifest["units"][0]["mean_instructions"]), grid(manifest["units"][-1]["mean_instructions"])
    stretch = (first, last + every)  # experiments/coverage_stretch.py
    boundary = {p["phase"]: p["mean_instructions"] for p in manifest["phases"]}
    unit = {(u["phase"], u["unit"]): grid(u["mean_instructions"]) for u in manifest["units"]}
    windows = []
    for f in sorted((path / "windows").glob("window-*/stats.json")):
        w = json.loads(f.read_text())
        threads = sum(1 for n in w["stats"]["nodes"].values() for k, c in n.items()
                      if k.startswith("core") and isinstance(c, dict) and "instructions" in c)
        windows.append((w["checkpoint_phase"], w.get("checkpoint_unit") or 0, w["instructions"],
                        w["instructions"] / w["ipc"], w["instructions"] / threads, w["amat_ns"] * w["llc_misses"],
                        w["llc_misses"]))
    census = {ph: (boundary[ph], boundary[ph] + work) for ph, u, _, _, work, _, _ in windows if u == 0}
    units, strata = ([], [], [], []), ([], [], [], [])
    for ph, u, instructions, cycles, work, latency, misses in windows:
        if u == 0:
            stands_for = overlap(*census[ph], *stretch)
        else:
            span = (unit[(ph, u)], unit[(ph, u)] + every)
            stands_for = overlap(*span, *stretch) - sum(overlap(*span, *c) for c in census.values())
            for k, v in enumerate((instructions, cycles, latency, misses)):
                units[k].append(v)
        if stands_for > 0:
            for k, v in enumerate((instructions, cycles, latency, misses)):
                strata[k].append(v * stands_for / work)
    runs = reference(path)
    return ((interval(*units[:2]), interval(*strata[:2]), statistics.mean(r["ipc"] for r in runs)),
            (interval(*units[2:]), interval(*strata[2:]), statistics.mean(r["amat_ns"] for r in runs)))


def main(study: str) -> int:
    held = {"IPC": [0, 0], "AMAT": [0, 0]}
    cases = sorted(p for p in pathlib.Path(study).iterdir() if (p / "done").exists())
    for path in cases:
        for name, (plain, strat, truth) in zip(held, case(path)):
            cells = []
            for k, (r, low, high) in enumerate((plain, strat)):
                ok = low <= truth <= high
                held[name][k] += ok
                cells.append(f"{r:.4g} ({100 * (r / truth - 1):+.0f} %, {'held' if ok else 'missed'})")
            print(f"{path.name} {name}: units {cells[0]}, stratified {cells[1]}, continuous {truth:.4g}")
    for name, (plain, strat) in held.items():
        print(f"{name} intervals held: units {plain} of {len(cases)}, stratified {strat} of {len(cases)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
