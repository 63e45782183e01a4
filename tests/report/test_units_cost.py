"""Tests of experiments/units_cost.py, the sampled evaluation's price at the paper's lengths, on
made-up studies whose price is known by hand.

    python3 tests/report/test_units_cost.py
"""
import json
import math
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments")]
import units_cost  # noqa: E402

# A pass of 0.5 s fixed and 0.125 us per instruction (8 M instructions/s).
SHORT = {"threads": 64, "accesses": 1e6, "instructions": 4e6, "pass_seconds": 1.0}
LONG = {"threads": 64, "accesses": 5e6, "instructions": 2e7, "pass_seconds": 3.0}


def sampled(cpis, seconds_per_window=2.0):
    windows = [{"phase": 1, "unit": k + 1, "ipc": 1 / c, "instructions": 1000} for k, c in enumerate(cpis)]
    windows.append({"phase": 1, "ipc": 0.5, "instructions": 1000, "in_estimate": False})
    return {"windows": len(cpis), "windows_timing_copies": 1, "per_window": windows,
            "host_seconds": seconds_per_window * (len(cpis) + 1)}


def studies(tmp: Path, workload: str) -> tuple[Path, Path]:
    """A coverage study of one workload on both machines (SHORT) and its longer passes (LONG)."""
    short, long = tmp / "short", tmp / "long"
    for m, cpis in (("baseline16-scaled", [1.0, 2.0, 1.0]), ("starnuma16-scaled", [0.5, 1.0, 0.5])):
        case = short / f"{workload}-{m}"
        case.mkdir(parents=True)
        (case / "done").touch()
        (case / "manifest.json").write_text(json.dumps(SHORT))
        (case / "sampled.json").write_text(json.dumps(sampled(cpis)))
        (long / case.name).mkdir(parents=True)
        (long / case.name / "manifest.json").write_text(json.dumps(LONG))
    return short, long


class UnitsCost(unittest.TestCase):
    def test_the_pass_is_its_fixed_part_and_its_instructions(self):
        fixed, per_instruction = units_cost.pass_model(SHORT, LONG)
        self.assertAlmostEqual(fixed, 0.5)
        self.assertAlmostEqual(per_instruction, 1.25e-7)

    def test_units_without_spread_need_two(self):
        base = [1.0, 2.0, 1.0, 2.0]
        runs = {"baseline16-scaled": (SHORT, LONG, sampled(base)),
                "starnuma16-scaled": (SHORT, LONG, sampled([c / 2 for c in base]))}
        p = units_cost.price(runs, 1e10, 0.03, 2, 64)
        self.assertEqual(p["units"], 2)
        self.assertAlmostEqual(p["pass"], 0.5 + 1.25e-7 * 1e10 * 64)  # 80 000.5 s
        self.assertAlmostEqual(p["rate"], 8e6)
        self.assertAlmostEqual(p["unit_seconds"], 2.0)
        self.assertAlmostEqual(p["one_core"], 2 * p["pass"] + 2 * 2 * 2.0)
        self.assertAlmostEqual(p["cores"], p["pass"] + 4.0)  # the two passes side by side, then the windows
        self.assertAlmostEqual(p["nodes"], p["pass"] + 2.0)

    def test_the_units_needed_grow_with_the_square_of_the_precision(self):
        base = [1.0, 2.0, 1.5, 2.5, 1.2, 1.8]
        faster = [0.6, 0.9, 0.8, 1.1, 0.7, 0.9]
        runs = {"baseline16-scaled": (SHORT, LONG, sampled(base)),
                "starnuma16-scaled": (SHORT, LONG, sampled(faster))}
        p3 = units_cost.price(runs, 1e10, 0.03, 2, 64)
        p1 = units_cost.price(runs, 1e10, 0.01, 2, 64)
        self.assertGreater(p3["half"], 0.03)  # six units are not enough for +-3 %
        self.assertEqual(p3["units"], math.ceil(6 * (p3["half"] / 0.03) ** 2))
        self.assertAlmostEqual(p1["units"] / p3["units"], 9, delta=0.1)

    def test_the_table_from_study_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            short, long = studies(Path(tmp), "kv")
            out = subprocess.run([sys.executable, str(ROOT / "experiments" / "units_cost.py"), str(short), str(long)],
                                 capture_output=True, text=True, check=True).stdout
        self.assertIn("| kv | 8.0 | 22.2 h | 2 (+-0.0 % with 3) | 2.00 s | 22.2 h | 22.2 h |", out)
        self.assertIn("44.4 h of one core", out)

    def test_the_streams_floor(self):
        # 1e6 accesses of 4e6 instructions: 1e10 instructions per thread on 64 threads are 1.6e11
        # operations, at 4e7 operations/s 4 000 s.
        generator = {"workload": "bfs:scale=16,trials=100", "operations_per_second": 4e7}
        self.assertEqual(units_cost.case_name(generator["workload"]), "bfs_scale_16_trials_100")
        self.assertAlmostEqual(units_cost.streams_seconds(SHORT, 1e10, generator), 4000)
        with tempfile.TemporaryDirectory() as tmp:
            short, long = studies(Path(tmp), "bfs_scale_16_trials_100")
            generators = Path(tmp) / "generators.json"
            generators.write_text(json.dumps([generator]))
            script = [sys.executable, str(ROOT / "experiments" / "units_cost.py"), str(short), str(long)]
            out = subprocess.run(script + ["--generators", str(generators)], capture_output=True, text=True,
                                 check=True).stdout
            self.assertIn("| 22.2 h | 22.2 h | 1.1 h |", out)
            self.assertIn("Their streams alone, each produced once: 1.1 h of one core, 33 min on 2 cores", out)
            generators.write_text(json.dumps([{"workload": "kv", "operations_per_second": 1e7}]))
            missing = subprocess.run(script + ["--generators", str(generators)], capture_output=True, text=True)
            self.assertEqual(missing.returncode, 1)
            self.assertIn("bfs_scale_16_trials_100: not in", missing.stderr)


if __name__ == "__main__":
    unittest.main()
