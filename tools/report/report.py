#!/usr/bin/env python3
"""Figures and tables of a `starnuma sweep` results folder (docs/reports.md).

    python3 tools/report/report.py DIR [--format html|md|png] [--out REPORT_DIR]

Writes into REPORT_DIR (default DIR/report): every figure the sweep has runs for as FIGURE.png and
FIGURE.svg, its plotted values as data/FIGURE.json, and index.html (self-contained) or report.md.
Each file is written to a temporary name and renamed, so a reader never sees half a file.
Exit status 0, or 1 with one line on stderr when DIR cannot be reported on.
"""
from __future__ import annotations

import argparse
import io
import json
import math
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _interpreter  # noqa: E402

_interpreter.ensure()

import figures as F  # noqa: E402
import render  # noqa: E402
import starnuma_results as sr  # noqa: E402
import topology  # noqa: E402
from render import Table  # noqa: E402

MAX_TOPOLOGY_WORKLOADS = 3
MAX_LATENCY_PLATFORMS = 6


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def skipped(reason: str):
    """A draw function for a figure family with no member, so that the report lists why."""
    def draw():
        raise F.Skip(reason)
    return draw


def plan(sw: F.Sweep) -> list[F.Planned]:
    """Every figure the report tries, in report order. Speedups are drawn part by part (a sweep
    without parts is one part); the other figures take the whole sweep."""
    base = sw.baseline or "the baseline"
    items = [F.Planned("fig2-sharing", "Sharing profile (Fig. 2)",
                       "Pages and memory accesses (LLC misses) by the number of sockets sharing the page, per "
                       "workload: pages_by_sharers and accesses_by_sharers of each done profile run's statistics.",
                       lambda: F.sharing_profile(sw))]
    parts = [ps for ps in sw.parts() if ps.part is None or (ps.runs["kind"] != "profile").any()]
    if F.is_paper_sweep(sw):
        items += paper_plan(sw)
        parts = []  # its machines pair at their best limits, not at the same values of every axis
    for ps in parts:
        tag, of = (f"-{slug(ps.part)}", f", part {ps.part}") if ps.part else ("", "")
        items += [
            F.Planned(f"fig8a-speedup{tag}", f"Speedup over the baseline (Fig. 8a){of}",
                      f"ipc of each run over ipc of the {base} run with the same values on the other axes, per "
                      "workload, with the geometric mean." + ps.default_note(), lambda ps=ps: F.speedup(ps)),
            F.Planned(f"fig8b-amat{tag}", f"AMAT: unloaded latency and contention (Fig. 8b){of}",
                      "amat_unloaded_ns (solid) stacked with amat_contention_ns (hatched) = amat_ns, per workload, "
                      f"{base} beside each other platform." + ps.default_note(), lambda ps=ps: F.amat_split(ps)),
        ]
        for axis in [a for a in ps.free if len(ps.values[a]) > 1]:
            items.append(F.Planned(
                f"axis-{slug(axis)}{tag}", f"Speedup by {F.short_axis(axis)} (Figs. 9-12){of}",
                f"As Fig. 8a, one bar series per value of the axis {axis} (ipc over the {base} run with the same "
                "values on every other axis)." + ps.default_note(but=axis),
                lambda ps=ps, axis=axis: F.axis_speedup(ps, axis)))
    if not F.is_paper_sweep(sw) and not any(len(ps.values[a]) > 1 for ps in parts for a in ps.free):
        items.append(F.Planned("axes", "Speedup by axis (Figs. 9-12)", "", skipped(
            "no axis other than platform and workload (and those varying with the platform) varies in this sweep")))
    items.append(F.Planned(
        "table4-to-pool", "Fraction of migrations to the pool (Table IV)",
        "to_pool / pages_moved of each done run that moved pages, per workload and configuration.",
        lambda: F.pool_migrations(sw)))
    workloads = list(dict.fromkeys(r["workload"] for r in sw.done if r["kind"] == "run"))
    for w in workloads[:MAX_TOPOLOGY_WORKLOADS]:
        items.append(F.Planned(
            f"links-{slug(w)}", f"Link utilisation on the topology: {w}",
            "Each link coloured by max(ab_utilization, ba_utilization) of stats.links in one run's stats.json "
            "(one run per platform); nodes and links from the platform's describe.json.",
            lambda w=w: topology.link_utilisation(sw, w)))
    if not workloads:
        items.append(F.Planned("links", "Link utilisation on the topology", "",
                               skipped("no done run of kind run (the only kind whose statistics hold links)")))
    elif len(workloads) > MAX_TOPOLOGY_WORKLOADS:
        items.append(F.Planned("links-more", "Link utilisation, further workloads", "", skipped(
            f"drawn for the first {MAX_TOPOLOGY_WORKLOADS} workloads only; "
            f"not for {', '.join(workloads[MAX_TOPOLOGY_WORKLOADS:])}")))
    groups = topology.latency_groups(sw)
    for keys in groups[:MAX_LATENCY_PLATFORMS]:
        names = ", ".join(dict.fromkeys(sw.runs.loc[sw.runs["platform_key"].isin(keys), "platform_name"]))
        items.append(F.Planned(
            f"latency-{slug(keys[0])}", f"Unloaded latency matrix: {names} ({', '.join(keys)})",
            "latency_ns of platforms/KEY/latency.json: every socket to every memory node (configurations with "
            "the same matrix drawn once).", lambda keys=keys: topology.latency_matrix(sw, keys)))
    if not groups:
        items.append(F.Planned("latency", "Unloaded latency matrix", "",
                               skipped("no platforms/KEY/latency.json for the runs' platform_key")))
    elif len(groups) > MAX_LATENCY_PLATFORMS:
        rest = [k for keys in groups[MAX_LATENCY_PLATFORMS:] for k in keys]
        items.append(F.Planned("latency-more", "Unloaded latency, further platforms", "", skipped(
            f"drawn for the first {MAX_LATENCY_PLATFORMS} matrices only; not for {', '.join(rest)}")))
    items.append(F.Planned(
        "migration-phases", "Migration per phase",
        "pages_moved and to_pool of each phase: per_window of sampled runs, migration.per_phase of runs "
        f"(statistics files; at most {F.MAX_PHASE_RUNS} runs).", lambda: F.migration_phases(sw)))
    return items


