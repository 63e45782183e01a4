"""Tests of tools/report/paper_data.py on a real sweep of experiments/paper.yaml's parts and names at
toy sizes: two small workloads, two of its migration limits, windows of 2,000 instructions (about
a minute on 2 cores).

    python3 tests/report/test_paper_data.py      ($STARNUMA: the binary, default build/starnuma)
"""
import json
import math
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

import intervals  # noqa: E402
import paper_data  # noqa: E402

STARNUMA = os.environ.get("STARNUMA", str(ROOT / "build" / "starnuma"))
WORKLOADS = ["sharing:pages=512", "kv:keys=4096"]
LIMITS = [0, 1024, 4096]


class PairedSpeedup(unittest.TestCase):
    @staticmethod
    def sampled(*ipcs):
        return {"per_window": [{"phase": k + 1, "ipc": x} for k, x in enumerate(ipcs)]}

    def test_a_machine_uniformly_faster_has_no_spread(self):
        s, low, high = intervals.paired_speedup(self.sampled(0.2, 0.4, 0.1), self.sampled(0.1, 0.2, 0.05))
        self.assertAlmostEqual(s, 2.0)
        self.assertAlmostEqual(low, 2.0)
        self.assertAlmostEqual(high, 2.0)

    def test_the_interval_is_the_ratio_estimators(self):
        base, fast = self.sampled(0.1, 0.2), self.sampled(0.25, 0.25)  # CPIs 10, 5 and 4, 4
        s, low, high = intervals.paired_speedup(fast, base)
        self.assertAlmostEqual(s, 7.5 / 4)
        d = [10 - s * 4, 5 - s * 4]
        half = 12.706 * math.sqrt(sum(x * x for x in d)) / (math.sqrt(2) * 4)
        self.assertAlmostEqual(high - s, half, places=3)
        self.assertAlmostEqual(s - low, high - s)

    def test_students_quantiles_are_the_tables(self):
        for level, dof, t in [(0.95, 1, 12.7062), (0.95, 30, 2.0423), (0.95, 10**6, 1.9600), (0.99, 10, 3.1693),
                              (0.90, 5, 2.0150)]:
            self.assertAlmostEqual(intervals.student_t(level, dof), t, places=4)

    def test_only_phases_both_ran_are_paired(self):
        base = self.sampled(0.1, 0.2, 0.3)
        fast = {"per_window": [{"phase": 2, "ipc": 0.4}, {"phase": 3, "ipc": 0.6}, {"phase": 4, "ipc": 9}]}
        s, low, high = intervals.paired_speedup(fast, base)
        self.assertAlmostEqual((s, low, high), (2.0, 2.0, 2.0))
        self.assertIsNone(intervals.paired_speedup(self.sampled(0.1), self.sampled(0.1)))
        self.assertIsNone(intervals.paired_speedup(None, base))

    def test_units_pair_by_their_phase_and_place_in_it(self):
        # A boundary's window and the units inside the phase after it share the phase number.
        base = {"per_window": [{"phase": 1, "ipc": 0.1}, {"phase": 1, "unit": 1, "ipc": 0.2}]}
        fast = {"per_window": [{"phase": 1, "ipc": 0.2}, {"phase": 1, "unit": 1, "ipc": 0.4}]}
        self.assertAlmostEqual(intervals.paired_speedup(fast, base), (2.0, 2.0, 2.0))

    def test_windows_timing_copies_are_left_out(self):
        # Units over the work: a boundary's window times the copies, outside the estimate.
        base = {"per_window": [{"phase": 1, "ipc": 0.1, "in_estimate": False}, {"phase": 1, "unit": 1, "ipc": 0.2},
                               {"phase": 1, "unit": 2, "ipc": 0.1}]}
        fast = {"per_window": [{"phase": 1, "ipc": 0.9, "in_estimate": False}, {"phase": 1, "unit": 1, "ipc": 0.4},
                               {"phase": 1, "unit": 2, "ipc": 0.2}]}
        self.assertAlmostEqual(intervals.paired_speedup(fast, base), (2.0, 2.0, 2.0))

    def test_strata_are_models_common_confidences(self):
        # The hand case of Confidence.StrataWeighTheirUnitsAndAddTheirOwnSpread (tests/common).
        r, low, high = intervals.stratified_ratio([1, 3, 4, 6, 5], [1] * 5, [1, 1, 3, 3, 3], [0, 0, 1, 1, 1])
        self.assertAlmostEqual(r, 49 / 11)
        self.assertAlmostEqual(high - r, intervals.student_t(0.95, 961 / 380.5) * math.sqrt(31) / 11)
        self.assertAlmostEqual(r - low, high - r)
        self.assertIsNone(intervals.stratified_ratio([2, 4], [1, 1], [1, 2], [0, 1]))

    def test_a_phases_start_stands_for_its_own_stretch(self):
        # The base's two starts (CPI 20) weigh 0.2 of a spacing, its two others 1.8: the weighted
        # means are 0.4 * 20 + 3.6 * 10 = 44 against 0.4 * 5 + 3.6 * 5 = 20.
        base = {"per_window": [{"phase": 1, "unit": k, "ipc": 0.05 if k > 2 else 0.1,
                                "weight": 0.2 if k > 2 else 1.8, **({"starts_a_phase": True} if k > 2 else {})}
                               for k in range(1, 5)]}
        fast = {"per_window": [{"phase": 1, "unit": k, "ipc": 0.2} for k in range(1, 5)]}
        s, low, high = intervals.paired_speedup(fast, base)
        self.assertAlmostEqual(s, 44 / 20)
        self.assertAlmostEqual((low, high), (s, s))  # each stratum's windows alike: no spread
        unweighted = {"per_window": [{k: v for k, v in w.items() if k not in ("weight", "starts_a_phase")}
                                     for w in base["per_window"]]}
        self.assertAlmostEqual(intervals.paired_speedup(fast, unweighted)[0], 60 / 20)


