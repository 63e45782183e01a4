"""Read the results of `starnuma sweep` (a folder with sweep.db, runs/ and platforms/; docs/reports.md).

    import sys; sys.path.insert(0, "tools/report")
    import starnuma_results as sr
    df = sr.load("sweep-out")                 # one row per run, one column per axis
    sp = sr.speedups(df)                      # each run beside its baseline-platform twin
    sp.groupby("workload").speedup.max()
    sr.stats("sweep-out", df.name[0])["stats"]["links"]

The database is opened read-only (an SQLite `mode=ro` URI), so reading is safe while a sweep is
still writing it.
"""
from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

import pandas as pd

SCHEMA_VERSION = "1"
# The columns every reader here relies on (docs/reports.md has the whole schema).
RUN_COLUMNS = ("name", "kind", "platform_name", "platform_key", "workload", "params", "sets", "status", "ipc",
               "amat_ns", "stats_path")


class SweepError(Exception):
    """A results folder that cannot be read: no folder, no sweep.db, not a sweep database, or a
    schema version this reader does not know. The message is one line for the user."""


def connect(dir: str | Path) -> sqlite3.Connection:
    """A read-only connection to DIR/sweep.db, after checking its schema version."""
    folder = Path(dir)
    if not folder.is_dir():
        raise SweepError(f"{folder}: no such folder")
    db = folder / "sweep.db"
    if not db.is_file():
        raise SweepError(f"{folder}: no sweep.db here (not the output folder of `starnuma sweep`)")
    # A writer may hold the database; wait for it rather than fail at once.
    con = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    except sqlite3.DatabaseError as e:
        con.close()
        raise SweepError(f"{db}: not a sweep database ({e})") from None
    version = rows[0][0] if rows else None
    if version != SCHEMA_VERSION:
        con.close()
        raise SweepError(f"{db}: schema version {version!r} is unknown to this reader "
                         f"(it reads version {SCHEMA_VERSION})")
    return con


def meta(dir: str | Path) -> dict:
    """The meta table as a dict: schema_version, sweep, spec, starnuma_version, baseline (strings)
    and axes (parsed: the list of varying axis names in spec order)."""
    con = connect(dir)
    try:
        m = dict(con.execute("SELECT key, value FROM meta").fetchall())
    finally:
        con.close()
    m["axes"] = _json(m.get("axes"), [])
    return m


def load(dir: str | Path) -> pd.DataFrame:
    """The runs table, in the order the sweep recorded the runs.

    Columns are those of the schema (docs/reports.md), with `params` and `sets` parsed into dicts, plus
    one column per axis named by the axis (e.g. "set:topology.cxl.latency", "part") holding the run's
    value as the spec wrote it, None for a run whose part of the sweep lacks the axis. An axis that
    is also a schema column (platform, workload, placement, pool_fraction, seed, instructions, warmup,
    kind) keeps the schema column and its type; its text as written stays in `params`. `df.attrs`
    holds "meta" (see meta()), "axes", "baseline" and "dir".
    """
    m = meta(dir)
    con = connect(dir)
    try:
        df = pd.read_sql_query("SELECT * FROM runs ORDER BY rowid", con)
    except (pd.errors.DatabaseError, sqlite3.DatabaseError) as e:
        raise SweepError(f"{Path(dir) / 'sweep.db'}: its runs table cannot be read ({e})") from None
    finally:
        con.close()
    missing = [c for c in RUN_COLUMNS if c not in df.columns]
    if missing:
        raise SweepError(f"{Path(dir) / 'sweep.db'}: its runs table is not a sweep's (no column {', '.join(missing)})")
    df["params"] = [_json(p, {}) for p in df["params"]]
    df["sets"] = [_json(s, {}) for s in df["sets"]]
    # Without the meta key, the axes are those the runs' params name.
    axes = m["axes"] or list(dict.fromkeys(k for p in df["params"] for k in p))
    for axis in axes:
        if axis not in df.columns:
            df[axis] = [p.get(axis) for p in df["params"]]
    df.attrs.update(meta=m, axes=axes, baseline=m.get("baseline"), dir=str(dir))
    return df


def stats(dir: str | Path, name: str) -> dict:
    """The full statistics of run NAME: its stats_path (relative to DIR), else runs/NAME/stats.json.
    Kind run: the `--out` stats.json (summary keys plus a "stats" tree); kind sampled: sampled.json
    (with "per_window"); kind profile: the summary. Raises FileNotFoundError when absent."""
    con = connect(dir)
    try:
        row = con.execute("SELECT stats_path FROM runs WHERE name = ?", (name,)).fetchone()
    finally:
        con.close()
    if row is None:
        raise KeyError(f"no run named {name!r} in {dir}")
    path = Path(dir) / (row[0] or f"runs/{name}/stats.json")
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise SweepError(f"{path}: not a statistics file ({e})") from None


