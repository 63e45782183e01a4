"""Tests of tools/report: figures against sweep.db, the report files, the command's errors.

    python3 -m unittest discover -s tests/report        (from the repository root)
    python3 tests/report/test_report.py

The sweeps are built once per test run by make_fixture.py with the real binary ($STARNUMA, default
build/starnuma) in a temporary folder; set STARNUMA_REPORT_FIXTURE=DIR to build into DIR and reuse it
on later runs. Every expected value is computed here by SQL over sweep.db or read from the run's own
files, never through tools/report.
"""
import html
import io
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
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REPORT = ROOT / "tools" / "report" / "report.py"
sys.path[:0] = [str(ROOT / "tools" / "report"), str(HERE)]
import _interpreter  # noqa: E402

_interpreter.ensure()

import figures as F  # noqa: E402
import make_fixture  # noqa: E402
import report  # noqa: E402
import starnuma_results as sr  # noqa: E402
import topology  # noqa: E402

SWEEPS: dict = {}
_TMP = None


def setUpModule():
    global _TMP
    keep = os.environ.get("STARNUMA_REPORT_FIXTURE")
    if keep and all((Path(keep) / d / "sweep.db").is_file() for d in ("main", "parts")):
        SWEEPS.update({d: Path(keep) / d for d in ("main", "parts")})
        return
    base = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="starnuma-report-test-"))
    _TMP = None if keep else base
    try:
        SWEEPS.update(make_fixture.build(base))
    except BaseException:
        tearDownModule()  # not called when setUpModule fails
        raise


def tearDownModule():
    if _TMP:
        shutil.rmtree(_TMP, ignore_errors=True)


def sql(sweep: str, query: str, *args) -> list:
    con = sqlite3.connect(SWEEPS[sweep] / "sweep.db")
    try:
        return con.execute(query, args).fetchall()
    finally:
        con.close()


def bars(ax) -> dict:
    """{bar label: {x tick label: (height, bottom)}}, read back from the Axes."""
    ticks = dict(zip(ax.get_xticks(), (t.get_text() for t in ax.get_xticklabels())))
    out = {}
    for container in ax.containers:
        for p in container.patches:
            x = p.get_x() + p.get_width() / 2
            tick = min(ticks, key=lambda t: abs(t - x))
            out.setdefault(container.get_label(), {})[ticks[tick]] = (p.get_height(), p.get_y())
    return out


def heights(ax) -> dict:
    return {label: {x: h for x, (h, _) in values.items()} for label, values in bars(ax).items()}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def speedups_by_sql(sweep: str, where: str = "1") -> list:
    """(platform, workload, placement, speedup): done runs over the done baseline run with the same
    workload and placement (the main sweep's other axes)."""
    return sql(sweep, f"""
        SELECT o.platform_name, o.workload, o.placement, o.ipc / b.ipc FROM runs o JOIN runs b
          ON b.platform_name = (SELECT value FROM meta WHERE key = 'baseline') AND b.workload = o.workload
         AND b.placement IS o.placement AND b.status = 'done'
         WHERE o.status = 'done' AND o.platform_name != b.platform_name AND {where} ORDER BY o.rowid""")


def run_report(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPORT), *map(str, args)], capture_output=True, text=True, cwd=ROOT)


class Case(unittest.TestCase):
    def assertClose(self, actual: dict, expected: dict):
        """Nested dicts of numbers equal to 1e-9 relative."""
        self.assertEqual(set(actual), set(expected))
        for k in expected:
            if isinstance(expected[k], dict):
                self.assertClose(actual[k], expected[k])
            else:
                self.assertTrue(math.isclose(actual[k], expected[k], rel_tol=1e-9, abs_tol=1e-12),
                                f"{k}: {actual[k]} != {expected[k]}")


