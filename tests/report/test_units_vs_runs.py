"""Tests of experiments/units_vs_runs.py on a made-up study whose figures are known by hand: two units
every 100 K measuring 20 K after 10 K of warm-up, and one continuous run.

    python3 tests/report/test_units_vs_runs.py
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
import units_vs_runs  # noqa: E402


def window(ipc: float, misses: int, walks: int, walk_ns: float, amat: float) -> dict:
    return {"instructions": 1000, "ipc": ipc, "llc_misses": misses, "memory_accesses": {"local": 10},
            "amat_ns": amat, "amat_unloaded_ns": 80.0, "page_walks": {"walks": walks, "mean_ns": walk_ns}}


def study(root: Path, ipcs=(0.5, 0.25)) -> Path:
    case = root / "poa-starnuma16-scaled"
    (case / "windows").mkdir(parents=True)
    stats = [{"checkpoint_phase": 1, "instructions": 40, "ipc": 1.0}]  # a boundary's: not in the estimate
    stats += [{"checkpoint_phase": 1, "checkpoint_unit": 1, **window(ipcs[0], 30, 1, 100.0, 400.0)},
              {"checkpoint_phase": 1, "checkpoint_unit": 2, **window(ipcs[1], 10, 3, 60.0, 200.0)}]
    for k, w in enumerate(stats):
        (case / "windows" / f"window-{k + 1}").mkdir()
        (case / "windows" / f"window-{k + 1}" / "stats.json").write_text(json.dumps(w))
    (case / "manifest.json").write_text(json.dumps({"unit_every": 100_000, "units": [
        {"phase": 1, "unit": u, "clock_instructions": 1_000_000 + u * 100_000 - 10_000} for u in (1, 2)]}))
    (case / "sampled.json").write_text(json.dumps({"windows": 2, "warmup_per_window": 10_000}))
    run = window(0.4, 25, 2, 50.0, 250.0)
    run["instructions"] = 2000
    run["memory_accesses"] = {"local": 20}
    (case / "continuous-d0-own.json").write_text(json.dumps(run))
    (case / "done").touch()
    return root


def output(*args, **options) -> str:
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert units_vs_runs.main(*args, **options) == 0
    return text.getvalue()


def tree(cycles: int, writes: int, putm: int, read_ns: float, walks: int = 2, walk_ns: int = 50) -> dict:
    """A stats.json tree: one core of 1 000 instructions, its socket's memory and the homes' counts."""
    core = {"instructions": 1000, "cycles": cycles, "l2_hits": 2, "llc_hits": 3, "llc_misses": 40, "writebacks": putm,
            "stlb_misses": walks, "walk_latency_ps": walks * walk_ns * 1000}
    memory = {"reads": 40, "writes": writes, "read_latency": {"count": 40, "mean": read_ns}}
    return {"nodes": {"socket0": {"core0": core, "memory": memory}},
            "coherence": {"socket_home_getm": 40, "socket_home_putm": putm, "socket_home_pute": 1}}


def stats_files(folder: Path, run: dict, window: dict) -> list[str]:
    """A run's and a window's stats.json written into `folder`: `--counters RUN WINDOW`'s paths."""
    paths = [folder / "run.json", folder / "window.json"]
    for path, whole in zip(paths, (run, window)):
        path.write_text(json.dumps(whole))
    return [str(path) for path in paths]


def units_with_counters(case: Path):
    """The two units' windows given stats.json trees: 900 and 1 100 cycles, 1 and 3 writes and PutMs,
    reads waiting 100 and 80 ns, 1 walk of 20 ns and 3 of 40 ns."""
    for k, t in ((2, tree(900, 1, 1, 100.0, 1, 20)), (3, tree(1100, 3, 3, 80.0, 3, 40))):
        w = json.loads((case / "windows" / f"window-{k}" / "stats.json").read_text())
        (case / "windows" / f"window-{k}" / "stats.json").write_text(json.dumps({**w, "stats": t}))


