"""Tests of experiments/warmup_bias_table.py, the windows' warm-up study's table, on made-up studies
whose differences are known by hand: each warm-up against the longest over the same stretches
(paired by a unit's place plus its warm-up), the per-unit differences' mean and interval, the
pooled IPC, and the count of cases within 1 %.

    python3 tests/report/test_warmup_bias_table.py
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
import warmup_bias_table  # noqa: E402


def case(study: Path, name: str, every: int, runs: dict):
    """A finished case: per warm-up, its units' places in the work and their (ipc, amat); each
    warm-up's windows also hold a boundary's (unit 0), which the table must leave out."""
    d = study / name
    d.mkdir()
    for warmup, units in runs.items():
        places = [{"phase": 1, "unit": k + 1, "mean_instructions": at} for k, (at, _, _) in enumerate(units)]
        windows = [{"phase": 1, "unit": 0, "ipc": 9.0, "amat_ns": 9.0, "instructions": 1000}]
        windows += [{"phase": 1, "unit": k + 1, "ipc": i, "amat_ns": a, "instructions": 1000}
                    for k, (_, i, a) in enumerate(units)]
        (d / f"warmup-{warmup}.json").write_text(json.dumps({"per_window": windows}))
        (d / f"manifest-{warmup}.json").write_text(json.dumps({"unit_every": every, "units": places}))
    (d / "done").touch()


class WarmupBiasTable(unittest.TestCase):
    def table(self, study: Path) -> str:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            self.assertEqual(warmup_bias_table.main(str(study)), 0)
        return text.getvalue()

    def test_each_warmup_against_the_longest_over_the_same_stretches(self):
        with tempfile.TemporaryDirectory() as tmp:
            study = Path(tmp)
            # Units every 1 000, offset so that each warm-up measures from the multiples: the 100-
            # instruction warm-up's units sit at 900 and 1 900 (plus a few past), the 500's at 500,
            # 1 500 and 2 500, whose last measures a stretch the others do not (left out).
            case(study, "a", 1000, {100: [(903, 0.98, 100), (1905, 1.96, 200)],
                                    500: [(502, 0.995, 100), (1501, 1.99, 200), (2502, 5.0, 500)],
                                    900: [(102, 1.0, 100), (1104, 2.0, 200)]})
            # Units that part both ways, +10 % and -10 %, pooled: (1000 + 1000) / (1000/1.1 + 1000/0.9).
            case(study, "b", 1000, {100: [(900, 1.1, 110), (1900, 0.9, 110)],
                                    500: [(500, 1.0, 100), (1500, 1.0, 100)],
                                    900: [(100, 1.0, 100), (1100, 1.0, 100)]})
            out = self.table(study)
        self.assertIn("after a warm-up of 900 instructions", out)
        self.assertIn("| a | 2 | 100 | -2.0 % | -2.0 % +-0.0 % | +0.0 % +-0.0 % |", out)
        self.assertIn("| a | 2 | 500 | -0.5 % | -0.5 % +-0.0 % |", out)
        # Differences of +-10 %: mean 0, sd 0.1414, t(1) 12.706, over root 2: +-127 %.
        self.assertIn("| b | 2 | 100 | -1.0 % | +0.0 % +-127.1 % | +10.0 % +-0.0 % |", out)
        self.assertIn("warm-up 100: the pooled IPC within 1 % of the 900's in 1 of 2 cases, the AMAT in 1", out)
        self.assertIn("warm-up 500: the pooled IPC within 1 % of the 900's in 2 of 2 cases, the AMAT in 2", out)

    def test_a_study_with_no_finished_case_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "unfinished").mkdir()
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(warmup_bias_table.main(tmp), 1)


if __name__ == "__main__":
    unittest.main()
