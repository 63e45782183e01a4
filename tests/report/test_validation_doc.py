"""Tests of docs/validation.md's generation (tools/report/validation_doc.py, validation_data.py).

    python3 tests/report/test_validation_doc.py      ($STARNUMA: the binary, default build/starnuma)
"""
import contextlib
import io
import json
import os
import shutil
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

import validation_data  # noqa: E402
import validation_doc as doc  # noqa: E402

STARNUMA = os.environ.get("STARNUMA", str(ROOT / "build" / "starnuma"))


class TheSweepAndTheDataAgree(unittest.TestCase):
    def test_every_run_the_page_reads_is_a_run_of_the_sweep_and_every_run_is_read(self):
        with tempfile.TemporaryDirectory() as out:
            listing = subprocess.run([STARNUMA, "sweep", str(ROOT / "experiments" / "validation.yaml"), "--out",
                                      out + "/v", "--dry-run"], capture_output=True, text=True, check=True).stdout
        runs = {line.split()[0] for line in listing.splitlines()[1:] if line.strip()}
        self.assertEqual(set(validation_data.run_names()), runs)

    def test_the_sampled_part_alone_is_every_run_its_values_read(self):
        # `sweep --only 'sampled-*'` runs the part again alone; validation_doc.py --sampled reads it.
        with tempfile.TemporaryDirectory() as out:
            listing = subprocess.run([STARNUMA, "sweep", str(ROOT / "experiments" / "validation.yaml"), "--out",
                                      out + "/s", "--dry-run", "--only", "sampled-*"], capture_output=True, text=True,
                                     check=True).stdout
            runs = {line.split()[0] for line in listing.splitlines()[1:] if line.strip()}
            self.assertEqual({n for n in validation_data.run_names() if n.startswith("sampled-")}, runs)
            self.assertEqual(len(runs), 6)
            none = subprocess.run([STARNUMA, "sweep", str(ROOT / "experiments" / "validation.yaml"), "--out",
                                   out + "/n", "--dry-run", "--only", "nothing-*"], capture_output=True, text=True)
            self.assertNotEqual(none.returncode, 0)
            self.assertIn("--only nothing-*: no run of", none.stderr)

    def test_every_lacx_case_the_page_reads_is_a_run_of_its_sweep(self):
        import lacx_tables
        with tempfile.TemporaryDirectory() as out:
            listing = subprocess.run([STARNUMA, "sweep", str(ROOT / "experiments" / "lacx.yaml"), "--out",
                                      out + "/l", "--dry-run"], capture_output=True, text=True, check=True).stdout
        runs = {line.split()[0] for line in listing.splitlines()[1:] if line.strip()}
        read = {f"{case}-{kernel}" for case, _, _ in lacx_tables.CASES for kernel in ("autonuma", "lacx")}
        self.assertEqual(read, runs)

    def test_a_folder_without_a_companion_sweep_is_an_error_naming_it(self):
        with tempfile.TemporaryDirectory() as out:
            with self.assertRaises(SystemExit) as e:
                validation_data.companion_values(out)
        self.assertIn("multichip: no sweep of experiments/multichip.yaml", str(e.exception))

    def test_the_paper_section_of_a_folder_without_its_sweep_is_an_error_naming_it(self):
        with tempfile.TemporaryDirectory() as out:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(doc.main(["--paper", out + "/none"]), 1)
        self.assertIn(f"error: {out}/none: no such folder", err.getvalue())

    def test_the_committed_paper_results_are_the_pages(self):
        # The page's paper.* values are what the committed results give (experiments/results/README.md).
        import paper_data
        values = json.loads(doc.DATA.read_text())
        fresh = paper_data.values(validation_data.PAPER_RESULTS)
        self.assertEqual({k: v for k, v in values.items() if k.startswith("paper.")}, fresh)

    def test_a_run_name_is_written_as_the_sweep_writes_it(self):
        self.assertEqual(validation_data.folder("bfs:scale=18,trials=100"), "bfs-scale18-trials100")
        self.assertEqual(validation_data.folder("fmi@socket0"), "fmi_socket0")
        self.assertEqual(validation_data.folder("cc:scale=20,algorithm=sv"), "cc-scale20-algorithmsv")

    def test_numbers_are_printed_in_the_page_style(self):
        self.assertEqual(validation_data.grouped(1184), "1 184")
        self.assertEqual(validation_data.grouped_ns(1022.59, 1), "1 022.6 ns")
        self.assertEqual(validation_data.pct(0.125, 1), "12.5 %")
        self.assertEqual(validation_data.times(1.1666), "1.17x")


