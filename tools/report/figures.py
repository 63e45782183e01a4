"""The figures of `starnuma report` (docs/reports.md), drawn from a sweep's results folder.

Every figure function takes a Sweep (and, for families of figures, the member to draw) and returns
(matplotlib Figure, data): data maps each plotted series' name to its [x, y] points, exactly the
values drawn, so that tests and data/FIGURE.json can check them. A function raises Skip with the
reason when the sweep holds no runs for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import starnuma_results as sr  # noqa: E402

# Reproducible SVGs: fixed ids instead of random ones (the dates are dropped when saving).
matplotlib.rcParams["svg.hashsalt"] = "starnuma-report"
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller files, faster to write
matplotlib.rcParams["font.size"] = 9

BASELINE_COLOR = "#8c8c8c"
# tab10 without its grey, which is the baseline's
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"]
PAIRED = matplotlib.colormaps["tab20"].colors  # pairs of one hue: dark, light
MAX_PHASE_RUNS = 8


class Skip(Exception):
    """The sweep holds nothing this figure can draw; the message says why."""


class Sweep:
    """A results folder loaded once for all figures: the runs, which axes are free to plot, and a
    cache of the runs' statistics files. A sweep of several parts (the axis "part") is best read
    part by part: parts() gives each as a Sweep of its own runs."""

    def __init__(self, dir: str | Path, runs=None, part: str | None = None):
        self.dir = Path(dir)
        self.all_runs = sr.load(dir) if runs is None else runs
        self.meta = self.all_runs.attrs["meta"]
        self.part = part
        if part is None:
            self.runs = self.all_runs
        else:
            self.runs = self.all_runs[[p.get("part") == part for p in self.all_runs["params"]]]
            self.runs.attrs = dict(self.all_runs.attrs)
        self.baseline = self.meta.get("baseline") or None
        # the axes these runs have (each part has its own)
        self.axes = [a for a in sr.axes(self.all_runs) if any(a in p for p in self.runs["params"])]
        self.bound = sr.platform_bound_axes(self.runs)
        # Axes a figure holds at their first value unless it is the figure's own axis.
        self.free = [a for a in self.axes if a not in ("platform", "workload") and a not in self.bound
                     and not (part is not None and a == "part")]
        self.values = {a: list(dict.fromkeys(sr.text(p.get(a)) for p in self.runs["params"])) for a in self.axes}
        self.done = [r for r in self.runs.to_dict("records") if r["status"] == "done"]
        self._stats: dict = {}

    def parts(self) -> list[Sweep]:
        """One Sweep per part, sharing this one's statistics cache; [self] without parts."""
        if "part" not in self.axes or self.part is not None:
            return [self]
        subs = [Sweep(self.dir, self.all_runs, part=p) for p in self.values["part"] if p is not None]
        for sub in subs:
            sub._stats = self._stats
        return subs

    def at_default(self, params: dict, but: str | None = None) -> bool:
        """Whether a run has every free axis (but BUT) at the axis's first value."""
        return all(sr.text(params.get(a)) == self.values[a][0] for a in self.free if a != but)

    def titled(self, title: str) -> str:
        return f"{title}\npart {self.part}" if self.part else title

    def default_note(self, but: str | None = None) -> str:
        held = [f"{a} = {self.values[a][0]}" for a in self.free if a != but]
        return f" Other axes held at: {', '.join(held)}." if held else ""

    def stats(self, name: str) -> dict | None:
        """A run's statistics file, or None when it is missing or unreadable."""
        if name not in self._stats:
            try:
                self._stats[name] = sr.stats(self.dir, name)
            except (OSError, ValueError):
                self._stats[name] = None
        return self._stats[name]

    def platforms(self, rows) -> list[str]:
        """Platform names of ROWS, the baseline first, the others in run order."""
        names = list(dict.fromkeys(r["platform_name"] for r in rows if r["platform_name"]))
        return sorted(names, key=lambda n: n != self.baseline)

    def colors(self, names: list[str]) -> dict[str, str]:
        others = [n for n in names if n != self.baseline]
        out = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(others)}
        if self.baseline in names:
            out[self.baseline] = BASELINE_COLOR
        return out


@dataclass
class Planned:
    """One figure of the report: its file name, title, caption, and how to draw it."""
    id: str
    title: str
    caption: str
    draw: Callable[[], tuple[Figure, dict]]