class UnitsVsRuns(unittest.TestCase):
    def test_per_instruction_against_the_runs(self):
        with tempfile.TemporaryDirectory() as d:
            out = output(str(study(Path(d))), [])
        # Units: 40 misses and 4 walks over 2 000 instructions, walks (100 + 3 x 60) / 4 = 70 ns, AMAT
        # (400 + 200) / 2; the run: 25 and 2 over 2 000, 50 ns, 250.
        self.assertIn("| poa-starnuma16-scaled (units / runs) | 20.00 / 12.50 | 2.00 / 1.00 | 70.0 / 50.0 "
                      "| 300.0 / 250.0 | 80.0 / 80.0 |", out)

    def test_the_same_stretches_in_two_studies(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            out = output(str(study(Path(a))), [], "continuous", str(study(Path(b), ipcs=(0.55, 0.2))))
        # +10 % and -20 %: a mean of -5 %.
        self.assertIn("| poa-starnuma16-scaled | 2 | -20.0 % | +10.0 % | -5.00 % |", out)

    def test_counters_against_a_run(self):
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            case = root / "poa-starnuma16-scaled"
            units_with_counters(case)
            run = Path(d) / "run.json"
            run.write_text(json.dumps({"stats": tree(1000, 4, 4, 100.0)}))
            out = output(str(root), [], "continuous", None, [str(run)])
        # Units: 2 000 cycles, 4 writes and PutMs over 2 000 instructions, reads waiting (40 x 100 +
        # 40 x 80) / 80 = 90 ns; the run: 1 000 cycles, 4 writes over 1 000, 100 ns.
        self.assertIn("| cycles | 1000.000 | 1000.000 | 1.000 |", out)
        self.assertIn("| memory_writes | 2.000 | 4.000 | 0.500 |", out)
        self.assertIn("| socket_home_putm | 2.000 | 4.000 | 0.500 |", out)
        self.assertIn("| socket_home_pute | 1.000 | 1.000 | 1.000 |", out)
        self.assertIn("| read_ns | 90.000 | 100.000 | 0.900 |", out)
        # Walks: (20 + 3 x 40) / 4 = 35 ns against the run's 50.
        self.assertIn("| stlb_misses | 2.000 | 2.000 | 1.000 |", out)
        self.assertIn("| walk_ns | 35.000 | 50.000 | 0.700 |", out)

    def test_every_case_against_its_kept_run(self):
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            case = root / "poa-starnuma16-scaled"
            units_with_counters(case)
            run = tree(1000, 4, 4, 100.0)
            run["nodes"]["socket0"]["core0"]["l2_hits"] = 8
            (case / "counters").mkdir()
            (case / "counters" / "stats.json").write_text(json.dumps({"stats": run}))
            out = output(str(root), [], "continuous", None, None, True)
        # Units: 2 000 cycles, 4 L2 hits, 6 LLC hits, 80 misses, 4 walks of 35 ns over 2 000
        # instructions; the run 1 000, 8, 3, 40 and 2 walks of 50 ns over 1 000.
        self.assertIn("| poa-starnuma16-scaled | 1000.00 / 1000.00 (1.00) | 2.00 / 8.00 (0.25) | 3.00 / 3.00 (1.00) "
                      "| 40.00 / 40.00 (1.00) | 2.00 / 2.00 (1.00) | 35.00 / 50.00 (0.70) |\n", out)

    def test_one_unit_and_the_walks_levels_and_trackers(self):
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            case = root / "poa-starnuma16-scaled"
            units_with_counters(case)
            unit = json.loads((case / "windows" / "window-3" / "stats.json").read_text())
            unit["stats"]["nodes"]["socket0"]["core0"].update(walk_l2_hits=1, walk_llc_misses=2,
                                                               walk_miss_latency_ps=600_000)
            unit["stats"]["nodes"]["socket0"]["tracking"] = {"flushes": 5, "tracker_writes": 3}
            (case / "windows" / "window-3" / "stats.json").write_text(json.dumps(unit))
            run = tree(1000, 4, 4, 100.0)
            run["nodes"]["socket0"]["core0"].update(walk_l2_hits=4)
            run["nodes"]["socket0"]["tracking"] = {"flushes": 10, "tracker_writes": 3}
            (Path(d) / "run.json").write_text(json.dumps({"stats": run}))
            out = output(str(root), [], run_stats=[str(Path(d) / "run.json")], unit="1.2")
            with self.assertRaises(SystemExit) as e:
                units_vs_runs.main(str(root), [], run_stats=[str(Path(d) / "run.json")], unit="1.3")
        # Unit 1.2 alone: 1 100 cycles, 3 walks of 40 ns, 1 walk read from its L2 and 2 from memory,
        # 5 flushes and 3 tracker writes, all over its 1 000 instructions.
        self.assertIn("| cycles | 1100.000 | 1000.000 | 1.100 |", out)
        self.assertIn("| walk_ns | 40.000 | 50.000 | 0.800 |", out)
        self.assertIn("| walk_l2_hits | 1.000 | 4.000 | 0.250 |", out)
        self.assertIn("| walk_llc_misses | 2.000 | 0.000 | nan |", out)
        self.assertIn("| walk_miss_ns | 300.000 | 0.000 | nan |", out)
        self.assertIn("| tracking_flushes | 5.000 | 10.000 | 0.500 |", out)
        self.assertIn("| tracking_tracker_writes | 3.000 | 3.000 | 1.000 |", out)
        self.assertIn("no window of unit 1.3", str(e.exception))

    def test_per_socket_with_a_window_run_by_hand(self):
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            run, window = tree(1000, 4, 4, 100.0), tree(900, 1, 1, 100.0)
            for t, writebacks in ((run, 6), (window, 2)):
                # socket10 sorts after socket2 by number, not by name.
                for n, socket in enumerate(("socket2", "socket10")):
                    t["nodes"][socket] = {"core0": {"instructions": 2000, "cycles": 1, "writebacks": writebacks * (n + 1)}}
            paths = stats_files(Path(d), {"stats": run}, {"stats": window})
            out = output(str(root), [], run_stats=paths, socket_counter="writebacks")
        # Per 1 000 of each socket's instructions: socket0 1 and 4, socket2 1 and 3, socket10 2 and 6.
        self.assertIn("| socket0 | 1.000 | 4.000 | 0.250 |\n| socket2 | 1.000 | 3.000 | 0.333 |\n"
                      "| socket10 | 2.000 | 6.000 | 0.333 |\n", out)

    def test_the_links_where_the_run_waits_longest(self):
        def link(messages, utilisation, wait, data=0):  # `data` of the messages memory data, the rest snoops
            return {"ab_messages": messages, "ab_utilization": utilisation, "ab_mean_wait": wait,
                    "ba_messages": 0, "ba_utilization": 0.0, "ba_mean_wait": 0.0,
                    "coherent_memory_data_ab": data, "coherent_snoops_ab": messages - data}
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            run = {"sim_time_ns": 2000.0, "stats": {"links": {"upi_socket0_flex0": link(100, 0.9, 1000.0, 88),
                                                              "upi_socket0_socket1": link(40, 0.2, 30.0)}}}
            window = {"sim_time_ns": 1000.0, "stats": {"links": {"upi_socket0_flex0": link(50, 0.8, 400.0, 48),
                                                                 "upi_socket0_socket1": link(10, 0.1, 50.0)}}}
            out = output(str(root), [], run_stats=stats_files(Path(d), run, window), busiest=2)
        # Per us: 100 messages over 2 us against 50 over 1; the longest wait first, then the next; a
        # direction without messages waits 0. The kinds as shares of each side's messages, those
        # under 5 % on both sides left out (the window's snoops on the first link: 4 %, the run's 12 %).
        self.assertIn("| upi_socket0_flex0 ab | 50.0 / 50.0 | 0.800 / 0.900 | 400.0 / 1000.0 | "
                      "snoops 4 / 12, memory data 96 / 88 |\n"
                      "| upi_socket0_socket1 ab | 10.0 / 20.0 | 0.100 / 0.200 | 50.0 / 30.0 | snoops 100 / 100 |\n",
                      out)

    def test_each_window_in_the_order_it_measures(self):
        with tempfile.TemporaryDirectory() as d:
            root = study(Path(d))
            units_with_counters(root / "poa-starnuma16-scaled")
            out = output(str(root), [], windows=True)
        # Unit 1.1 measures from 1 000 000 + 100 000 - 10 000 + 10 000 of warm-up; 40 misses, 1 writeback
        # and 1 walk of 20 ns over its 1 000 instructions.
        self.assertIn("| poa-starnuma16-scaled | 1.1 | 1100000 | 0.5000 | 40.00 | 1.00 | 1.00 | 20.00 | 0.00 |\n"
                      "| poa-starnuma16-scaled | 1.2 | 1200000 | 0.2500 | 40.00 | 3.00 | 3.00 | 40.00 | 0.00 |\n", out)

    def test_no_kept_run_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                units_vs_runs.main(str(study(Path(d))), [], "continuous", None, None, True)
        self.assertIn("CASE/counters/stats.json", str(e.exception))


if __name__ == "__main__":
    unittest.main()
