"""Tests of experiments/pace_positions.py, which sets a paced pass's thread places beside a
continuous run's, on made-up cases whose figures are known by hand.

    python3 tests/report/test_pace_positions.py
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
import pace_positions  # noqa: E402


def case(study: Path, name: str, at_boundary, at_end, run, pace="time"):
    """Two threads (socket0.core0, socket1.core0): the pass's places at boundary 1 and its end, the run's work."""
    d = study / name
    (d / "counters").mkdir(parents=True)
    cores = ["socket0.core0", "socket1.core0"]
    manifest = {"phases": [{"phase": 1, "threads_instructions": at_boundary}],
                "pace": {"by": pace, "threads": [{"core": c, "instructions": i, "cycles": 1.0}
                                                 for c, i in zip(cores, at_end)]}}
    if pace == "turns":
        manifest["pace"] = {"by": "turns"}
    (d / "manifest.json").write_text(json.dumps(manifest))
    nodes = {c.split(".")[0]: {"core0": {"instructions": w}} for c, w in zip(cores, run)}
    (d / "counters" / "stats.json").write_text(json.dumps({"stats": {"nodes": nodes}}))


class PacePositions(unittest.TestCase):
    def rows(self, study: Path):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            pace_positions.main(["pace_positions.py", str(study)])
        return [line for line in out.getvalue().splitlines() if line.startswith("| ") and "case" not in line], err.getvalue()

    def test_a_pace_that_follows_the_run_has_no_error_and_equal_turns_the_runs_spread(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # The run's threads did 100 and 300 over the span; the pass 200 and 600 (the same shares).
            case(study, "exact", [1000, 1000], [1200, 1600], [100, 300])
            # The pass gave both the same work: its places' error is the run's spread.
            case(study, "even", [1000, 1000], [1400, 1400], [100, 300])
            case(study, "unpaced", [1000, 1000], [1400, 1400], [100, 300], pace="turns")
            rows, err = self.rows(study)
            self.assertEqual(rows, ["| even | 0.50 | 0.00 | nan | 0.50 | 0.50 |",
                                    "| exact | 0.50 | 0.50 | 1.00 | 0.00 | 0.50 |"])
            self.assertIn("unpaced: its pass was not paced by time", err)


if __name__ == "__main__":
    unittest.main()
