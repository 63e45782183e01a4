"""Tests of experiments/chmu_tables.py on the committed results of experiments/chmu.yaml
(experiments/results/chmu): the tables cover every configuration and workload, and the results
have the properties docs/validation.md states of them.

    python3 tests/report/test_chmu_tables.py
"""
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments")]
import chmu_tables  # noqa: E402
from sweep_runs import finished_runs  # noqa: E402

RUNS = chmu_tables.by_name(finished_runs(str(ROOT / "experiments" / "results" / "chmu")))


class ChmuTables(unittest.TestCase):
    def test_every_configuration_has_every_workload(self):
        for label, name in chmu_tables.configurations():
            for w, _ in chmu_tables.WORKLOADS:
                self.assertIn(name(w), RUNS, label)
        self.assertEqual(len(RUNS), 8 * (len(chmu_tables.configurations()) + 1))  # and first touch

    def test_with_a_pool_that_never_fills_the_chmu_changes_nothing(self):
        for w, _ in chmu_tables.WORKLOADS:
            t0, chmu = RUNS[f"tracking-{w}-t0-0.2"], RUNS[f"tracking-{w}-chmu-0.2"]
            self.assertEqual(t0["sim_time_ns"], chmu["sim_time_ns"], w)
            self.assertEqual(t0["migration"]["pages_moved"], chmu["migration"]["pages_moved"], w)
            self.assertEqual(chmu["migration"]["from_pool"], 0, w)

    def test_the_hardware_bits_are_the_geometry_s(self):
        first = chmu_tables.WORKLOADS[0][0]
        # 512 sets x 8 ways of (35-bit tag, 16-bit count, valid) and 1024 slots of (44-bit unit, count).
        self.assertEqual(chmu_tables.on_chip_bits(RUNS[f"tracking-{first}-chmu-0.2"]) -
                         chmu_tables.on_chip_bits(RUNS[f"tracking-{first}-t0-0.2"]), 512 * 8 * 52 + 1024 * 60)
        # 64 cores x 1536 STLB entries x (16-bit count + marker), and T0's marker alone.
        self.assertEqual(chmu_tables.on_chip_bits(RUNS[f"tracking-{first}-t16-0.2"]), 64 * 1536 * 17)
        self.assertEqual(chmu_tables.on_chip_bits(RUNS[f"tracking-{first}-t0-0.2"]), 64 * 1536)
        self.assertEqual(chmu_tables.on_chip_bits(RUNS[f"autonuma-{first}"]), 0)

    def test_the_values_the_page_reads(self):
        v = chmu_tables.values(finished_runs(str(ROOT / "experiments" / "results" / "chmu")))
        for key in ("speedup_table", "pool_table", "cost_table", "geomean.t0_chmu_17_cached", "cost.t16_5",
                    "chmu_bits", "bfs_cached.chmu", "regions_hot", "overflows"):
            self.assertIn(key, v)
        self.assertEqual(v["overflows"], "0")


if __name__ == "__main__":
    unittest.main()
