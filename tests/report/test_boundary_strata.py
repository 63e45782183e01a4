"""Tests of experiments/boundary_strata.py on a made-up study whose figures are known by hand: ten
units of 20 K instructions every 100 K, two of them measuring a phase's start at half the others' IPC.

    python3 tests/report/test_boundary_strata.py
"""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments")]
import boundary_strata  # noqa: E402


def study(root: Path, starts=2, windows_said=10) -> Path:
    """Ten units every 100 K instructions of the clock, each led by its window's warm-up of 10 K and
    measuring 20 K; the last `starts` measure a phase's start (boundaries 2 and 3 at 899.7 K and
    1 003 K, one a little before its unit's measurement, one inside it), at half the others' IPC and
    twice their AMAT. Without starts the boundaries fall between the windows."""
    case = root / "kv-starnuma16-scaled"
    (case / "windows").mkdir(parents=True)
    stats = [{"checkpoint_phase": 1, "instructions": 40, "ipc": 1.0}]  # a boundary's: not in the estimate
    for k in range(10):
        w = {"checkpoint_phase": 1 if k < 8 else 2 if k < 9 else 3, "checkpoint_unit": k + 1, "instructions": 20,
             "ipc": 1.0, "memory_accesses": {"local": 10}, "amat_ns": 100.0}
        if k >= 10 - starts:
            w.update(ipc=0.5, amat_ns=200.0)
        stats.append(w)
    for k, w in enumerate(stats):
        (case / "windows" / f"window-{k + 1}").mkdir()
        (case / "windows" / f"window-{k + 1}" / "stats.json").write_text(json.dumps(w))
    bounds = [50000, 899700, 1003000] if starts else [50000, 850000, 950000]
    manifest = {"unit_every": 100000,
                "phases": [{"phase": p + 1, "clock_instructions": b} for p, b in enumerate(bounds)],
                "units": [{"phase": w["checkpoint_phase"], "unit": w["checkpoint_unit"],
                           "clock_instructions": 100000 * (k + 1) - 10000} for k, w in enumerate(stats[1:])]}
    (case / "manifest.json").write_text(json.dumps(manifest))
    pooled = 0.8333 if starts else 1.0
    (case / "sampled.json").write_text(json.dumps({
        "windows": windows_said, "instructions_per_window": 20000, "warmup_per_window": 10000, "ipc": pooled,
        "amat_ns": 120.0, "confidence": {"ipc": {"low": pooled - 0.04, "high": pooled + 0.04},
                                         "amat_ns": {"low": 110.0, "high": 130.0}}}))
    (case / "continuous-d0-own.json").write_text(json.dumps({"ipc": 0.95, "amat_ns": 104.0}))
    (case / "done").touch()
    return root


class BoundaryStrata(unittest.TestCase):
    def run_main(self, root: Path) -> str:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            self.assertEqual(boundary_strata.main(str(root)), 0)
        return text.getvalue()

    def test_the_phases_starts_stand_for_their_own_stretch(self):
        with tempfile.TemporaryDirectory() as d:
            out = self.run_main(study(Path(d)))
        # Stratified: the two starts stand for their 20 K each, the eight others for (10 x 100 K - 2 x
        # 20 K) / 8 = 120 K each, six times a start: IPC 200 / 208, AMAT (0.2 x 2 x 2000 + 1.2 x 8 x 1000)
        # / (0.2 x 2 x 10 + 1.2 x 8 x 10) = 104. Each stratum's windows are alike: no spread.
        self.assertIn("| kv-starnuma16-scaled | 10 | 2 | 0.8333 (0.7933-0.8733) | 0.9615 (0.9615-0.9615) | 0.9500 "
                      "| no (-12.3 %), no (+1.2 %) | 120 (110-130) | 104 (104-104) | 104 | no (+15.4 %), yes |", out)
        self.assertIn("pooled: 0 of 2 intervals hold", out)
        self.assertIn("stratified: 1 of 2 intervals hold", out)

    def test_without_a_phase_start_both_are_the_same(self):
        with tempfile.TemporaryDirectory() as d:
            out = self.run_main(study(Path(d), starts=0))
        self.assertIn("| 10 | 0 | 1.0000 (0.9600-1.0400) | 1.0000 (1.0000-1.0000) |", out)

    def test_windows_missing_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                boundary_strata.main(str(study(Path(d), windows_said=11)))
        self.assertIn("10 units' windows under windows/, sampled.json says 11", str(e.exception))


if __name__ == "__main__":
    unittest.main()
