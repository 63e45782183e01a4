"""Tests of experiments/tracking_cost_table.py, the table of what the tracking hardware costs each
workload, on made-up runs whose figures are known by hand: counters summed over the sockets and
the cores, shares of their totals, the two runs' IPC ratio, and a workload missing its second run.

    python3 tests/report/test_tracking_cost_table.py
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
import tracking_cost_table  # noqa: E402


def run(folder: Path, ipc, instructions, sockets, moved=0, to_pool=0.0):
    """A run's stats.json: `sockets` as (tracking counters, [each core's cycles])."""
    nodes = {}
    for k, (tracking, cycles) in enumerate(sockets):
        node = {f"core{c}": {"cycles": n, "instructions": 1} for c, n in enumerate(cycles)}
        node["tracking"] = tracking
        nodes[f"socket{k}"] = node
    nodes["pool"] = {"memory": {"reads": 5}}  # no tracking, no cores
    folder.mkdir()
    (folder / "stats.json").write_text(json.dumps({"ipc": ipc, "instructions": instructions,
                                                   "migration": {"pages_moved": moved, "to_pool_fraction": to_pool},
                                                   "stats": {"nodes": nodes}}))


def tracking(flushes, stalled, held, hits, reads, writes, marks):
    return {"flushes": flushes, "stalled_flushes": stalled, "core_stall_cycles": held, "metadata_llc_hits": hits,
            "tracker_reads": reads, "tracker_writes": writes, "phase_marks": marks}


class TrackingCostTable(unittest.TestCase):
    def table(self, out: Path) -> str:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            self.assertEqual(tracking_cost_table.main(str(out)), 0)
        return text.getvalue()

    def test_counters_are_summed_and_shared_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            # 300 flushes over 100 000 instructions, 150 of them stalled; 250 of 1 000 cycles held;
            # 300 of 400 metadata requests served by the LLC.
            run(out / "kv-llc", 0.02, 100000,
                [(tracking(100, 50, 100, 100, 100, 50, 4), [300, 200]), (tracking(200, 100, 150, 200, 200, 50, 4), [500])],
                moved=40, to_pool=1.0)
            run(out / "kv-cache", 0.08, 100000, [(tracking(300, 0, 0, 0, 300, 100, 8), [1000])], moved=30, to_pool=0.5)
            text = self.table(out)
        self.assertIn("| kv | 3.00 | 50.0 % | 25.0 % | 75.0 % | 8 | 0.0200 | 0.0800 | 0.25x | 40 (100 %) | 30 (50 %) |", text)

    def test_a_workload_without_its_cache_run_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            run(out / "bfs-llc", 0.05, 1000, [(tracking(1, 0, 0, 1, 1, 0, 1), [100])])
            with self.assertRaises(SystemExit) as e:
                tracking_cost_table.main(str(out))
            self.assertIn("bfs has no run with its own metadata cache", str(e.exception))

    def test_an_empty_folder_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp, self.assertRaises(SystemExit) as e:
            tracking_cost_table.main(tmp)
        self.assertIn("no runs", str(e.exception))


if __name__ == "__main__":
    unittest.main()