def platform(dir: str | Path, key: str) -> dict:
    """{"latency": ..., "describe": ...} of platforms/KEY (either is None when its file is absent)."""
    out = {}
    for what in ("latency", "describe"):
        path = Path(dir) / "platforms" / key / f"{what}.json"
        try:
            out[what] = json.loads(path.read_text()) if path.is_file() else None
        except ValueError as e:
            raise SweepError(f"{path}: not a {what} file of `starnuma sweep` ({e})") from None
    return out


def axes(df: pd.DataFrame) -> list[str]:
    """The sweep's axes: df.attrs["axes"] (set by load()), else every key of the runs' params, in
    first-seen order."""
    if df.attrs.get("axes"):
        return list(df.attrs["axes"])
    return list(dict.fromkeys(k for p in df["params"] for k in p))


def platform_bound_axes(df: pd.DataFrame) -> list[str]:
    """Axes that vary together with the platform (a zipped group in the spec, e.g. a --set that only
    the StarNUMA runs get): within each part of the sweep, among the runs that have the axis, each
    platform has exactly one value of it and each value one platform. Pairing a run with its
    baseline must ignore these, or no pair would ever match."""
    by_part: dict = {}
    for p in df["params"]:
        if "platform" in p:
            by_part.setdefault(text(p.get("part")), []).append(p)
    bound = []
    for axis in axes(df):
        if axis in ("platform", "workload", "part"):
            continue
        verdicts = []
        for runs in by_part.values():
            pairs = {(text(p["platform"]), text(p[axis])) for p in runs if axis in p}
            if pairs:
                verdicts.append(len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs}))
        if verdicts and all(verdicts):
            bound.append(axis)
    return bound


def match_axes(df: pd.DataFrame) -> list[str]:
    """The axes on which a run and its baseline twin agree: all but the platform and those bound to
    it. A run lacking an axis (another part of the sweep has it) matches only runs lacking it too."""
    bound = set(platform_bound_axes(df))
    return [a for a in axes(df) if a != "platform" and a not in bound]


def speedups(df: pd.DataFrame, baseline: str | None = None) -> pd.DataFrame:
    """Each done run on a platform other than BASELINE (a platform_name; default the sweep's baseline)
    beside the done baseline-platform run with the same value on every other axis (match_axes()).

    One row per such pair: name, baseline_name, platform_name, workload, kind, the matched axes'
    values (as written), ipc, baseline_ipc, speedup (ipc / baseline_ipc), amat_ns, baseline_amat_ns,
    amat_reduction (1 - amat_ns / baseline_amat_ns). Runs without a twin are left out.
    """
    baseline = baseline or df.attrs.get("baseline")
    if not baseline:
        raise ValueError("no baseline: pass baseline= (a platform_name) or a frame from load()")
    match = match_axes(df)
    extra = [a for a in match if a not in ("workload", "kind")]  # axes that are not columns here already
    done = [r for r in df.to_dict("records") if r["status"] == "done" and r["kind"] != "profile" and number(r["ipc"])]
    # the workload column too: a part may fix the workload rather than vary it
    key = lambda r: (r["workload"], *(text(r["params"].get(a)) for a in match))
    twins: dict = {}
    for r in done:
        if r["platform_name"] == baseline:
            twins.setdefault(key(r), r)
    rows = []
    for r in done:
        b = twins.get(key(r))
        if r["platform_name"] == baseline or b is None:
            continue
        amat, base_amat = number(r["amat_ns"]), number(b["amat_ns"])
        rows.append({
            "name": r["name"], "baseline_name": b["name"], "platform_name": r["platform_name"],
            "workload": r["workload"], "kind": r["kind"],
            **{a: r["params"].get(a) for a in extra},
            "ipc": r["ipc"], "baseline_ipc": b["ipc"], "speedup": r["ipc"] / b["ipc"],
            "amat_ns": amat, "baseline_amat_ns": base_amat,
            "amat_reduction": 1 - amat / base_amat if amat is not None and base_amat else None,
        })
    columns = ["name", "baseline_name", "platform_name", "workload", "kind", *extra,
               "ipc", "baseline_ipc", "speedup", "amat_ns", "baseline_amat_ns", "amat_reduction"]
    return pd.DataFrame(rows, columns=columns)


def _json(raw, default):
    """RAW parsed as JSON when it is of DEFAULT's type, else DEFAULT."""
    if raw is None:
        return default
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return default
    return value if isinstance(value, type(default)) else default


def text(value) -> str | None:
    """An axis value as text, so that 0.2 and "0.2" compare equal."""
    return None if value is None else str(value)


def number(value) -> float | None:
    """A finite number or None (SQL NULL arrives as None or NaN)."""
    if value is None:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None
