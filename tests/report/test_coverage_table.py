"""Tests of experiments/coverage_table.py, the coverage study's table, on made-up studies whose
verdicts are known by hand: the reference is the mean of a case's continuous runs, a sampled
interval holds it or not, and the cases whose threads drift are counted apart.

    python3 tests/report/test_coverage_table.py
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
import coverage_table  # noqa: E402


def case(study: Path, name: str, ipc, amat, references, drift, as_pass=()):
    """A finished case: the sampled run's (estimate, low, high) for IPC and AMAT, its continuous
    runs' (ipc, amat), one file each, and those with the pass's moves, if any."""
    d = study / name
    d.mkdir()
    conf = {"level": 0.95, "units": 10,
            "ipc": {"low": ipc[1], "high": ipc[2]}, "amat_ns": {"low": amat[1], "high": amat[2]}}
    (d / "sampled.json").write_text(json.dumps({"windows": 10, "ipc": ipc[0], "amat_ns": amat[0], "confidence": conf,
                                                "thread_drift": {"relative_drift": drift, "warning_above": 0.1}}))
    for q, (i, a) in zip(("100ns", "90ns", "80ns"), references):
        (d / f"continuous-{q}.json").write_text(json.dumps({"ipc": i, "amat_ns": a}))
    for q, (i, a) in zip(("d0", "d1", "d2"), as_pass):
        (d / f"as-pass-{q}.json").write_text(json.dumps({"ipc": i, "amat_ns": a}))
    (d / "done").touch()


class CoverageTable(unittest.TestCase):
    def table(self, study: Path, kind: str = "continuous") -> str:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            self.assertEqual(coverage_table.main(str(study), kind), 0)
        return text.getvalue()

    def test_the_reference_is_the_runs_mean_and_drifting_cases_count_apart(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # Each single run lies outside IPC's interval (0.98-1.02), their mean 1.0 inside it.
            case(study, "a-calm", (1.0, 0.98, 1.02), (100, 95, 105), [(0.95, 100), (1.05, 101), (1.0, 99)], 0.02)
            # A drifting case: IPC held, AMAT 30 % off its mean of 130.
            case(study, "b-drift", (0.5, 0.4, 0.6), (100, 90, 110), [(0.5, 130), (0.52, 130), (0.48, 130)], 0.8)
            out = self.table(study)
        self.assertIn("| a-calm | 10 | 1.0000 (0.9800-1.0200) | 1.0000 (+-12.4 %) | yes |", out)
        self.assertIn("| b-drift | 10 | 0.5000 (0.4000-0.6000) | 0.5000 (+-9.9 %) | yes | 100 (90-110) | 130 (+-0.0 %) "
                      "| no (-23 %) | 0.80 |", out)
        self.assertIn("3 of 4 intervals (75 %) hold the mean of the continuous runs", out)
        self.assertIn("2 of 2 (100 %) where the threads' drift is within what `sample` accepts (no warning)", out)

    def test_a_miss_the_runs_own_spread_explains_is_told_apart(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # IPC's mean 1.05 is outside 0.98-1.02, but one run varies by far more (sd 0.13): within the
            # spread. AMAT's runs agree to the nanosecond: 100 against 130 is a miss however counted.
            case(study, "c-chaos", (1.0, 0.98, 1.02), (100, 95, 105), [(0.9, 130), (1.1, 130), (1.15, 130)], 0.02)
            out = self.table(study)
        self.assertIn("| no (-5 %; within the spread) |", out)
        self.assertIn("| no (-23 %) |", out)
        self.assertIn("1 of the 2 misses are within the spread", out)

    def test_the_runs_with_the_pass_moves_are_the_other_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # The runs' own decisions put AMAT at 130, outside 95-105; with the pass's moves at 100.
            case(study, "d-flip", (1.0, 0.98, 1.02), (100, 95, 105), [(1.0, 130), (1.0, 130), (1.0, 130)], 0.02,
                 as_pass=[(1.0, 100), (1.0, 101), (1.0, 99)])
            own, as_pass = self.table(study), self.table(study, "as-pass")
        self.assertIn("| no (-23 %) |", own)
        self.assertIn("| with the pass's moves, IPC (mean of 3) |", as_pass)
        self.assertIn("| d-flip | 10 | 1.0000 (0.9800-1.0200) | 1.0000 (+-0.0 %) | yes | 100 (95-105) | 100 (+-2.5 %) "
                      "| yes | 0.02 |", as_pass)
        self.assertIn("2 of 2 intervals (100 %) hold the mean of the continuous runs with the pass's moves", as_pass)

    def test_a_study_from_before_the_quanta_has_its_one_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp) / "old"
            d.mkdir()
            conf = {"level": 0.95, "units": 5, "ipc": {"low": 0.9, "high": 1.1}, "amat_ns": {"low": 90, "high": 110}}
            (d / "sampled.json").write_text(json.dumps({"windows": 5, "ipc": 1.0, "amat_ns": 100, "confidence": conf}))
            (d / "continuous.json").write_text(json.dumps({"ipc": 1.2, "amat_ns": 100}))
            (d / "done").touch()
            out = self.table(Path(tmp))
        self.assertIn("| old | 5 | 1.0000 (0.9000-1.1000) | 1.2000 | no (-17 %) |", out)
        self.assertIn("1 of 2 intervals (50 %)", out)

    def test_both_references_side_by_side(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # As d-flip: AMAT misses the runs' own decisions (130) and holds the pass's moves (100).
            case(study, "e-both", (1.0, 0.98, 1.02), (100, 95, 105), [(1.0, 130), (1.0, 130), (1.0, 130)], 0.02,
                 as_pass=[(1.0, 100), (1.0, 101), (1.0, 99)])
            # Drifting: IPC misses both references; not counted among the calm cases.
            case(study, "f-drift", (0.5, 0.45, 0.55), (100, 90, 110), [(0.7, 100), (0.7, 100), (0.7, 100)], 0.8,
                 as_pass=[(0.6, 100), (0.6, 100), (0.6, 100)])
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                self.assertEqual(coverage_table.main_both(str(study)), 0)
            out = text.getvalue()
        self.assertIn("| e-both | 10 | 1.0000 (0.9800-1.0200) | yes, yes | 1.0000, 1.0000 | 100 (95-105) "
                      "| no (-23 %), yes | 130, 100 | 0.02 |", out)
        self.assertIn("| f-drift | 10 | 0.5000 (0.4500-0.5500) | no (-29 %), no (-17 %) | 0.7000, 0.6000 |", out)
        self.assertIn("2 of 4 intervals hold the mean of the continuous runs, 1 of the 2 where", out)
        self.assertIn("3 of 4 intervals hold the mean of the continuous runs with the pass's moves, 2 of the 2 where",
                      out)


if __name__ == "__main__":
    unittest.main()
