"""Tests of experiments/boundary_strata.py on a made-up study whose figures are known by hand: ten
units of 20 instructions every 100, two of them starting a phase at half the others' IPC.

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
    case = root / "kv-starnuma16-scaled"
    (case / "windows").mkdir(parents=True)
    stats = [{"checkpoint_phase": 1, "instructions": 40, "ipc": 1.0}]  # a boundary's: not in the estimate
    for k in range(10):
        w = {"checkpoint_phase": 1, "checkpoint_unit": k + 1, "instructions": 20, "ipc": 1.0}
        if k >= 10 - starts:
            w["ipc"] = 0.5
            w["checkpoint_next_boundary"] = {"phase": 2, "after_clock_instructions": 5, "crossed": True}
        elif k == 0:  # given a boundary it did not reach: it measured its own phase
            w["checkpoint_next_boundary"] = {"phase": 2, "after_clock_instructions": 90, "crossed": False}
        stats.append(w)
    for k, w in enumerate(stats):
        (case / "windows" / f"window-{k + 1}").mkdir()
        (case / "windows" / f"window-{k + 1}" / "stats.json").write_text(json.dumps(w))
    (case / "sampled.json").write_text(json.dumps({"windows": windows_said, "instructions_per_window": 20,
                                                   "confidence": {"ipc": {"relative_half_width": 0.05}}}))
    (case / "manifest.json").write_text(json.dumps({"unit_every": 100}))
    (case / "continuous-d0-own.json").write_text(json.dumps({"ipc": 0.95}))
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
        # Pooled: 200 instructions over 2 x 40 + 8 x 20 cycles. Stratified: the two starts stand for
        # their 20 each, the eight others for (10 x 100 - 2 x 20) / 8 = 120 each, six times their 20.
        self.assertIn("| kv-starnuma16-scaled | 10 | 2 | 0.8333 | 0.9615 | 0.9500 | -12.3 % | +1.2 % | +-5.0 % |", out)

    def test_without_a_phase_start_both_are_the_same(self):
        with tempfile.TemporaryDirectory() as d:
            out = self.run_main(study(Path(d), starts=0))
        self.assertIn("| 10 | 0 | 1.0000 | 1.0000 |", out)

    def test_windows_missing_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                boundary_strata.main(str(study(Path(d), windows_said=11)))
        self.assertIn("10 units' windows under windows/, sampled.json says 11", str(e.exception))


if __name__ == "__main__":
    unittest.main()