def toy_spec(folder: str) -> str:
    """experiments/paper.yaml with its workloads and lengths made small, its parts and names kept."""
    text = (ROOT / "experiments" / "paper.yaml").read_text()
    text = re.sub(r"workload: \[[^\]]*\]", "workload: " + json.dumps(WORKLOADS), text, count=1)
    text = text.replace(", 2048, 4096, 8192]", ", 4096]")  # part dynamic's limits are then LIMITS
    text = text.replace("os.migration_limit: 8192}", "os.migration_limit: 4096}")  # part cached_variants' one
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

    def best_ipc(self, folder: str, platform: str) -> float:
        return max(self.summary(f"dynamic-{folder}-{platform}-{limit}")["ipc"] for limit in LIMITS)

    def test_a_speedup_is_the_ratio_of_the_two_machines_ipc_each_at_its_best_limit(self):
        for w in WORKLOADS:
            f = paper_data.folder(w)
            star, base = self.best_ipc(f, "starnuma16-scaled"), self.best_ipc(f, "baseline16-scaled")
            self.assertEqual(self.v[f"paper.{w.split(':')[0]}.speedup"], f"{star / base:.2f}x")
            half = self.best_ipc(f, "starnuma16-halfbw-scaled")
            self.assertEqual(self.v[f"paper.fig11.{w.split(':')[0]}.starnuma16-halfbw-scaled"], f"{half / base:.2f}x")
        self.assertEqual(self.v["paper.limits"], "0, 1K, 4K")

    def test_the_best_limit_is_the_one_of_highest_ipc(self):
        f = paper_data.folder(WORKLOADS[1])
        ipc = {limit: self.summary(f"dynamic-{f}-starnuma16-scaled-{limit}")["ipc"] for limit in LIMITS}
        _, name, limit = self.runs.best("dynamic", WORKLOADS[1], "starnuma16-scaled")
        self.assertEqual(limit, max(ipc, key=ipc.get))
        self.assertEqual(name, f"dynamic-{f}-starnuma16-scaled-{limit}")
        row = next(line for line in self.v["paper.best_limit.table"].splitlines() if WORKLOADS[1] in line)
        self.assertEqual(row.split("|")[3].strip(), paper_data.pages(limit))

    def test_the_block_transfers_are_the_windows_summed(self):
        name = f"dynamic-{paper_data.folder(WORKLOADS[1])}-starnuma16-scaled-1024"
        windows = [json.loads(p.read_text())["stats"]["coherence"]
                   for p in sorted((Path(self.out) / "runs" / name / "sampled").glob("window-*/stats.json"))]
        self.assertEqual(len(windows), 2)
        # Read from the aggregate alone, as the results committed in experiments/results/ are.
        bare = os.path.join(self.tmp, "bare")
        shutil.copytree(self.out, bare, ignore=shutil.ignore_patterns("sampled"))
        c = paper_data.window_totals(paper_data.PaperRuns(bare), name)
        self.assertEqual(c["bt_pool"], sum(w["bt_pool"] for w in windows))
        self.assertEqual(c["bt_socket"], sum(w["bt_socket"] for w in windows))
        self.assertGreater(c["bt_pool"] + c["bt_socket"], 0)
        weighted = sum(w["bt_socket"] * w["bt_socket_latency"]["mean"] for w in windows) / c["bt_socket"]
        self.assertAlmostEqual(c["bt_socket_ns"], weighted, places=6)

    def test_every_table_has_a_row_per_workload(self):
        # (paper.comparison, paper.causes and paper.progress.parts are by quantity and by part, not by workload)
        tables = [k for k in self.v if k.endswith(".table")]
        self.assertGreaterEqual(len(tables), 9)
        for k in tables:
            for w in WORKLOADS:
                self.assertIn(f"`{w}`", self.v[k], k)

    def failed(self, folder: str, *names: str) -> dict:
        """values() of a copy of the sweep in which the named runs failed."""
        broken = os.path.join(self.tmp, folder)
        shutil.copytree(self.out, broken)
        con = sqlite3.connect(os.path.join(broken, "sweep.db"))
        con.executemany("UPDATE runs SET status = 'failed' WHERE name = ?", [(n,) for n in names])
        con.commit()
        con.close()
        return paper_data.values(broken)

    def test_each_speedup_has_its_interval_around_it(self):
        for w in WORKLOADS:
            f = paper_data.folder(w)
            _, star, _ = self.runs.best("dynamic", w, "starnuma16-scaled")
            _, base, _ = self.runs.best("dynamic", w, "baseline16-scaled")
            s, low, high = intervals.paired_speedup(self.runs(star), self.runs(base))
            self.assertEqual(self.v[f"paper.{paper_data.short(w)}.speedup"], f"{s:.2f}x", f)
            self.assertLessEqual(low, s)
            self.assertGreaterEqual(high, s)
            self.assertEqual(self.v[f"paper.{paper_data.short(w)}.speedup_interval"], f"{low:.2f}-{high:.2f}x")

    def test_the_tracking_cost_is_the_machines_without_migration(self):
        for w in WORKLOADS:
            f = paper_data.folder(w)
            ipc = lambda p: self.summary(f"dynamic-{f}-{p}-0")["ipc"]
            self.assertEqual(self.v[f"paper.{paper_data.short(w)}.tracking_cost"],
                             f"{ipc('starnuma16-scaled') / ipc('baseline16-scaled'):.2f}x")

    def test_cached_tracking_is_its_parts_best_over_the_baseline(self):
        for w in WORKLOADS:
            f = paper_data.folder(w)
            best = max((self.summary(f"cached_tracking-{f}-{limit}")["ipc"] for limit in LIMITS))
            self.assertEqual(self.v[f"paper.{paper_data.short(w)}.cached_tracking_speedup"],
                             f"{best / self.best_ipc(f, 'baseline16-scaled'):.2f}x")

    def test_with_the_trackers_cached_starnumas_numbers_are_recomputed_from_that_part(self):
        speedups = []
        for w in WORKLOADS:
            f = paper_data.folder(w)
            best = max((self.summary(f"cached_tracking-{f}-{limit}")["ipc"] for limit in LIMITS))
            speedups.append(best / self.best_ipc(f, "baseline16-scaled"))
        self.assertEqual(self.v["paper.cached.speedup.geomean"],
                         f"{math.exp(sum(map(math.log, speedups)) / len(speedups)):.2f}x")
        self.assertEqual(self.v["paper.cached.speedup.max"], f"{max(speedups):.2f}x")

    def test_each_difference_beyond_the_bar_has_a_row_of_causes(self):
        rows = self.v["paper.causes"].splitlines()[2:]
        self.assertEqual(len(rows), int(self.v["paper.comparison.beyond"]))
        stated = {what: key for key, what, _, _ in paper_data.STATED}
        for row in rows:
            cells = [c.strip() for c in row.strip("|").split("|")]
            key = stated[cells[0]]
            if key in paper_data.T16_KEYS:
                self.assertEqual(cells[3].split(" (")[0], self.v[f"paper.cached.{key}"], row)
                self.assertEqual(cells[4].split(" (")[0], self.v[f"paper.cached_unbounded.{key}"], row)
            self.assertNotEqual(cells[6], "", row)
            if key in paper_data.CACHED_VARIANT_OF:  # theirs / ours / ours with the trackers cached
                self.assertRegex(cells[5], r"^(\d\.\d\d|-) / (\d+\.\d\d|-) / (\d+\.\d\d|-)$", row)

    def test_fig9_compares_each_placement_within_its_method(self):
        # The oracle's continuous window over the baseline's first touch in the same window; the
        # dynamic machines' sampled windows over the sampled baseline without migration.
        for w in WORKLOADS:
            f, k = paper_data.folder(w), paper_data.short(w)
            oracle = self.summary(f"oracle-{f}-starnuma16-scaled")["ipc"]
            self.assertEqual(self.v[f"paper.fig9.{k}.starnuma_oracle"],
                             f"{oracle / self.summary(f'first_touch-{f}')['ipc']:.2f}x")
            dynamic = self.best_ipc(f, "starnuma16-scaled")
            self.assertEqual(self.v[f"paper.fig9.{k}.starnuma_dynamic"],
                             f"{dynamic / self.summary(f'dynamic-{f}-baseline16-scaled-0')['ipc']:.2f}x")

    def test_a_variants_own_effect_is_over_starnuma_at_its_limit_both_cached(self):
        rows = {}
        for w in WORKLOADS:
            f = paper_data.folder(w)
            limit = int(self.runs.rows[f"cached_variants-{f}-190ns"]["sets"]["os.migration_limit"])
            rows[paper_data.short(w)] = (self.summary(f"cached_variants-{f}-190ns")["ipc"] /
                                         self.summary(f"cached_tracking-{f}-{limit}")["ipc"])
        effects = paper_data.cached_variant_effects(self.runs, list(WORKLOADS))
        for k, x in rows.items():
            self.assertAlmostEqual(effects["190ns", k], x)
        self.assertAlmostEqual(effects["190ns", None], math.exp(sum(map(math.log, rows.values())) / len(rows)))

    def test_the_stated_numbers_stand_beside_ours_with_their_difference(self):
        self.assertEqual(self.v["paper.ours.speedup.geomean"], self.v["paper.geomean.speedup"])
        self.assertEqual(self.v["paper.ours.t0.geomean"], self.v["paper.geomean.t0_speedup"])
        rows = self.v["paper.comparison"].splitlines()[2:]
        self.assertEqual(len(rows), len(paper_data.STATED))
        beyond = 0
        for row, (key, what, theirs, kind) in zip(rows, paper_data.STATED):
            cells = [c.strip() for c in row.strip("|").split("|")]
            self.assertEqual(cells[0], what)
            self.assertTrue(cells[2].startswith(self.v[f"paper.ours.{key}"]), row)
            if cells[3] != "-":
                ours = float(self.v[f"paper.ours.{key}"].rstrip("x %"))
                ours = ours / 100 if kind == "%" else ours
                # The difference from the rounded values, within their rounding (ours to 0.01x or
                # 0.1 %, the difference to 1 %).
                rounding = (0.005 if kind == "x" else 0.0005) / theirs + 0.005
                self.assertAlmostEqual(float(cells[3].rstrip(" %")) / 100, ours / theirs - 1, delta=rounding + 1e-9)
                beyond += cells[4] == "yes"
                d = abs(ours / theirs - 1)
                if abs(d - paper_data.DIFFERENCE_TO_EXPLAIN) > rounding:  # clear of the rounding
                    self.assertEqual(cells[4] == "yes", d > paper_data.DIFFERENCE_TO_EXPLAIN, row)
        self.assertEqual(self.v["paper.comparison.beyond"], str(beyond))

    def test_a_sweep_in_progress_counts_what_is_done_per_part(self):
        total = len(self.runs.rows)
        self.assertEqual(self.v["paper.progress"], f"{total} of {total}")
        self.assertRegex(self.v["paper.sources"], r"^[0-9a-f]{12}$")
        dynamic = [n for n, r in self.runs.rows.items() if r["params"]["part"] == "dynamic"]
        v = self.failed("in-progress", *dynamic)
        self.assertEqual(v["paper.progress"], f"{total - len(dynamic)} of {total}")
        self.assertIn(f"| dynamic | 0 | {len(dynamic)} |", v["paper.progress.parts"])
        self.assertRegex(v["paper.missing"], r"^\d+ runs \(the runs not done yet")

    def test_a_run_not_done_is_named_and_shown_as_a_dash(self):
        name = f"oracle-{paper_data.folder(WORKLOADS[0])}-starnuma16-scaled"
        v = self.failed("broken", name)
        self.assertEqual(v["paper.missing"], name)
        row = next(line for line in v["paper.fig9.table"].splitlines() if WORKLOADS[0] in line)
        self.assertTrue(row.rstrip(" |").endswith("-"), row)

    def test_a_limit_not_done_is_named_and_the_best_is_of_the_others(self):
        f = paper_data.folder(WORKLOADS[0])
        star, base = (f"dynamic-{f}-{p}-4096" for p in ("starnuma16-scaled", "baseline16-scaled"))
        v = self.failed("broken-limit", star, base)
        self.assertEqual(v["paper.missing"], f"{base}, {star}")
        ipc = lambda p: self.summary(f"dynamic-{f}-{p}-1024")["ipc"]
        self.assertEqual(v[f"paper.{WORKLOADS[0].split(':')[0]}.speedup"],
                         f"{ipc('starnuma16-scaled') / ipc('baseline16-scaled'):.2f}x")

    def test_a_run_whose_migrations_could_not_be_carried_out_is_not_a_best(self):
        f = paper_data.folder(WORKLOADS[1])
        _, name, limit = self.runs.best("dynamic", WORKLOADS[1], "starnuma16-scaled")
        self.assertTrue(self.runs.carried_out(name))
        slow = os.path.join(self.tmp, "slow")
        shutil.copytree(self.out, slow)
        # The best run's first window moved one page of many decided: at that rate its phase (5
        # windows here) could not have moved them all.
        aggregate = Path(slow) / "runs" / name / "stats.json"
        stats = json.loads(aggregate.read_text())
        stats["per_window"][0].update(pages_moved=1, pages_decided=1000)
        aggregate.write_text(json.dumps(stats))
        runs = paper_data.PaperRuns(slow)
        v = paper_data.values(slow, runs)
        self.assertFalse(runs.carried_out(name))
        self.assertEqual(v["paper.limit.not_carried_out"], name)
        _, other, _ = runs.best("dynamic", WORKLOADS[1], "starnuma16-scaled")
        self.assertNotEqual(other, name)
        row = next(line for line in v["paper.limit.table"].splitlines() if WORKLOADS[1] in line)
        self.assertEqual(row.count("*"), 1, row)
        self.assertEqual(self.v["paper.limit.not_carried_out"], "none")

    def test_the_report_draws_the_papers_bars_and_not_the_same_limit_pairs(self):
        import report
        out = Path(self.tmp) / "report"
        report.make_report(Path(self.out), "md", out)
        drawn = {p.stem for p in out.glob("*.png")}
        self.assertTrue({f"paper-{name}" for name in paper_data.BARS} <= drawn, drawn)
        self.assertFalse([d for d in drawn if d.startswith(("fig8a-speedup", "axis-"))], drawn)
        page = (out / "report.md").read_text()
        for _, title in report.PAPER_TABLES:
            self.assertIn(f"## {title}", page)
        self.assertNotIn("Speedups over", page)  # the same-limit pairs' table
        amat = json.loads((out / "data" / "paper-fig8b.json").read_text())
        f = paper_data.folder(WORKLOADS[1])
        best = max((self.summary(f"dynamic-{f}-baseline16-scaled-{limit}") for limit in LIMITS), key=lambda r: r["ipc"])
        self.assertIn(["kv", best["amat_unloaded_ns"]], amat["baseline/unloaded"])
        data = json.loads((out / "data" / "paper-fig11.json").read_text())
        bars = paper_data.bar_figures(self.runs)["fig11"]
        for label, points in data.items():
            for workload, x in points:
                want = (paper_data.geomean(bars[label].values()) if workload == "geomean" else
                        next(v for w, v in bars[label].items() if w.split(":")[0] == workload))
                self.assertAlmostEqual(x, want, places=12, msg=(label, workload))


class Means(unittest.TestCase):
    def test_the_geomeans_cover_the_papers_eight_when_any_is_there(self):
        self.assertEqual(paper_data.mean_over(["bfs:scale=22", "kv", "poa"]), ["bfs:scale=22", "poa"])
        self.assertEqual(paper_data.mean_over(["kv", "sharing"]), ["kv", "sharing"])


if __name__ == "__main__":
    unittest.main()