class FigureData(Case):
    """Each figure's drawn values against the database rows (or statistics files) they come from."""

    @classmethod
    def setUpClass(cls):
        cls.sw = {name: F.Sweep(path) for name, path in SWEEPS.items()}
        cls.part = {ps.part: ps for ps in cls.sw["parts"].parts()}

    def test_fig8a_speedup(self):
        fig, data = F.speedup(self.sw["main"])
        rows = speedups_by_sql("main", "o.placement = 'oracle'")
        expected = {"starnuma16-scaled": {w: s for _, w, _, s in rows}}
        expected["starnuma16-scaled"]["geomean"] = geomean([s for *_, s in rows])
        self.assertEqual(len(rows), 2)
        self.assertClose(heights(fig.axes[0]), expected)
        self.assertClose({k: dict(v) for k, v in data.items()}, expected)

    def test_axis_speedup_per_placement(self):
        fig, _ = F.axis_speedup(self.sw["main"], "placement")
        expected = {}
        for _, w, placement, s in speedups_by_sql("main"):
            expected.setdefault(f"placement = {placement}", {})[w] = s
        for values in expected.values():
            values["geomean"] = geomean(list(values.values()))
        # the failed run (starnuma, sharing, dynamic) leaves its bar out
        self.assertNotIn("sharing", expected["placement = dynamic"])
        self.assertClose(heights(fig.axes[0]), expected)

    def test_fig8a_pairs_across_axes_bound_to_the_platform(self):
        fig, _ = F.speedup(self.part["sampled"])
        (ratio,), = sql("parts", """SELECT o.ipc / b.ipc FROM runs o, runs b
            WHERE o.kind = 'sampled' AND b.kind = 'sampled'
              AND o.platform_name = 'starnuma16-scaled' AND b.platform_name = 'baseline16-scaled'""")
        self.assertClose(heights(fig.axes[0]), {"starnuma16-scaled": {"sharing": ratio, "geomean": ratio}})

    def test_axis_speedup_within_a_part(self):
        rows = sql("parts", """SELECT json_extract(o.params, '$.pool_fraction'), o.ipc / b.ipc FROM runs o JOIN runs b
            ON b.pool_fraction = o.pool_fraction AND b.platform_name = 'baseline16-scaled'
            WHERE o.platform_name = 'starnuma16-scaled' AND json_extract(o.params, '$.part') = 'pool'
            ORDER BY o.rowid""")
        self.assertEqual(len(rows), 2)
        fig, _ = F.axis_speedup(self.part["pool"], "pool_fraction")
        self.assertClose(heights(fig.axes[0]), {f"pool_fraction = {f}": {"sharing": s, "geomean": s} for f, s in rows})
        # Fig. 8a of the part holds pool_fraction at its first value
        fig, _ = F.speedup(self.part["pool"])
        self.assertClose(heights(fig.axes[0]), {"starnuma16-scaled": {"sharing": rows[0][1], "geomean": rows[0][1]}})

    def test_fig8b_amat_split(self):
        fig, _ = F.amat_split(self.sw["main"])
        drawn = bars(fig.axes[0])
        rows = sql("main", """SELECT platform_name, workload, amat_unloaded_ns, amat_contention_ns, amat_ns FROM runs
                              WHERE status = 'done' AND placement = 'oracle'""")
        expected = {}
        for p, w, unloaded, contention, amat in rows:
            expected.setdefault(f"{p}/unloaded", {})[w] = unloaded
            expected.setdefault(f"{p}/contention", {})[w] = contention
            h, bottom = drawn[f"{p}/contention"][w]
            self.assertAlmostEqual(bottom, unloaded)  # stacked on the unloaded part, up to the measured AMAT
            self.assertAlmostEqual(bottom + h, amat, places=6)
        self.assertClose(heights(fig.axes[0]), expected)

    def test_table4_pool_fraction(self):
        fig, _ = F.pool_migrations(self.sw["main"])
        expected = {}
        for p, w, frac in sql("main", """SELECT platform_name, workload, 100.0 * to_pool / pages_moved FROM runs
                                         WHERE status = 'done' AND pages_moved > 0"""):
            expected.setdefault(p, {})[w] = frac
        self.assertTrue(expected)
        self.assertClose(heights(fig.axes[0]), expected)

    def test_fig2_sharing_profile(self):
        fig, _ = F.sharing_profile(self.sw["parts"])
        rows = sql("parts", "SELECT workload, stats_path FROM runs WHERE kind = 'profile' AND status = 'done'")
        self.assertEqual(len(rows), 2)
        for ax, key in zip(fig.axes, ("pages_by_sharers", "accesses_by_sharers")):
            expected = {}
            for workload, path in rows:
                summary = json.loads((SWEEPS["parts"] / path).read_text())
                expected[workload] = {k: 100 * v for k, v in summary[key].items() if v is not None}
            self.assertClose(heights(ax), expected)

    def test_link_utilisation_on_topology(self):
        sweep = self.sw["main"]
        fig, _ = topology.link_utilisation(sweep, "sharing")
        rows = sql("main", """SELECT name, platform_key, stats_path FROM runs WHERE kind = 'run' AND status = 'done'
                              AND workload = 'sharing' AND placement = 'oracle' ORDER BY rowid""")
        self.assertEqual(len(rows), 2)
        for ax, (name, key, path) in zip(fig.axes, rows):
            links = json.loads((SWEEPS["main"] / path).read_text())["stats"]["links"]
            describe = json.loads((SWEEPS["main"] / "platforms" / key / "describe.json").read_text())
            expected = sorted(max(links[l["name"]]["ab_utilization"], links[l["name"]]["ba_utilization"])
                              for l in describe["links"])
            lc, = [c for c in ax.collections if c.get_label() == name]
            self.assertEqual(sorted(lc.get_array().tolist()), expected)
            self.assertEqual(len(lc.get_segments()), len(describe["links"]))
            self.assertGreater(max(expected), 0)

    def test_latency_heat_map(self):
        for key in [k for (k,) in sql("main", "SELECT DISTINCT platform_key FROM runs")
                    if (SWEEPS["main"] / "platforms" / k).is_dir()]:
            fig, _ = topology.latency_matrix(self.sw["main"], [key])
            latency = json.loads((SWEEPS["main"] / "platforms" / key / "latency.json").read_text())
            ax = fig.axes[0]
            expected = [[latency["latency_ns"][r][c] for c in latency["nodes"]] for r in latency["sockets"]]
            self.assertEqual(ax.images[0].get_array().tolist(), expected)
            self.assertEqual([t.get_text() for t in ax.get_yticklabels()], latency["sockets"])
            self.assertEqual([t.get_text() for t in ax.get_xticklabels()], latency["nodes"])
            annotated = [t.get_text() for t in ax.texts]
            self.assertEqual(annotated, [f"{v:.0f}" for row in expected for v in row])

    def check_phase_lines(self, sweep: str, phases_of):
        fig, _ = F.migration_phases(self.sw[sweep])
        rows = sql(sweep, """SELECT name, stats_path FROM runs WHERE status = 'done' AND pages_moved IS NOT NULL
                             ORDER BY rowid""")
        self.assertTrue(rows)
        for ax, key in zip(fig.axes, ("pages_moved", "to_pool")):
            drawn = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in ax.get_lines()}
            expected = {}
            for name, path in rows:
                phases = phases_of(json.loads((SWEEPS[sweep] / path).read_text()))
                expected[name] = ([p["phase"] for p in phases], [p[key] for p in phases])
            self.assertEqual(drawn, expected)

    def test_migration_phases_of_runs(self):
        self.check_phase_lines("main", lambda stats: stats["migration"]["per_phase"])

    def test_migration_phases_of_sampled_windows(self):
        self.check_phase_lines("parts", lambda stats: stats["per_window"])

    def test_skips_say_why(self):
        with self.assertRaisesRegex(F.Skip, "profile"):
            F.sharing_profile(self.sw["main"])
        with self.assertRaisesRegex(F.Skip, "platform"):
            F.speedup(self.part["profile"])
        with self.assertRaisesRegex(F.Skip, "pages_moved"):
            F.pool_migrations(self.part["pool"])

    def test_svg_is_reproducible(self):
        svgs = [report.figure_bytes(F.speedup(self.sw["main"])[0], "svg") for _ in range(2)]
        self.assertEqual(svgs[0], svgs[1])
        self.assertNotIn(b"<dc:date>", svgs[0])