def paper_plan(sw: F.Sweep) -> list[F.Planned]:
    """A sweep of experiments/paper.yaml (named paper): the paper's bar figures, each machine at its
    best migration limit as the paper chooses it, instead of the per-part speedups."""
    import paper_data as P
    bars = [F.Planned(f"paper-{name}", title,
                      f"ipc of each machine's best run over its migration limits, over ipc of {P.BASE}'s best, "
                      "per workload (tools/report/paper_data.py), with the geometric mean of the paper's eight "
                      "workloads present.", lambda name=name: F.paper_bars(sw, name))
            for name, (title, _) in P.BARS.items()]
    amat = F.Planned("paper-fig8b", "AMAT of the two machines (Fig. 8b)",
                     "amat_unloaded_ns (solid) stacked with amat_contention_ns (hatched) of each machine's best run "
                     "over its migration limits.", lambda: F.paper_amat(sw))
    return [bars[0], amat, *bars[1:]]


# The paper_data tables a report of a paper.yaml sweep lists, in its order.
PAPER_TABLES = [
    ("fig8", "Fig. 8a-8b: speedup and AMAT, each machine at its best migration limit"),
    ("fig8c", "Fig. 8c: StarNUMA's accesses, block transfers, pool directory and OS core"),
    ("fig9", "Fig. 9: static oracle placement against dynamic migration"),
    ("fig10", "Fig. 10: a 190 ns pool and a CXL switch"),
    ("fig11", "Fig. 11: ISO-BW, a baseline of twice the bandwidth, StarNUMA at half"),
    ("fig12", "Fig. 12: the pool's capacity"),
    ("table4", "Table IV: pages moved to the pool, T16 and T0"),
    ("best_limit", "The migration limit (pages a phase) each machine's numbers use"),
    ("limit", "Speedup at each migration limit over the baseline's best (*: its migrations could not all be "
              "carried out within their phases, so it does not compete)"),
    ("light", "Section V-G: one detailed socket against all sockets detailed"),
    ("fig2", "Fig. 2: pages shared by more than 8 sockets over the sampled span"),
]


