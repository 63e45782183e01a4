"""Tests of tools/report/paper_data.py on a real sweep of experiments/paper.yaml's parts and names at
toy sizes: two small workloads, windows of 2,000 instructions (about a minute on 2 cores).

    python3 tests/report/test_paper_data.py      ($STARNUMA: the binary, default build/starnuma)
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "tools" / "report")]
import _interpreter  # noqa: E402

_interpreter.ensure()

import paper_data  # noqa: E402

STARNUMA = os.environ.get("STARNUMA", str(ROOT / "build" / "starnuma"))
WORKLOADS = ["sharing:pages=512", "kv:keys=4096"]


def toy_spec(folder: str) -> str:
    """experiments/paper.yaml with its workloads and lengths made small, its parts and names kept."""
    text = (ROOT / "experiments" / "paper.yaml").read_text()
    text = re.sub(r"workload: \[[^\]]*\]", "workload: " + json.dumps(WORKLOADS), text, count=1)
    text = text.replace("../platforms/", str(ROOT / "platforms") + "/")
    text = re.sub(r"checkpoints: \d+", "checkpoints: 2", text)
    text = re.sub(r"\binstructions: \d+", "instructions: 2000", text)
    text = re.sub(r"warmup: \d+", "warmup: 1000", text)
    text = re.sub(r"os.phase_instructions: \d+", "os.phase_instructions: 10000", text)
    path = os.path.join(folder, "paper-toy.yaml")
    Path(path).write_text(text)
    return path


def sweep_names(spec: str, out: str) -> set:
    listing = subprocess.run([STARNUMA, "sweep", spec, "--out", out, "--dry-run"], capture_output=True, text=True,
                             check=True).stdout
    return {line.split()[0] for line in listing.splitlines()[1:] if line.strip()}


class ThePaperSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.spec = toy_spec(cls.tmp)
        cls.out = os.path.join(cls.tmp, "paper")
        subprocess.run([STARNUMA, "sweep", cls.spec, "--out", cls.out, "--jobs", "2"], capture_output=True, text=True,
                       check=True)
        cls.runs = paper_data.PaperRuns(cls.out)
        cls.v = paper_data.values(cls.out, cls.runs)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def summary(self, name: str) -> dict:
        return json.loads((Path(self.out) / "runs" / name / "summary.json").read_text())

    def test_every_run_of_the_spec_is_read_and_every_run_read_is_one_of_it(self):
        self.assertEqual(self.runs.read, sweep_names(self.spec, os.path.join(self.tmp, "dry")))
        self.assertEqual(self.v["paper.missing"], "none")

    def test_a_speedup_is_the_ratio_of_the_two_machines_ipc(self):
        for w in WORKLOADS:
            f = paper_data.folder(w)
            star = self.summary(f"dynamic-{f}-starnuma16-scaled")["ipc"]
            base = self.summary(f"dynamic-{f}-baseline16-scaled")["ipc"]
            self.assertEqual(self.v[f"paper.{w.split(':')[0]}.speedup"], f"{star / base:.2f}x")
            half = self.summary(f"dynamic-{f}-starnuma16-halfbw-scaled")["ipc"]
            self.assertEqual(self.v[f"paper.fig11.{w.split(':')[0]}.starnuma16-halfbw-scaled"], f"{half / base:.2f}x")

    def test_the_block_transfers_come_from_the_windows(self):
        f = paper_data.folder(WORKLOADS[1])
        windows = sorted((Path(self.out) / "runs" / f"dynamic-{f}-starnuma16-scaled" / "sampled").glob("window-*"))
        self.assertEqual(len(windows), 2)
        c = paper_data.window_totals(self.runs, f"dynamic-{f}-starnuma16-scaled")
        counted = sum(json.loads((w / "stats.json").read_text())["stats"]["coherence"]["bt_pool"] for w in windows)
        self.assertEqual(c["bt_pool"], counted)
        self.assertGreater(c["bt_pool"] + c["bt_socket"], 0)

    def test_every_table_has_a_row_per_workload(self):
        tables = [k for k in self.v if k.endswith(".table")]
        self.assertGreaterEqual(len(tables), 9)
        for k in tables:
            for w in WORKLOADS:
                self.assertIn(f"`{w}`", self.v[k], k)

    def test_a_run_not_done_is_named_and_shown_as_a_dash(self):
        broken = os.path.join(self.tmp, "broken")
        shutil.copytree(self.out, broken)
        name = f"oracle-{paper_data.folder(WORKLOADS[0])}-starnuma16-scaled"
        con = sqlite3.connect(os.path.join(broken, "sweep.db"))
        con.execute("UPDATE runs SET status = 'failed' WHERE name = ?", (name,))
        con.commit()
        con.close()
        v = paper_data.values(broken)
        self.assertEqual(v["paper.missing"], name)
        row = next(line for line in v["paper.fig9.table"].splitlines() if WORKLOADS[0] in line)
        self.assertTrue(row.rstrip(" |").endswith("-"), row)


class Means(unittest.TestCase):
    def test_the_geomeans_cover_the_papers_eight_when_any_is_there(self):
        self.assertEqual(paper_data.mean_over(["bfs:scale=22", "kv", "poa"]), ["bfs:scale=22", "poa"])
        self.assertEqual(paper_data.mean_over(["kv", "sharing"]), ["kv", "sharing"])


if __name__ == "__main__":
    unittest.main()
