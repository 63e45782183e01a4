"""`starnuma sample`'s stratified aggregate (docs/sampling.md, "The phases' starts, a stratum") on a
real small case, against the same rules written again in Python (experiments/boundary_strata.py,
tools/report/intervals.py): sharing at 2 048 pages on starnuma16-scaled, phases of 40 K, units every
10 K (on the grid, led, and at random points), windows of 2 K after 4 K of warm-up (about 20 s on
2 cores).

    python3 tests/report/test_sample_strata.py      ($STARNUMA: the binary, default build/starnuma)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "experiments"), str(ROOT / "tools" / "report")]
import boundary_strata  # noqa: E402
import intervals  # noqa: E402

STARNUMA = os.environ.get("STARNUMA", str(ROOT / "build" / "starnuma"))
PLATFORM = str(ROOT / "platforms" / "starnuma16-scaled.yaml")
PHASE = ["--set", "os.phase_instructions=40000"]
WARMUP, WINDOW, EVERY = 4000, 2000, 10000


def sampled(folder: Path, *checkpoint_options: str) -> tuple[dict, dict, str]:
    """The pass and the windows: sampled.json, the manifest and sample's summary."""
    subprocess.run([STARNUMA, "checkpoint", PLATFORM, "--workload", "sharing:pages=2048", "--checkpoints", "3",
                    "--unit-every", str(EVERY), *checkpoint_options, "--out", str(folder / "ck"), "--no-progress",
                    *PHASE], check=True, stdout=subprocess.DEVNULL)
    summary = subprocess.run([STARNUMA, "sample", PLATFORM, "--checkpoints", str(folder / "ck"), "--warmup",
                              str(WARMUP), "--instructions", str(WINDOW), "--jobs", "2", "--out", str(folder / "s"),
                              *PHASE], check=True, capture_output=True, text=True).stdout
    return (json.loads((folder / "s" / "sampled.json").read_text()),
            json.loads((folder / "ck" / "manifest.json").read_text()), summary)


class SampleStrata(unittest.TestCase):
    def test_led_units_measure_each_start_once_and_stand_for_their_stretch(self):
        with tempfile.TemporaryDirectory() as d:
            s, manifest, summary = sampled(Path(d), "--unit-lead", str(WARMUP))
        # Boundaries 1, 2 and 3 (40 K, 80 K, 120 K) lie among the units, each measured by the unit
        # led to it (boundary 1's written in phase 0, 4 K before it).
        starts = s["phase_starts"]
        self.assertEqual((starts["in_span"], starts["measured"], starts["unmeasured"]), (3, 3, 0))
        self.assertEqual(manifest["units"][0]["phase"], 0)
        self.assertTrue(starts["stratified"])
        windows = [w for w in s["per_window"] if w.get("in_estimate", True)]
        found = boundary_strata.phase_starts(manifest, WARMUP, WINDOW)
        self.assertEqual({(w["phase"], w["unit"]) for w in windows if w.get("starts_a_phase")}, found)
        self.assertEqual(len(found), 3)
        self.assertIn((0, 1), found)
        # A start stands for its 2 K, the others share the rest of the units' work.
        rest = (len(manifest["units"]) * EVERY - 3 * WINDOW) / ((len(windows) - 3) * EVERY)
        self.assertAlmostEqual(starts["weight_of_a_start"], WINDOW / EVERY)
        self.assertAlmostEqual(starts["weight_of_the_rest"], rest)
        for w in windows:
            self.assertAlmostEqual(w["weight"], WINDOW / EVERY if w.get("starts_a_phase") else rest)
        # The estimate and its interval are the stratified ratio estimator's, as Python computes it.
        ipc = intervals.stratified_ratio([w["instructions"] for w in windows],
                                         [w["instructions"] / w["ipc"] for w in windows],
                                         [w["weight"] for w in windows],
                                         [int(w.get("starts_a_phase", False)) for w in windows])
        self.assertAlmostEqual(s["ipc"] / ipc[0], 1, places=9)
        self.assertAlmostEqual(s["confidence"]["ipc"]["low"] / ipc[1], 1, places=9)
        self.assertAlmostEqual(s["confidence"]["ipc"]["high"] / ipc[2], 1, places=9)
        pooled = sum(w["instructions"] for w in windows) / sum(w["instructions"] / w["ipc"] for w in windows)
        self.assertNotAlmostEqual(s["ipc"] / pooled, 1, places=4)  # the strata moved it
        self.assertIn("The 3 windows measuring a phase's start stand for their own stretch", summary)

    def test_unled_units_on_the_grid_say_the_starts_they_miss(self):
        with tempfile.TemporaryDirectory() as d:
            s, _, summary = sampled(Path(d), "--no-unit-jitter")
        starts = s["phase_starts"]
        self.assertEqual((starts["in_span"], starts["measured"], starts["unmeasured"]), (2, 0, 2))
        self.assertFalse(starts["stratified"])
        self.assertFalse(any("weight" in w or "starts_a_phase" in w for w in s["per_window"]))
        self.assertIn("note: 2 of the 2 phase starts among the units fall in no window's measurement "
                      f"(checkpoint --unit-lead {WARMUP} measures each", summary)

    def test_units_at_random_points_by_default_weigh_alike(self):
        with tempfile.TemporaryDirectory() as d:
            s, manifest, summary = sampled(Path(d))
        self.assertTrue(manifest["unit_jitter"])
        starts = s["phase_starts"]
        self.assertTrue(starts["units_at_random_points"])
        self.assertFalse(starts["stratified"])
        self.assertFalse(any("weight" in w or "starts_a_phase" in w for w in s["per_window"]))
        self.assertNotIn("phase starts among the units", summary)
        # One unit in each stretch of 10 K, not all at its start.
        froms = [u["stretch_from"] for u in manifest["units"]]
        self.assertEqual(froms, list(range(froms[0], froms[0] + EVERY * len(froms), EVERY)))
        self.assertTrue(any(u["mean_instructions"] != u["stretch_from"] for u in manifest["units"]))


if __name__ == "__main__":
    unittest.main()