def paper_tables(sw: F.Sweep) -> list[Table]:
    """paper_data's Markdown tables as the report's tables, and the runs they lack."""
    import paper_data as P
    R, _ = F.paper_runs(sw)
    v = P.values(sw.dir, R)
    cells = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]
    tables = []
    for key, title in PAPER_TABLES:
        header, _, *rows = v[f"paper.{key}.table"].splitlines()
        tables.append(Table(title, cells(header), [cells(r) for r in rows]))
    missing = list(dict.fromkeys(R.missing))  # every one, where the page counts them past a dozen
    if missing:
        tables.append(Table("Runs the paper's numbers lack (shown as -)", ["run"], [[n] for n in missing]))
    return tables


# ---------------------------------------------------------------------------------------------
# Tables


def fmt(x, spec: str) -> str:
    v = sr.number(x)
    return "" if v is None else format(v, spec)


def shown_value(axis: str, value) -> str:
    if value is None:
        return ""
    return Path(str(value)).stem if axis == "platform" else str(value)


def axis_value(run: dict, axis: str) -> str:
    """A run's value of AXIS as the spec wrote it; for an axis its part of the sweep lacks but the
    schema has as a column (workload, placement, ...), the column's value."""
    value = run["params"].get(axis)
    if value is None:
        column = run.get(axis)  # NULL arrives as None or NaN
        value = column if isinstance(column, str) or sr.number(column) is not None else None
    return shown_value(axis, value)


def overview(sw: F.Sweep) -> Table:
    counts = sw.runs["status"].value_counts()
    status = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("done", "failed", "running", "pending") if counts.get(s, 0))
    rows = [["sweep", sw.meta.get("sweep", "")], ["spec", sw.meta.get("spec", "")],
            ["starnuma version", sw.meta.get("starnuma_version", "")], ["baseline", sw.baseline or ""],
            ["axes", ", ".join(sw.axes)], ["runs", f"{len(sw.runs)}: {status}"]]
    if sw.bound:
        rows.append(["varying with the platform", ", ".join(sw.bound)])
    return Table("Sweep", ["", ""], rows)


def speedup_table(sw: F.Sweep) -> Table | None:
    if not sw.baseline:
        return None
    sp = sr.speedups(sw.runs, sw.baseline)
    if sp.empty:
        return None
    rows = [[r["name"], r["platform_name"], r["workload"], *[shown_value(a, r[a]) for a in sw.free],
             fmt(r["speedup"], ".3f"), fmt(r["amat_ns"], ".1f"), fmt(r["baseline_amat_ns"], ".1f"),
             fmt(100 * r["amat_reduction"] if sr.number(r["amat_reduction"]) is not None else None, ".1f")]
            for r in sp.to_dict("records")]
    return Table(f"Speedups over {sw.baseline}",
                 ["run", "platform", "workload", *sw.free, "speedup", "AMAT (ns)", "baseline AMAT (ns)",
                  "AMAT reduction (%)"], rows)


def migration_table(sw: F.Sweep) -> Table | None:
    rows = [[r["workload"], r["config"], r["name"], str(int(r["pages_moved"])), fmt(r["to_pool"], ".0f"),
             fmt(100 * (sr.number(r["to_pool"]) or 0) / r["pages_moved"], ".1f")] for r in F.migrating_runs(sw)]
    columns = ["workload", "configuration", "run", "pages moved", "to the pool", "to the pool (%)"]
    return Table("Migrations to the pool (Table IV)", columns, rows) if rows else None


def runs_table(sw: F.Sweep) -> Table:
    rows = [[r["name"], r["kind"], r["status"], *[axis_value(r, a) for a in sw.axes],
             fmt(r["ipc"], ".4g"), fmt(r["amat_ns"], ".1f"), fmt(r["host_seconds"], ".2f")]
            for r in sw.runs.to_dict("records")]
    return Table("Runs", ["run", "kind", "status", *sw.axes, "IPC", "AMAT (ns)", "host (s)"], rows)


