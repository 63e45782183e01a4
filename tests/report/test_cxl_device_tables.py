"""Tests of experiments/qos_tables.py and experiments/dcd_tables.py on the committed results of
experiments/qos.yaml and experiments/dcd.yaml (experiments/results/qos, dcd): every case is there,
and the results have the properties docs/validation.md states of them.

    python3 tests/report/test_cxl_device_tables.py
"""
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments")]
import dcd_tables  # noqa: E402
import qos_tables  # noqa: E402
from sweep_runs import finished_runs  # noqa: E402

QOS = finished_runs(str(ROOT / "experiments" / "results" / "qos"))
DCD = finished_runs(str(ROOT / "experiments" / "results" / "dcd"))


class QosTables(unittest.TestCase):
    runs = qos_tables.by_name(QOS)

    def test_every_case_ran(self):
        self.assertEqual(sorted(self.runs), sorted(name for name, _ in qos_tables.CASES))

    def test_telemetry_alone_changes_no_timing(self):
        off, telemetry = self.runs["shared-off"], self.runs["shared-telemetry"]
        self.assertEqual(off["sim_time_ns"], telemetry["sim_time_ns"])
        self.assertEqual(off["programs"], telemetry["programs"])
        self.assertNotIn("qos", off["stats"]["nodes"]["pool"])

    def test_throttling_gives_the_chase_back_time_and_costs_the_streams(self):
        chase = {n: self.runs[n]["programs"]["chase"]["time_ns"] for n in self.runs}
        self.assertLess(chase["alone"], chase["shared-throttle-4ns"])
        self.assertLess(chase["shared-throttle-4ns"], chase["shared-throttle-1ns"])
        self.assertLess(chase["shared-throttle-1ns"], chase["shared-off"])
        v = qos_tables.values(QOS)
        self.assertEqual(v["telemetry_changes_nothing"], "yes")
        for key in ("recovered.1ns", "streams_longer.4ns", "moderate_share.off"):
            self.assertRegex(v[key], r"^\d+ %$")


class DcdTables(unittest.TestCase):
    runs = {name: stats for name, _, _, stats in DCD}

    def test_every_release_completed_and_lost_nothing(self):
        self.assertEqual(len(self.runs), 1 + len(dcd_tables.RELEASES))
        for size in dcd_tables.RELEASES:
            e = self.runs[f"released-{size}"]["dynamic_capacity"]["pool"]["events"][0]
            self.assertEqual(e["status"], "done", size)
            self.assertEqual(e["pages_moved"] + e["pages_moved_by_others"], e["pages_in_extent"], size)
            self.assertFalse(any("dynamic-capacity" in s for s in self.runs[f"released-{size}"]["shortfalls"]), size)

    def test_what_is_left_fits_what_is_online(self):
        for size in dcd_tables.RELEASES:
            d = self.runs[f"released-{size}"]["dynamic_capacity"]["pool"]
            self.assertLessEqual(d["pages_on_device"] * 4096, d["online_bytes"], size)
            self.assertEqual(d["online_bytes"], (8 - int(size[:-3])) << 20, size)

    def test_larger_releases_cost_the_workload_more(self):
        v = dcd_tables.values(DCD)
        self.assertLess(float(v["ipc.8MiB"]), float(v["ipc.6MiB"]))
        self.assertLess(float(v["ipc.6MiB"]), 1.0)
        self.assertEqual(v["in_extent.2MiB"], "0")


if __name__ == "__main__":
    unittest.main()