class Render(unittest.TestCase):
    def test_every_placeholder_is_replaced(self):
        self.assertEqual(doc.render("a {{x.y}} b {{z-1}}\n", {"x.y": "1.17x", "z-1": "2"}), "a 1.17x b 2\n")

    def test_an_unknown_name_is_an_error_naming_its_line(self):
        with self.assertRaises(doc.TemplateError) as e:
            doc.render("fine\n{{known}} and {{unknown}}\n", {"known": "1"}, "t.md.in")
        self.assertIn("t.md.in:2: no value 'unknown'", str(e.exception))

    def test_a_malformed_placeholder_is_an_error_naming_its_line(self):
        with self.assertRaises(doc.TemplateError) as e:
            doc.render("fine\nspeedup {{a b}}\n", {"a b": "1"}, "t.md.in")
        self.assertIn("t.md.in:2:", str(e.exception))

    def test_a_policy_name_with_a_plus_is_a_name(self):
        self.assertEqual(doc.render("{{mix1.UA+DM.moved}}", {"mix1.UA+DM.moved": "759"}), "759")

    def test_readme_changes_only_between_its_markers(self):
        readme = f"before\n{doc.BEGIN}\n```\nold\n```\n{doc.END}\nafter\n"
        got = doc.readme_with(readme, {"readme.main_job": "line 1\nline 2"})
        self.assertEqual(got, f"before\n{doc.BEGIN}\n```\nline 1\nline 2\n```\n{doc.END}\nafter\n")

    def test_a_readme_without_markers_is_an_error(self):
        with self.assertRaises(doc.TemplateError):
            doc.readme_with("no markers\n", {"readme.main_job": "x"})


class Check(unittest.TestCase):
    """--check on a copy of the page, its template, its data and README."""

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.saved = {k: getattr(doc, k) for k in ("TEMPLATE", "PAGE", "DATA", "README", "ROOT")}
        for k in ("TEMPLATE", "PAGE", "DATA", "README"):
            path = self.dir / self.saved[k].relative_to(self.saved["ROOT"])
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(self.saved[k], path)
            setattr(doc, k, path)
        doc.ROOT = self.dir

    def tearDown(self):
        for k, v in self.saved.items():
            setattr(doc, k, v)
        shutil.rmtree(self.dir)

    def check(self):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            return doc.check(), out.getvalue()

    def test_the_committed_page_and_readme_are_what_the_data_gives(self):
        status, out = self.check()
        self.assertEqual(status, 0, out)

    def test_every_table_row_has_its_headers_cells(self):
        # A row built from a string instead of a list came out a cell per character (the sampled
        # study's table, 2026-11-29).
        table = []
        for number, line in enumerate(doc.PAGE.read_text().splitlines() + [""], 1):
            if line.startswith("|"):
                table.append((number, line.strip().strip("|").split("|")))
                continue
            for row_number, cells in table[1:]:
                self.assertEqual(len(cells), len(table[0][1]), f"docs/validation.md:{row_number}: {len(cells)} cells "
                                 f"under a header of {len(table[0][1])}")
            table = []

    def test_a_number_edited_by_hand_is_caught(self):
        values = json.loads(doc.DATA.read_text())
        shown = values["sampled.geomean"]
        page = doc.PAGE.read_text()
        self.assertIn(shown, page)
        doc.PAGE.write_text(page.replace(shown, "9.99x", 1))
        status, out = self.check()
        self.assertEqual(status, 1)
        self.assertIn("9.99x", out)

    def test_a_changed_value_in_readme_is_caught(self):
        readme = doc.README.read_text()
        doc.README.write_text(readme.replace("speedup ", "speedup 1", 1))
        self.assertEqual(self.check()[0], 1)


if __name__ == "__main__":
    unittest.main()