def failures(sw: F.Sweep) -> list[tuple[str, str]]:
    """(heading, last lines of stderr) of each failed run."""
    out = []
    for r in sw.runs.to_dict("records"):
        if r["status"] == "failed":
            code = "" if sr.number(r["exit_code"]) is None else f"exit code {int(r['exit_code'])}, "
            tail = "\n".join((r["error"] or "(no error output recorded)").strip().splitlines()[-12:])
            out.append((f"{r['name']} ({code}{int(r['attempts'])} attempt{'s' if r['attempts'] != 1 else ''})", tail))
    return out


# ---------------------------------------------------------------------------------------------
# Output


def write_atomic(path: Path, data: bytes) -> None:
    """Write PATH whole or not at all: a temporary file beside it, renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the report from other users
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def figure_bytes(fig, fmt: str) -> bytes:
    buf = io.BytesIO()
    # No date or software version in the files, so that the same sweep gives the same bytes.
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    fig.savefig(buf, format=fmt, dpi=110, metadata=metadata)
    return buf.getvalue()


def finite(value):
    """DATA with NaN and infinities as null: JSON has no such numbers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def data_json(data: dict) -> str:
    """A figure's data as JSON, one series a line."""
    lines = [f" {json.dumps(k)}: {json.dumps(finite(v))}" for k, v in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def remove_stale_figures(out: Path, drawn: set) -> None:
    """A figure an earlier report drew here and this one does not (another platform's latency
    matrix, a part gone from the sweep) would stay beside the new report as if it were part of it."""
    for f in [*out.glob("*.png"), *out.glob("*.svg"), *(out / "data").glob("*.json")]:
        if f.stem not in drawn:
            f.unlink()


def make_report(dir: Path, fmt: str, out: Path) -> Path:
    sw = F.Sweep(dir)
    if not sw.done:
        counts = sw.runs["status"].value_counts().to_dict()
        detail = ", ".join(f"{n} {s}" for s, n in counts.items()) or "no runs recorded"
        raise sr.SweepError(f"{dir}: no done runs yet ({detail})")
    earlier = (out / "data").is_dir()  # a report made here before: its figures are replaced
    try:
        (out / "data").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise sr.SweepError(f"{out}: cannot create the report folder ({e.strerror})") from None
    shown, skips = [], []
    for item in plan(sw):
        try:
            fig, data = item.draw()
        except F.Skip as e:
            skips.append([item.title, str(e)])
            continue
        except Exception as e:  # one unreadable statistics file must not cost the whole report
            print(f"starnuma report: {item.id}: {type(e).__name__}: {e}", file=sys.stderr)
            skips.append([item.title, f"failed: {type(e).__name__}: {e}"])
            continue
        png = figure_bytes(fig, "png")
        fig.set_layout_engine("none")  # laid out once for the PNG; the SVG keeps that layout
        write_atomic(out / f"{item.id}.png", png)
        write_atomic(out / f"{item.id}.svg", figure_bytes(fig, "svg"))
        write_atomic(out / "data" / f"{item.id}.json", data_json(data).encode())
        shown.append((item, png))
    if earlier:
        remove_stale_figures(out, {item.id for item, _ in shown})
    generic = (migration_table(sw), runs_table(sw)) if F.is_paper_sweep(sw) else \
        (speedup_table(sw), migration_table(sw), runs_table(sw))
    tables = [*(paper_tables(sw) if F.is_paper_sweep(sw) else []), *(t for t in generic if t is not None)]
    doc = render.Document(title=f"Sweep {sw.meta.get('sweep', dir.name)}", overview=overview(sw), figures=shown,
                          tables=tables, failures=failures(sw),
                          skipped=Table("Figures not drawn", ["figure", "why"], skips))
    if fmt == "html":
        write_atomic(out / "index.html", render.html(doc).encode())
        return out / "index.html"
    if fmt == "md":
        write_atomic(out / "report.md", render.markdown(doc).encode())
        return out / "report.md"
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="starnuma report", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path, help="the folder `starnuma sweep --out` wrote")
    parser.add_argument("--format", choices=("html", "md", "png"), default="html",
                        help="index.html (self-contained), report.md, or the figures only (default html)")
    parser.add_argument("--out", type=Path, help="folder for the report (default DIR/report)")
    args = parser.parse_args(argv)
    try:
        written = make_report(args.dir, args.format, args.out or args.dir / "report")
    except sr.SweepError as e:
        print(f"starnuma report: {e}", file=sys.stderr)
        return 1
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
