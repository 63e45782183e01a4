"""Tests of experiments/phase_ipc.py on a made-up study whose figures are known by hand: units every
100 K over two phases of 1 M, measuring 20 K after 10 K of warm-up; phase 1's at IPC 0.5, phase 2's
at 0.25, the one measuring phase 2's start at 0.1; a continuous run at 0.4 and 0.25 in them.

    python3 tests/report/test_phase_ipc.py
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
import phase_ipc  # noqa: E402


def study(root: Path) -> Path:
    case = root / "poa-starnuma16-scaled"
    (case / "windows").mkdir(parents=True)
    units, stats = [], [{"checkpoint_phase": 1, "instructions": 40, "ipc": 1.0}]  # a boundary's
    for phase in (1, 2):
        for unit in range(1, 11):
            clock = phase * 1_000_000 + unit * 100_000 - 10_000
            units.append({"phase": phase, "unit": unit, "clock_instructions": clock})
            ipc = 0.1 if (phase, unit) == (1, 10) else 0.5 if phase == 1 else 0.25
            stats.append({"checkpoint_phase": phase, "checkpoint_unit": unit, "instructions": 40_000, "ipc": ipc})
    for k, w in enumerate(stats):
        (case / "windows" / f"window-{k + 1}").mkdir()
        (case / "windows" / f"window-{k + 1}" / "stats.json").write_text(json.dumps(w))
    (case / "manifest.json").write_text(json.dumps({
        "threads": 2, "unit_every": 100_000, "units": units,
        "phases": [{"phase": p, "clock_instructions": p * 1_000_000} for p in (1, 2)]}))
    (case / "sampled.json").write_text(json.dumps({"windows": len(units), "instructions_per_window": 20_000,
                                                   "warmup_per_window": 10_000}))
    # 2 cycles a nanosecond: phase 1's 1 M instructions in 1.25 ms (IPC 0.4), phase 2's in 2 ms (0.25).
    run = {"instructions": 6_000_000, "ipc": 0.5, "sim_time_ns": 3_000_000,
           "migration": {"per_phase": [{"phase": 1, "start_ns": 0, "mean_instructions": 1_000_000},
                                       {"phase": 2, "start_ns": 1_250_000, "mean_instructions": 2_000_000},
                                       {"phase": 3, "start_ns": 3_250_000, "mean_instructions": 3_000_000}]}}
    (case / "continuous-d0-own.json").write_text(json.dumps(run))
    (case / "done").touch()
    return root


class PhaseIpc(unittest.TestCase):
    def test_each_phase_against_the_runs_own(self):
        with tempfile.TemporaryDirectory() as d:
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                self.assertEqual(phase_ipc.main(str(study(Path(d)))), 0)
        out = text.getvalue()
        # Phase 1: its 9 units at 0.5 (unit 1.10, measuring phase 2's start, left out) against 0.4.
        self.assertIn("| poa-starnuma16-scaled | 1 | 0.5 | 0.4 | +25.0 % |", out)
        # Phase 2: unit 2.10 measures from 3 M, where the runs start phase 3: still phase 2's body.
        self.assertIn("| poa-starnuma16-scaled | 2 | 0.25 | 0.25 | +0.0 % |", out)


if __name__ == "__main__":
    unittest.main()