class ResultsModule(Case):
    """tools/report/starnuma_results.py, the notebook API."""

    def test_load(self):
        df = sr.load(SWEEPS["parts"])
        self.assertEqual(list(df["name"]), [n for (n,) in sql("parts", "SELECT name FROM runs ORDER BY rowid")])
        (axes,), = sql("parts", "SELECT value FROM meta WHERE key = 'axes'")
        self.assertEqual(df.attrs["axes"], json.loads(axes))
        params = [json.loads(p) for (p,) in sql("parts", "SELECT params FROM runs ORDER BY rowid")]
        expected = [p.get("set:topology.socket.tracking.impl") for p in params]
        self.assertEqual(list(df["set:topology.socket.tracking.impl"]), expected)
        self.assertIn("model", expected)
        self.assertEqual(list(df["part"]), [p["part"] for p in params])
        self.assertEqual(df["pool_fraction"].dtype.kind, "f")  # an axis that is a column keeps the column
        self.assertIsInstance(df["params"][0], dict)
        self.assertIsInstance(df["sets"][0], dict)
        self.assertEqual(sr.platform_bound_axes(df), ["set:topology.socket.tracking.impl"])

    def test_speedups(self):
        sp = sr.speedups(sr.load(SWEEPS["main"]))
        expected = {(w, pl): s for _, w, pl, s in speedups_by_sql("main")}
        self.assertClose({(r.workload, r.placement): r.speedup for r in sp.itertuples()}, expected)
        for r in sp.itertuples():
            twin = sql("main", "SELECT platform_name, workload, placement FROM runs WHERE name = ?", r.baseline_name)
            self.assertEqual(twin, [("baseline16-scaled", r.workload, r.placement)])

    def test_stats_and_meta(self):
        name, = sql("main", "SELECT name FROM runs WHERE status = 'done' LIMIT 1")[0]
        self.assertIn("links", sr.stats(SWEEPS["main"], name)["stats"])
        self.assertEqual(sr.meta(SWEEPS["main"])["axes"], ["platform", "workload", "placement"])

    def test_database_is_opened_read_only(self):
        con = sr.connect(SWEEPS["main"])
        with self.assertRaises(sqlite3.OperationalError):
            con.execute("UPDATE runs SET status = 'x'")
        con.close()