# ---------------------------------------------------------------------------------------------
# Drawing helpers


def geomean(values) -> float:
    return float(np.exp(np.mean(np.log(values))))


def new_figure(width=8.0, height=4.0, ncols=1, nrows=1, **kw):
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes.ravel()


def grouped_bars(ax, categories: list[str], series: dict[str, dict], colors: dict[str, str], bottoms=None,
                 styles=None, errors=None):
    """One bar per series in each category group; a series lacking a category leaves a gap.
    With BOTTOMS (series -> {category: y}), series named "GROUP/PART" share GROUP's slot, stacked on
    the bottoms given. STYLES: series -> extra bar() arguments. ERRORS: series -> {category: (low,
    high)}, drawn as error bars (a confidence interval). Returns data: series -> [[x, y]]."""
    slot_of = (lambda label: label.rsplit("/", 1)[0]) if bottoms is not None else (lambda label: label)
    slots: dict[str, int] = {}
    for label in series:
        slots.setdefault(slot_of(label), len(slots))
    width = 0.8 / max(1, len(slots))
    data = {}
    for label, values in series.items():
        i = slots[slot_of(label)]
        cats = [c for c in categories if values.get(c) is not None]
        xs = [categories.index(c) - 0.4 + width * (i + 0.5) for c in cats]
        base = [(bottoms or {}).get(label, {}).get(c, 0.0) for c in cats]
        ax.bar(xs, [values[c] for c in cats], width, bottom=base, label=label, color=colors.get(label),
               **(styles or {}).get(label, {}))
        data[label] = [[c, values[c]] for c in cats]
        spans = (errors or {}).get(label, {})
        with_span = [(x, values[c], spans[c]) for x, c in zip(xs, cats) if c in spans]
        if with_span:
            ax.errorbar([x for x, _, _ in with_span], [y for _, y, _ in with_span],
                        yerr=[[y - lo for _, y, (lo, _) in with_span], [hi - y for _, y, (_, hi) in with_span]],
                        fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
    ax.set_xticks(range(len(categories)), categories)
    if max((len(c) for c in categories), default=0) > 10:
        ax.tick_params(axis="x", labelrotation=20)
        for t in ax.get_xticklabels():
            t.set_ha("right")
    ax.set_xlim(-0.6, len(categories) - 0.4)
    return data


def legend(ax, **kw):
    """The legend beside the axes, where it hides no bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, **kw)


def _workloads(rows) -> list[str]:
    return list(dict.fromkeys(r["workload"] for r in rows))


# ---------------------------------------------------------------------------------------------
# Fig. 2: sharing profile


def sharing_profile(sw: Sweep):
    runs = {}
    for r in sw.done:
        if r["kind"] == "profile" and r["workload"] not in runs:
            s = sw.stats(r["name"])
            if s and "pages_by_sharers" in s and "accesses_by_sharers" in s:
                runs[r["workload"]] = s
    if not runs:
        raise Skip("no done profile run (kind: profile) with readable statistics")
    fig, (pages, accesses) = new_figure(10, 4, ncols=2)
    counts = sorted({int(k) for s in runs.values() for k in s["pages_by_sharers"]})
    categories = [str(c) for c in counts]
    colors = {w: PALETTE[i % len(PALETTE)] for i, w in enumerate(runs)}
    data = {}
    for ax, key, what in ((pages, "pages_by_sharers", "pages"), (accesses, "accesses_by_sharers", "memory accesses")):
        series = {w: {k: 100 * v for k, v in s[key].items()} for w, s in runs.items()}
        for w, points in grouped_bars(ax, categories, series, colors).items():
            data[f"{what}/{w}"] = points
        ax.set_xlabel("sharers (sockets accessing the page)")
        ax.set_ylabel(f"{what} (%)")
        ax.set_title(f"{what.capitalize()} by sharer count")
    legend(accesses, title="workload")
    return fig, data


# ---------------------------------------------------------------------------------------------
# Fig. 8 and Figs. 9-12: speedups over the baseline


def _speedups(sw: Sweep):
    if not any(r["platform_name"] and sr.number(r["ipc"]) for r in sw.done):
        raise Skip("no done run on a platform with an IPC (kind run or sampled)")
    if not sw.baseline:
        raise Skip("the sweep names no baseline platform")
    if not any(r["platform_name"] == sw.baseline for r in sw.done):
        raise Skip(f"no done run on the baseline platform {sw.baseline}")
    if not any(r["platform_name"] not in (None, sw.baseline) for r in sw.done):
        raise Skip(f"no done run on a platform other than the baseline {sw.baseline}")
    sp = sr.speedups(sw.runs, sw.baseline)
    if sp.empty:
        raise Skip("no done run has a done baseline run with the same values on the other axes")
    return sp


def _speedup_bars(sw: Sweep, sp, series_of: Callable[[dict], str], colors: dict, title: str):
    """Bars of speedup per workload, one series per series_of(row), plus a geomean group."""
    rows = sp.to_dict("records")
    workloads = _workloads(rows)
    series: dict[str, dict] = {}
    for r in rows:
        series.setdefault(series_of(r), {}).setdefault(r["workload"], r["speedup"])
    for values in series.values():
        values["geomean"] = geomean(list(values.values()))
    fig, (ax,) = new_figure(min(16.0, max(6.0, (len(workloads) + 1) * (0.5 + 0.35 * len(series)) + 2)), 4)
    data = grouped_bars(ax, workloads + ["geomean"], series, colors)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel(f"speedup over {sw.baseline} (IPC ratio)")
    ax.set_xlabel("workload")
    ax.set_title(title)
    legend(ax)
    return fig, data


def speedup(sw: Sweep):
    """Fig. 8a: each non-baseline platform's IPC over the baseline's, per workload, at the default values."""
    sp = _speedups(sw)
    sp = sp.loc[[sw.at_default(_params(sp, i)) for i in range(len(sp))]]
    if sp.empty:
        raise Skip("no pair of runs at the other axes' first values")
    names = list(dict.fromkeys(sp["platform_name"]))
    return _speedup_bars(sw, sp, lambda r: r["platform_name"], sw.colors(names), sw.titled("Speedup over the baseline"))


def axis_speedup(sw: Sweep, axis: str):
    """Figs. 9-12: speedup over the baseline per workload, one bar series per value of AXIS (and per
    platform when there are several), the other free axes at their first value."""
    sp = _speedups(sw)
    sp = sp.loc[[sw.at_default(_params(sp, i), but=axis) for i in range(len(sp))]]
    if sp[axis].map(sr.text).nunique() < 2:
        raise Skip(f"fewer than two values of {axis} have a run paired with a baseline run")
    rows = sp.to_dict("records")
    platforms = list(dict.fromkeys(r["platform_name"] for r in rows))
    values = list(dict.fromkeys(sr.text(r[axis]) for r in rows))
    label = lambda r: (f"{r['platform_name']}, " if len(platforms) > 1 else "") + f"{short_axis(axis)} = {r[axis]}"
    if len(platforms) > 1 and len(values) == 2:  # a platform's two bars in one hue, dark and light
        colors = {label(r): PAIRED[(2 * platforms.index(r["platform_name"]) + values.index(sr.text(r[axis]))) % 20]
                  for r in rows}
    else:
        colors = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(dict.fromkeys(map(label, rows)))}
    return _speedup_bars(sw, sp, label, colors, sw.titled(f"Speedup over the baseline by {short_axis(axis)}"))


def _params(sp, i) -> dict:
    """A speedups() row's matched axis values as a params dict (the workload included)."""
    row = sp.iloc[i]
    return {a: row[a] for a in sp.columns}


def short_axis(axis: str) -> str:
    return axis[len("set:"):] if axis.startswith("set:") else axis


def amat_split(sw: Sweep):
    """Fig. 8b: AMAT as unloaded latency plus contention delay, per workload, each platform side by side."""
    rows = [r for r in sw.done if r["kind"] != "profile" and sw.at_default(r["params"])
            and sr.number(r["amat_unloaded_ns"]) is not None and sr.number(r["amat_contention_ns"]) is not None]
    if not rows:
        raise Skip("no done run with amat_unloaded_ns and amat_contention_ns")
    workloads, platforms = _workloads(rows), sw.platforms(rows)
    series, bottoms, colors, style = {}, {}, {}, {}
    base_colors = sw.colors(platforms)
    for p in platforms:
        for r in rows:
            if r["platform_name"] == p and r["workload"] not in series.get(f"{p}/unloaded", {}):
                series.setdefault(f"{p}/unloaded", {})[r["workload"]] = r["amat_unloaded_ns"]
                series.setdefault(f"{p}/contention", {})[r["workload"]] = r["amat_contention_ns"]
                bottoms.setdefault(f"{p}/contention", {})[r["workload"]] = r["amat_unloaded_ns"]
        colors[f"{p}/unloaded"] = colors[f"{p}/contention"] = base_colors[p]
        style[f"{p}/contention"] = {"alpha": 0.45, "hatch": "//", "edgecolor": base_colors[p]}
    fig, (ax,) = new_figure(max(6.0, 1.3 * len(workloads) + 3), 4)
    data = grouped_bars(ax, workloads, series, colors, bottoms=bottoms, styles=style)
    ax.set_ylabel("AMAT (ns)")
    ax.set_xlabel("workload")
    ax.set_title(sw.titled("AMAT: unloaded latency (solid) + contention (hatched)"))
    legend(ax)
    return fig, data


# ---------------------------------------------------------------------------------------------
# Table IV and migration over time


def migrating_runs(sw: Sweep) -> list[dict]:
    """Done runs that moved pages, each with "config": its platform plus the free axes that differ
    among these runs."""
    rows = [r for r in sw.done if (sr.number(r["pages_moved"]) or 0) > 0 and r["platform_name"]]
    varying = [a for a in sw.free if len({sr.text(r["params"].get(a)) for r in rows}) > 1]
    config = lambda r: ", ".join([r["platform_name"]] + [f"{short_axis(a)} = {r['params'][a]}" for a in varying
                                                          if a in r["params"]])
    return [dict(r, config=config(r)) for r in rows]


def pool_migrations(sw: Sweep):
    """Table IV as bars: the share of pages moved that went to the pool, per workload and configuration."""
    rows = migrating_runs(sw)
    if not rows:
        raise Skip("no done run moved pages (pages_moved > 0)")
    series: dict[str, dict] = {}
    for r in rows:
        share = 100 * (sr.number(r["to_pool"]) or 0) / r["pages_moved"]
        series.setdefault(r["config"], {}).setdefault(r["workload"], share)
    configs = list(series)
    platform_of = {r["config"]: r["platform_name"] for r in rows}
    base = sw.colors(sw.platforms(rows))
    # One configuration per platform: the platforms' colours; several: one colour each.
    one_each = len(configs) == len(base)
    colors = {c: base[platform_of[c]] if one_each else PALETTE[i % len(PALETTE)] for i, c in enumerate(configs)}
    workloads = _workloads(rows)
    fig, (ax,) = new_figure(max(6.0, 1.2 * len(workloads) + 3), 4)
    data = grouped_bars(ax, workloads, series, colors)
    for bars in ax.containers:
        ax.bar_label(bars, fmt="%.0f", fontsize=6)
    ax.set_ylim(0, 110)
    ax.set_ylabel("migrations to the pool (% of pages moved)")
    ax.set_xlabel("workload")
    ax.set_title("Fraction of migrations to the pool")
    legend(ax)
    return fig, data


def phase_series(sw: Sweep) -> list[tuple[str, list[dict]]]:
    """(run name, phases) for done runs with per-phase migration records: a sampled run's per_window,
    a run's migration.per_phase; each phase a dict with phase, pages_moved, to_pool."""
    out = []
    for r in sw.done:
        if sr.number(r["pages_moved"]) is None:
            continue
        s = sw.stats(r["name"]) or {}
        phases = s.get("per_window") or (s.get("migration") or {}).get("per_phase") or []
        phases = [p for p in phases if "phase" in p and "pages_moved" in p]
        if phases:
            out.append((r["name"], phases))
    return out


def migration_phases(sw: Sweep):
    """Pages moved and moved to the pool in each migration phase (sampled: each window's phase)."""
    runs = phase_series(sw)
    if not runs:
        raise Skip("no done sampled run with per_window and no run with migration.per_phase in its statistics")
    shown = runs[:MAX_PHASE_RUNS]
    fig, (moved, pool) = new_figure(10, 4, ncols=2)
    data = {}
    for i, (name, phases) in enumerate(shown):
        color = PALETTE[i % len(PALETTE)]
        for ax, key in ((moved, "pages_moved"), (pool, "to_pool")):
            xs, ys = [p["phase"] for p in phases], [p.get(key, 0) for p in phases]
            ax.plot(xs, ys, marker="o", color=color, label=name)
            data[f"{key}/{name}"] = [list(p) for p in zip(xs, ys)]
    for ax, what in ((moved, "pages moved"), (pool, "pages moved to the pool")):
        ax.set_xlabel("migration phase")
        ax.set_ylabel(f"{what} (pages)")
        ax.set_title(what.capitalize() + " per phase")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.yaxis.get_major_locator().set_params(integer=True)
    legend(pool)
    if len(runs) > len(shown):
        fig.suptitle(f"first {len(shown)} of {len(runs)} runs with migration phases")
    return fig, data


# ---------------------------------------------------------------------------------------------
# The paper's own figures, from a sweep of experiments/paper.yaml (tools/report/paper_data.py)

def is_paper_sweep(sw: Sweep) -> bool:
    return sw.meta.get("sweep") == "paper"


def paper_runs(sw: Sweep):
    """The sweep's runs as paper_data reads them, read once for all the paper's figures and tables."""
    import paper_data as P
    if "_paper_runs" not in sw.__dict__:
        sw._paper_runs = P.PaperRuns(sw.dir)
        sw._paper_best = P.chosen(sw._paper_runs)
    return sw._paper_runs, sw._paper_best


def paper_bars(sw: Sweep, name: str):
    """A figure of paper_data.BARS drawn as the paper draws it: a group of bars per workload, each a
    speedup over the dynamic baseline at its best migration limit, and the geomean of the paper's
    eight workloads (of every workload when none of them ran); each sampled bar with its paired
    95 % interval (intervals.paired_speedup) as an error bar."""
    import paper_data as P
    R, best = paper_runs(sw)
    series = P.bar_figures(R, best)[name]
    if not any(x for xs in series.values() for x in xs.values()):
        raise Skip("no workload has this figure's runs and the baseline's done")
    covered = P.mean_over(R.workloads)
    label = {w: P.short(w) for w in R.workloads}
    bars = {s: {label[w]: x for w, x in xs.items() if x} for s, xs in series.items()}
    groups = [label[w] for w in R.workloads]
    if name != "fig9":  # the paper's Fig. 9 has no mean
        for s, xs in series.items():
            present = [xs[w] for w in covered if xs.get(w)]
            if present:
                bars[s]["geomean"] = geomean(present)
        groups.append("geomean")
    fig, (ax,) = new_figure(min(16.0, max(6.0, len(groups) * (0.5 + 0.3 * len(bars)) + 2)), 3.6)
    spans = {s: {label[w]: (ci[1], ci[2]) for w, ci in xs.items() if ci}
             for s, xs in P.bar_figures(R, best, paired=True)[name].items()}
    data = grouped_bars(ax, groups, bars, {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(bars)},
                        errors=spans)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel(f"speedup over {P.BASE}" + (", first touch" if name == "fig9" else ""))
    ax.set_title(P.BARS[name][0])
    legend(ax)
    return fig, data


def paper_amat(sw: Sweep):
    """Fig. 8b as the paper draws it: the two machines' AMAT per workload, each at its best migration
    limit, as unloaded latency (solid) plus contention (hatched)."""
    import paper_data as P
    R, best = paper_runs(sw)
    series, bottoms, colors, style = {}, {}, {}, {}
    for platform, label, color in ((P.BASE, "baseline", BASELINE_COLOR), (P.STAR, "StarNUMA", PALETTE[0])):
        for w in R.workloads:
            r = best[w, platform][0]
            if r:
                series.setdefault(f"{label}/unloaded", {})[P.short(w)] = r["amat_unloaded_ns"]
                series.setdefault(f"{label}/contention", {})[P.short(w)] = r["amat_contention_ns"]
                bottoms.setdefault(f"{label}/contention", {})[P.short(w)] = r["amat_unloaded_ns"]
        colors[f"{label}/unloaded"] = colors[f"{label}/contention"] = color
        style[f"{label}/contention"] = {"alpha": 0.45, "hatch": "//", "edgecolor": color}
    if not series:
        raise Skip("no workload has a done dynamic run of either machine")
    groups = [P.short(w) for w in R.workloads]
    fig, (ax,) = new_figure(max(6.0, 1.1 * len(groups) + 3), 3.6)
    data = grouped_bars(ax, groups, series, colors, bottoms=bottoms, styles=style)
    ax.set_ylabel("AMAT (ns)")
    ax.set_title("AMAT: unloaded (solid) + contention (hatched), at the best limits (Fig. 8b)")
    legend(ax)
    return fig, data