class Command(Case):
    """report.py as `starnuma report` runs it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="starnuma-report-out-"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def assertNoTempFiles(self, out: Path):
        left = [p for p in out.rglob("*") if p.name.startswith(".") or p.name.endswith(".tmp")]
        self.assertEqual(left, [])

    def test_html_is_self_contained(self):
        out = self.tmp / "html"
        p = run_report(SWEEPS["main"], "--format", "html", "--out", out)
        self.assertEqual((p.returncode, p.stderr), (0, ""))  # no figure failed on the way
        page = (out / "index.html").read_text()
        self.assertEqual(re.findall(r'src="(?!data:image/png;base64,)', page), [])
        self.assertNotIn("http", page)
        self.assertNotIn(".png", page)
        self.assertNotIn("<link", page)
        pngs = sorted(p.stem for p in out.glob("*.png"))
        self.assertEqual(page.count("<img "), len(pngs))
        for fig in ("fig8a-speedup", "fig8b-amat", "axis-placement", "table4-to-pool", "links-sharing",
                    "migration-phases"):
            self.assertIn(fig, pngs)
            self.assertTrue((out / f"{fig}.svg").is_file())
            self.assertTrue((out / "data" / f"{fig}.json").is_file())
        self.assertEqual(len([p for p in pngs if p.startswith("latency-")]), 2)  # two platforms, two matrices
        # the failed run, with its exit code and error, and the figure without runs, with why
        (code, error), = sql("main", "SELECT exit_code, error FROM runs WHERE status = 'failed'")
        self.assertIn(f"starnuma16-scaled-sharing-dynamic (exit code {code}", page)
        self.assertIn(html.escape(error.strip().splitlines()[-1]), page)
        self.assertIn("no done profile run", page)
        self.assertNoTempFiles(out)
        data = json.loads((out / "data" / "fig8a-speedup.json").read_text())
        rows = speedups_by_sql("main", "o.placement = 'oracle'")
        self.assertClose({w: s for w, s in data["starnuma16-scaled"] if w != "geomean"}, {w: s for _, w, _, s in rows})

    def test_markdown_references_existing_pngs(self):
        out = self.tmp / "md"
        p = run_report(SWEEPS["main"], "--format", "md", "--out", out)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        text = (out / "report.md").read_text()
        images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
        self.assertGreaterEqual(len(images), 8)
        for image in images:
            self.assertTrue(image.endswith(".png") and (out / image).is_file(), image)
        self.assertIn("| starnuma16-scaled-sharing-dynamic | run | failed |", text)
        (error,), = sql("main", "SELECT error FROM runs WHERE status = 'failed'")
        self.assertIn(error.strip().splitlines()[-1], text)
        self.assertNoTempFiles(out)

    def test_a_report_made_again_replaces_the_earlier_figures(self):
        out = self.tmp / "again"
        self.assertEqual(run_report(SWEEPS["main"], "--format", "md", "--out", out).returncode, 0)
        stale = [out / "latency-0123456789abcdef.png", out / "latency-0123456789abcdef.svg",
                 out / "data" / "latency-0123456789abcdef.json"]
        for f in stale:
            f.write_text("an earlier report's figure")
        figures = sorted(p.name for p in out.glob("*.png"))
        p = run_report(SWEEPS["main"], "--format", "md", "--out", out)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual([f for f in stale if f.exists()], [])
        self.assertEqual(sorted(p.name for p in out.glob("*.png")), [n for n in figures if "0123456789" not in n])
        self.assertTrue((out / "report.md").is_file())

    def test_png_only_and_default_folder(self):
        work = self.tmp / "parts-copy"
        shutil.copytree(SWEEPS["parts"], work)
        p = run_report(work, "--format", "png")
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        out = work / "report"
        files = [f for f in out.iterdir() if f.is_file()]
        self.assertEqual({f.suffix for f in files}, {".png", ".svg"})
        # a sweep of parts: speedups part by part, the rest over the whole sweep
        for fig in ("fig2-sharing", "fig8a-speedup-pool", "fig8a-speedup-sampled", "fig8b-amat-sampled",
                    "axis-pool_fraction-pool", "table4-to-pool", "migration-phases", "links-sharing"):
            self.assertTrue((out / f"{fig}.png").is_file(), fig)
            self.assertTrue((out / "data" / f"{fig}.json").is_file(), fig)
        self.assertFalse((out / "fig8a-speedup-profile.png").exists())
        # four platform configurations (the sampled part's --set differ), two distinct matrices
        self.assertEqual(len(list(out.glob("latency-*.png"))), 2)
        self.assertNoTempFiles(out)

    def test_folder_without_sweep_db(self):
        empty = self.tmp / "empty"
        empty.mkdir()
        p = run_report(empty)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("no sweep.db", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def in_process(self, folder: Path) -> tuple[int, str]:
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            code = report.main([str(folder), "--out", str(self.tmp / "unused")])
        return code, err.getvalue()

    def broken_copy(self, name: str, statement: str | None) -> Path:
        folder = self.tmp / name
        folder.mkdir()
        shutil.copyfile(SWEEPS["main"] / "sweep.db", folder / "sweep.db")
        if statement:
            con = sqlite3.connect(folder / "sweep.db")
            con.execute(statement)
            con.commit()
            con.close()
        return folder

    def test_user_errors_are_one_line(self):
        garbage = self.tmp / "garbage"
        garbage.mkdir()
        (garbage / "sweep.db").write_bytes(b"not a database at all" * 100)
        cases = {
            "no such folder": self.tmp / "missing",
            "schema version '99' is unknown":
                self.broken_copy("v99", "UPDATE meta SET value = '99' WHERE key = 'schema_version'"),
            "no done runs yet": self.broken_copy("pending", "UPDATE runs SET status = 'pending'"),
            "not a sweep database": garbage,
        }
        for message, folder in cases.items():
            code, err = self.in_process(folder)
            self.assertEqual(code, 1, message)
            self.assertIn(message, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_damaged_sweep_folders_are_one_line_errors(self):
        foreign = self.broken_copy("foreign", "DROP TABLE runs")
        con = sqlite3.connect(foreign / "sweep.db")
        con.execute("CREATE TABLE runs (a, b)")
        con.execute("INSERT INTO runs VALUES (1, 2)")
        con.commit()
        con.close()
        truncated = self.tmp / "truncated"
        shutil.copytree(SWEEPS["main"], truncated)
        latency = sorted(truncated.glob("platforms/*/latency.json"))[0]
        latency.write_text(latency.read_text()[:100])
        for message, folder in {"its runs table is not a sweep's": foreign,
                                "latency.json: not a latency file": truncated}.items():
            code, err = self.in_process(folder)
            self.assertEqual(code, 1, message)
            self.assertIn(message, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_write_atomic_leaves_nothing_behind(self):
        folder = self.tmp / "atomic"
        folder.mkdir()
        target = folder / "f.txt"
        report.write_atomic(target, b"old")
        with self.assertRaises(TypeError):
            report.write_atomic(target, "not bytes")  # fails while writing
        self.assertEqual(target.read_bytes(), b"old")
        self.assertEqual([p.name for p in folder.iterdir()], ["f.txt"])


if __name__ == "__main__":
    unittest.main()
