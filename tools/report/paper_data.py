"""The StarNUMA paper's evaluation by its own method (issue 37): every number docs/validation.md
quotes from a sweep of experiments/paper.yaml, per workload where the paper gives one.

values(dir) returns {name: text} as validation_data.values does, every name prefixed "paper.":
scalars formatted as the page prints them and whole Markdown tables. The workloads are read from
the sweep's database, so a sweep of a smaller spec with paper.yaml's parts and names reads the
same way (the tests do that); geomeans are over the paper's eight workloads only (kv and sharing
are starnuma's own), or over every workload when none of the eight is present.

Runs are found by their part (paper.yaml's `part` axis), workload, platform and migration limit,
as the database records them (params, sets), not by their names. Parts dynamic, t0 and pool run at
several migration limits, and every figure takes each workload-machine pair's best (highest IPC;
a tie goes to the smaller limit) of the runs whose migrations could be carried out within their
phases (carried_out), as the paper chooses its limit per workload and system (section IV-C); part
light compares the two simulation methods at its one limit. Everything is read from each run's
stats.json (a sampled run's aggregate, with its windows' coherence counts summed and each window's
migrations in per_window), so a sweep's results need not keep the windows' own folders: the
results committed beside this page do not (experiments/results/).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import starnuma_results as sr
from intervals import paired_speedup
import validation_data as vd
from validation_data import folder, pct, short, table, times

EIGHT = ["bfs", "cc", "sssp", "tc", "masstree", "tpcc", "fmi", "poa"]  # the paper's, in its order
BASE, STAR = "baseline16-scaled", "starnuma16-scaled"
FIG10 = [("starnuma16-190ns-scaled", "190 ns pool"), ("starnuma16-switch-scaled", "CXL switch")]
FIG11 = [("baseline16-isobw-scaled", "baseline ISO-BW"), ("baseline16-2xbw-scaled", "baseline 2x BW"),
         ("starnuma16-halfbw-scaled", "StarNUMA half BW")]
# What the paper's text states per workload (section V; Figs. 8-12 give the rest only as bars).
PAPER = {
    "speedup.geomean": "1.54x", "speedup.max": "2.17x", "amat_reduction": "48 %", "t0.geomean": "1.35x",
    "to_pool.geomean": "83 %", "fig10.190ns.geomean": "1.34x", "fig10.190ns.tc": "1.11x (1.63x at 80 ns)",
    "fig11.halfbw.sssp": "1.21x", "fig11.halfbw.bfs": "1.02x", "fig12.1_17.geomean": "1.48x",
    "fig12.1_17.fmi": "1.05x (1.22x at 1/5)", "light.bfs": "1.7x one detailed socket; 2.0x and 1.8x all detailed",
    "os_overhead": "0.2 %",
}


def geomean(xs) -> float:
    """Over the values present (a missing run gives None)."""
    xs = [x for x in xs if x and x > 0]
    return vd.geomean(xs) if xs else float("nan")


class PaperRuns:
    """The sweep's done runs by name; a run that is missing or not done reads as None, and is
    listed in `missing` so the page can say what it lacks instead of failing whole."""

    def __init__(self, dir: str | Path):
        self.dir = Path(dir)
        df = sr.load(self.dir)
        self.rows = {r["name"]: r for r in df.to_dict("records")}
        self.limits = sorted({int(r["sets"]["os.migration_limit"]) for r in self.rows.values()
                              if "os.migration_limit" in r["sets"]})
        # The workloads in the order the sweep lists them (its axis order).
        self.workloads = list(dict.fromkeys(r["workload"] for r in df.to_dict("records")))
        self.missing: list[str] = []
        self.read: set[str] = set()  # every name asked for (the tests match them with the spec's runs)
        self._cache: dict = {}
        self._carried: dict = {}  # carried_out()'s answers, in the order asked

    def __call__(self, name: str) -> dict | None:
        self.read.add(name)
        if name not in self._cache:
            row = self.rows.get(name)
            if row is None or row["status"] != "done":
                self.missing.append(name)
                self._cache[name] = None
            else:
                self._cache[name] = sr.stats(self.dir, name)
        return self._cache[name]

    def names(self, part: str, workload: str, platform: str = STAR, limit: int | None = None) -> list[str]:
        """The part's runs of the workload on the platform, at every limit or at `limit`."""
        return [n for n, r in self.rows.items()
                if r["params"].get("part") == part and r["workload"] == workload and r["platform_name"] == platform
                and (limit is None or int(r["sets"].get("os.migration_limit", -1)) == limit)]

    def at(self, part: str, workload: str, platform: str = STAR, limit: int | None = None) -> dict | None:
        """The part's one run of the workload on the platform (at `limit` where the part has several)."""
        found = self.names(part, workload, platform, limit)
        if len(found) != 1:
            self.missing.append(self._absent(part, workload, platform, limit))
            return None
        return self(found[0])

    @staticmethod
    def _absent(part, workload, platform, limit=None) -> str:
        return f"(no {part} run of {workload} on {platform}{'' if limit is None else f' at {limit}'})"

    def carried_out(self, name: str) -> bool:
        """Whether a sampled run's migrations could all be carried out within their phases: in each
        window, the pages moved, at the rate the window moved them, over the whole phase (phase
        instructions over window instructions) cover the pages the phase decided. The functional
        pass applies every decided migration at the phase's end, so a run that fails this would be
        timed on a placement its OS could not have reached (docs/decisions.md, "The migration
        limit")."""
        if name not in self._carried:
            row = self.rows[name]
            stretch = int(row["sets"].get("os.phase_instructions", 0)) / row["instructions"]
            self._carried[name] = all(w["pages_moved"] * stretch >= w["pages_decided"]
                                      for w in self(name)["per_window"])
        return self._carried[name]

    def not_carried_out(self) -> list[str]:
        """The runs carried_out() has found wanting so far, in the order asked."""
        return [n for n, ok in self._carried.items() if not ok]

    def best(self, part: str, workload: str, platform: str = STAR,
             bounded: bool = True) -> tuple[dict | None, str | None, int | None]:
        """The part's run with the highest IPC over its migration limits whose migrations could be
        carried out (carried_out; with `bounded` false, of every limit): (stats, name, limit).
        Every candidate counts as read, and one not done as missing."""
        found = [(self(n), n) for n in self.names(part, workload, platform)]
        if not found:
            self.missing.append(self._absent(part, workload, platform))
        found = [(r, n) for r, n in found if r and (not bounded or self.carried_out(n))]
        if not found:
            return None, None, None
        limit = lambda n: int(self.rows[n]["sets"]["os.migration_limit"])
        r, n = min(found, key=lambda x: (-x[0]["ipc"], limit(x[1])))
        return r, n, limit(n)


def ratio(a: dict | None, b: dict | None, key: str = "ipc") -> float | None:
    return a[key] / b[key] if a and b and b[key] else None


def interval(x: tuple[float, float, float] | None) -> str:
    return f"{x[1]:.2f}-{x[2]:.2f}x" if x else "-"


def pages(n: int) -> str:
    """A migration limit as the paper writes it: 0, 1K ... 256K pages."""
    return f"{n // 1024}K" if n and n % 1024 == 0 else str(n)


def show(x: float | None, fmt=times) -> str:
    return fmt(x) if x is not None and not math.isnan(x) else "-"


def window_totals(R: PaperRuns, name: str) -> dict:
    """A sampled run's windows taken together (its aggregate sums them): block transfers, their mean
    latencies, the pool directory's transactions per microsecond and the OS core's busy share, both
    over the windows' summed simulated time."""
    r = R(name) or {}
    co = r.get("coherence", {})
    bt = {k: co.get(f"bt_{k}", 0) for k in ("pool", "socket")}
    lat = {k: bt[k] * co.get(f"bt_{k}_latency", {}).get("mean", 0.0) for k in bt}
    directory = co.get("pool_directory_transactions", 0)
    sim_ns = r.get("sim_time_ns", 0.0)
    os_busy = r.get("migration", {}).get("os_core_busy_ns", 0.0)
    return {"bt_pool": bt["pool"], "bt_socket": bt["socket"],
            "bt_pool_ns": lat["pool"] / bt["pool"] if bt["pool"] else None,
            "bt_socket_ns": lat["socket"] / bt["socket"] if bt["socket"] else None,
            "directory_per_us": 1000 * directory / sim_ns if sim_ns else None,
            "os_busy_share": os_busy / sim_ns if sim_ns else None}


def breakdown(r: dict) -> dict:
    counts = r.get("memory_accesses", {})
    total = sum(counts.values())
    return {k: n / total for k, n in counts.items()} if total else {}


def mean_over(workloads: list[str]) -> list[str]:
    """The workloads the geomeans cover: the paper's eight present, else all."""
    return [w for w in workloads if short(w) in EIGHT] or list(workloads)


def chosen(R: PaperRuns, bounded: bool = True) -> dict:
    """Each workload-machine pair at its best migration limit (PaperRuns.best): (workload, key) ->
    (stats, run name, limit), the key a platform of part dynamic, "t0", "pool" or "cached_tracking"."""
    machines = (BASE, STAR, *(q for q, _ in FIG10 + FIG11))
    best = {(w, p): R.best("dynamic", w, p, bounded) for w in R.workloads for p in machines}
    for part in ("t0", "pool", "cached_tracking"):
        best.update({(w, part): R.best(part, w, bounded=bounded) for w in R.workloads})
    return best


# The paper's bar figures: name -> (title, [(series key, label)]). A bar is a speedup over the
# dynamic baseline at its best limit (keys: a platform of part dynamic, "t0", "pool"), but Fig. 9's,
# each over the baseline with first touch timed by the same method: "dynamic-P" (P at its best
# limit, sampled) over part dynamic's baseline at limit 0, "oracle-P" (a continuous window from the
# start) over part first_touch's baseline over that window.
BARS = {
    "fig8a": ("Speedup over the baseline, each machine migrating at its best limit (Fig. 8a)",
              [(STAR, "StarNUMA (T16)"), ("t0", "StarNUMA (T0)")]),
    "fig9": ("Static oracle placement against dynamic migration, each over the baseline with first touch "
             "timed the same way (Fig. 9)",
             [(f"dynamic-{BASE}", "baseline, dynamic"), (f"dynamic-{STAR}", "StarNUMA, dynamic"),
              (f"oracle-{BASE}", "baseline, oracle"), (f"oracle-{STAR}", "StarNUMA, oracle")]),
    "fig10": ("A 190 ns pool and a CXL switch (Fig. 10)", [(STAR, "StarNUMA"), *FIG10]),
    "fig11": ("Bandwidth: ISO-BW, a baseline of twice the bandwidth, StarNUMA at half (Fig. 11)",
              [(STAR, "StarNUMA"), *FIG11]),
    "fig12": ("The pool's capacity: 1/17 and 1/5 of the footprint (Fig. 12)",
              [("pool", "pool 1/17"), (STAR, "pool 1/5")]),
}


def bar_figures(R: PaperRuns, best: dict | None = None, paired: bool = False) -> dict:
    """BARS' speedups: name -> {label: {workload: speedup or None}}; with `paired`, each a
    paired_speedup (speedup, low, high) instead, or None where a run has no windows (oracle)."""
    best = best or chosen(R)

    def over_base(w, key):
        if key.startswith("oracle-"):
            run, reference = R.at("oracle", w, key[len("oracle-"):]), R(f"first_touch-{folder(w)}")
        elif key.startswith("dynamic-"):
            run, reference = best[w, key[len("dynamic-"):]][0], R.at("dynamic", w, BASE, 0)
        else:
            run, reference = best[w, key][0], best[w, BASE][0]
        return paired_speedup(run, reference) if paired else ratio(run, reference)

    return {name: {label: {w: over_base(w, key) for w in R.workloads} for key, label in series}
            for name, (_, series) in BARS.items()}


# Every number the paper's text states that the sweep measures too: (key, what and where the paper
# states it, theirs, "x" for a ratio or "%"). Ours come from comparison(), under the same keys.
STATED = [
    ("speedup.geomean", "geomean speedup, T16 (Fig. 8a)", 1.54, "x"),
    ("speedup.max", "largest speedup, T16 (Fig. 8a)", 2.17, "x"),
    ("amat_reduction", "AMAT reduction, geomean (Fig. 8b)", 0.48, "%"),
    ("t0.geomean", "geomean speedup, T0 (Fig. 8a)", 1.35, "x"),
    ("to_pool.geomean", "pages moved that went to the pool, geomean without poa (Table IV)", 0.83, "%"),
    ("fig10.190ns.geomean", "geomean speedup, 190 ns pool (Fig. 10)", 1.34, "x"),
    ("fig10.190ns.tc", "tc, 190 ns pool (Fig. 10)", 1.11, "x"),
    ("fig11.isobw.geomean", "geomean speedup, baseline ISO-BW (Fig. 11)", 1.14, "x"),
    ("fig11.isobw.sssp", "sssp, baseline ISO-BW (Fig. 11)", 1.40, "x"),
    ("fig11.isobw.bfs", "bfs, baseline ISO-BW (Fig. 11)", 1.29, "x"),
    ("fig11.star_over_2xbw", "StarNUMA over baseline 2x BW, geomeans (Fig. 11)", 1.12, "x"),
    ("fig11.halfbw_over_isobw", "StarNUMA half BW over baseline ISO-BW, geomeans (Fig. 11)", 1.11, "x"),
    ("fig11.halfbw.sssp", "sssp, StarNUMA half BW (Fig. 11)", 1.21, "x"),
    ("fig11.halfbw.bfs", "bfs, StarNUMA half BW (Fig. 11)", 1.02, "x"),
    ("fig12.1_17.geomean", "geomean speedup, pool of 1/17 (Fig. 12)", 1.48, "x"),
    ("fig12.1_17.fmi", "fmi, pool of 1/17 (Fig. 12)", 1.05, "x"),
    ("fig12.1_5.fmi", "fmi, pool of 1/5 (Fig. 12)", 1.22, "x"),
    ("light.bfs", "bfs, one detailed socket (section V-G, SC1)", 1.70, "x"),
    ("fig2.bfs.single_pages", "bfs: pages one socket touches (Fig. 2a)", 0.17, "%"),
    ("fig2.bfs.wide_pages", "bfs: pages with more than 8 sharers (Fig. 2a)", 0.07, "%"),
    ("fig2.bfs.wide_accesses", "bfs: their share of the accesses (Fig. 2b)", 0.68, "%"),
    ("fig2.bfs.all_pages", "bfs: pages all 16 sockets share (Fig. 2a)", 0.02, "%"),
    ("fig2.bfs.all_accesses", "bfs: their share of the accesses (Fig. 2b)", 0.36, "%"),
]
DIFFERENCE_TO_EXPLAIN = 0.15  # the bar: a difference beyond it needs a measured cause

MISSING_NAMED = 12  # beyond this many, the page counts the missing runs instead of naming them


def progress(R: PaperRuns, v: dict) -> None:
    """How much of the sweep is done, per part, and which sources produced it: the page may be
    generated from a sweep still in progress (experiments/results/README.md)."""
    parts: dict = {}
    for r in R.rows.values():
        done, total = parts.get(r["params"].get("part", "-"), (0, 0))
        parts[r["params"].get("part", "-")] = (done + (r["status"] == "done"), total + 1)
    done = sum(d for d, _ in parts.values())
    v["paper.progress"] = f"{done} of {len(R.rows)}"
    v["paper.progress.parts"] = table(["part", "runs done", "runs"],
                                      [[p, str(d), str(t)] for p, (d, t) in parts.items()])
    meta = sr.meta(R.dir)
    v["paper.version"] = str(meta.get("starnuma_version", "?"))
    v["paper.sources"] = str(meta.get("starnuma_sources", "?"))[:12]


def stated(R: PaperRuns, best: dict, bars: dict, covered: list[str]) -> dict:
    """Our value of each number of STATED, by its key (None or nan where a run is missing)."""
    by_short = {short(w): w for w in R.workloads}
    mean = lambda xs: geomean(xs.get(w) for w in covered)
    at = lambda series, name: series.get(by_short[name]) if name in by_short else None
    star, t0 = bars["fig8a"]["StarNUMA (T16)"], bars["fig8a"]["StarNUMA (T0)"]
    fig10, fig11, fig12 = bars["fig10"], bars["fig11"], bars["fig12"]

    def amat_ratio(w):
        b, s = best[w, BASE][0], best[w, STAR][0]
        return s["amat_ns"] / b["amat_ns"] if s and b and b["amat_ns"] else None

    def to_pool(w):
        r = best[w, STAR][0]
        return r["migration"]["to_pool_fraction"] if r and r["migration"]["pages_moved"] else None

    def light(w):
        lights = [R.at("light", w, p) for p in (BASE, STAR)]
        return ratio(lights[1], lights[0])

    profile = R(f"profile-{folder(by_short['bfs'])}") if "bfs" in by_short else None
    share = lambda d, keep: sum(x for k, x in d.items() if keep(int(k))) if profile else None
    speedups = {w: star.get(w) for w in covered if star.get(w)}
    top = max(speedups, key=speedups.get) if speedups else None
    return {
        "speedup.geomean": mean(star),
        "speedup.max": speedups.get(top),
        "speedup.max.workload": short(top) if top else None,
        "amat_reduction": 1 - geomean(amat_ratio(w) for w in covered),
        "t0.geomean": mean(t0),
        "to_pool.geomean": geomean(to_pool(w) for w in covered if short(w) != "poa"),
        "fig10.190ns.geomean": mean(fig10["190 ns pool"]),
        "fig10.190ns.tc": at(fig10["190 ns pool"], "tc"),
        "fig10.80ns.tc": at(star, "tc"),
        "fig11.isobw.geomean": mean(fig11["baseline ISO-BW"]),
        "fig11.isobw.sssp": at(fig11["baseline ISO-BW"], "sssp"),
        "fig11.isobw.bfs": at(fig11["baseline ISO-BW"], "bfs"),
        "fig11.star_over_2xbw": mean(star) / mean(fig11["baseline 2x BW"]),
        "fig11.halfbw_over_isobw": mean(fig11["StarNUMA half BW"]) / mean(fig11["baseline ISO-BW"]),
        "fig11.halfbw.sssp": at(fig11["StarNUMA half BW"], "sssp"),
        "fig11.halfbw.bfs": at(fig11["StarNUMA half BW"], "bfs"),
        "fig12.1_17.geomean": mean(fig12["pool 1/17"]),
        "fig12.1_17.fmi": at(fig12["pool 1/17"], "fmi"),
        "fig12.1_5.fmi": at(fig12["pool 1/5"], "fmi"),
        "light.bfs": light(by_short["bfs"]) if "bfs" in by_short else None,
        "fig2.bfs.single_pages": share(profile and profile["pages_by_sharers"], lambda k: k == 1),
        "fig2.bfs.wide_pages": share(profile and profile["pages_by_sharers"], lambda k: k > 8),
        "fig2.bfs.wide_accesses": share(profile and profile["accesses_by_sharers"], lambda k: k > 8),
        "fig2.bfs.all_pages": share(profile and profile["pages_by_sharers"], lambda k: k == 16),
        "fig2.bfs.all_accesses": share(profile and profile["accesses_by_sharers"], lambda k: k == 16),
    }


def comparison(R: PaperRuns, v: dict, best: dict, bars: dict, covered: list[str]) -> dict:
    """Each number of STATED beside ours (paper.ours.KEY) and their difference, in one table
    (paper.comparison), differences beyond DIFFERENCE_TO_EXPLAIN marked. Returns ours by key and
    the keys beyond."""
    ours = stated(R, best, bars, covered)
    top = ours["speedup.max.workload"]
    rows, beyond = [], []
    for key, what, theirs, kind in STATED:
        x = ours[key]
        present = x is not None and not math.isnan(x)
        fmt = times if kind == "x" else (lambda y: pct(y, 1))
        v[f"paper.ours.{key}"] = show(x, fmt)
        diff = x / theirs - 1 if present else None
        explain = present and abs(diff) > DIFFERENCE_TO_EXPLAIN
        if explain:
            beyond.append(key)
        rows.append([what, fmt(theirs), v[f"paper.ours.{key}"] + (f" ({top})" if key == "speedup.max" and
                                                                   present else ""),
                     show(diff, lambda d: f"{100 * d:+.0f} %"), "yes" if explain else ""])
    v["paper.comparison"] = table(["the paper states", "theirs", "ours", "difference",
                                         f"beyond {100 * DIFFERENCE_TO_EXPLAIN:.0f} %"], rows)
    v["paper.comparison.beyond"] = str(len(beyond))
    return ours, beyond


# The numbers STATED that StarNUMA's T16 machine itself makes (not a variant of it): the ablation
# part cached_tracking recomputes them with the trackers at the cost the paper assumes.
T16_KEYS = ["speedup.geomean", "speedup.max", "amat_reduction", "to_pool.geomean", "fig11.star_over_2xbw",
            "fig12.1_5.fmi"]
# A variant's own effect: the variant over StarNUMA at the paper's defaults, from the numbers the
# paper states (and ours of the same), so a difference the variant inherits from StarNUMA's own
# shows apart from one the variant adds.
THEIRS_TOO = {"fig10.80ns.tc": 1.63}  # stated beside a number of STATED: tc at the default 80 ns pool
RELATIVE = {
    "fig10.190ns.geomean": lambda d: d["fig10.190ns.geomean"] / d["speedup.geomean"],
    "fig10.190ns.tc": lambda d: d["fig10.190ns.tc"] / d["fig10.80ns.tc"],
    "fig11.halfbw_over_isobw": lambda d: d["fig11.halfbw_over_isobw"] * d["fig11.isobw.geomean"] / d["speedup.geomean"],
    "fig12.1_17.geomean": lambda d: d["fig12.1_17.geomean"] / d["speedup.geomean"],
    "fig12.1_17.fmi": lambda d: d["fig12.1_17.fmi"] / d["fig12.1_5.fmi"],
}
# Part cached_variants: each variant with its trackers cached at one limit, against part
# cached_tracking's StarNUMA at that limit. A number of STATED -> (the variant's label, the
# workload it is of, or None for the geomean).
CACHED_VARIANT_OF = {
    "fig10.190ns.geomean": ("190ns", None), "fig10.190ns.tc": ("190ns", "tc"),
    "fig11.halfbw_over_isobw": ("halfbw", None), "fig11.halfbw.sssp": ("halfbw", "sssp"),
    "fig12.1_17.geomean": ("pool1_17", None), "fig12.1_17.fmi": ("pool1_17", "fmi"),
}


def cached_variant_effects(R: PaperRuns, covered: list[str]) -> dict:
    """(label, workload short name or None) -> the variant over StarNUMA, both with their trackers
    cached and at the variant's run's limit (None for the geomean over `covered`)."""
    out = {}
    for label in dict.fromkeys(x for x, _ in CACHED_VARIANT_OF.values()):
        names = {w: f"cached_variants-{folder(w)}-{label}" for w in R.workloads}
        limit = lambda w: int(R.rows[names[w]]["sets"]["os.migration_limit"]) if names[w] in R.rows else None
        per = {w: ratio(R(names[w]), R.at("cached_tracking", w, STAR, limit(w))) for w in R.workloads}
        out[label, None] = geomean(per[w] for w in covered)
        out.update({(label, short(w)): x for w, x in per.items()})
    return out


# The measured cause of each difference beyond DIFFERENCE_TO_EXPLAIN, in words that name the
# column of paper.causes (or the table of the page) that measures it.
T16_CAUSE = ("StarNUMA's trackers, whose updates take each metadata line from the socket that updated it "
             "last (column 4 removes them), then phases too short to carry out what a larger limit decides "
             "(column 5)")
T0_CAUSE = ("phases too short to carry out what a larger limit decides (column 5); T0's trackers rarely "
            "write a line (only a socket's first touch of a region changes it), so caching them changes little")
FIG2_CAUSE = ("the graph and the span: 2^22 vertices of degree 16 over 10 M instructions per thread against the "
              "paper's 2^28 of degree 32 over its whole run; how many searches the span covers decides the "
              "shape (docs/workloads.md, measured at 2^18 to 2^22 vertices and at degree 32)")


def variant_cause(theirs: float | None, cached: float | None, own: str) -> str:
    """A variant's cause: inherited from StarNUMA when its own effect, trackers cached, is the
    paper's within DIFFERENCE_TO_EXPLAIN; else `own`, what differs in the variant itself."""
    if theirs is None or cached is None or math.isnan(cached):
        return own
    if abs(cached / theirs - 1) <= DIFFERENCE_TO_EXPLAIN:
        return ("StarNUMA's own difference, inherited (the rows above): the variant's effect over StarNUMA, "
                "trackers cached, is the paper's (column 6)")
    return own


def causes(R: PaperRuns, v: dict, best: dict, covered: list[str], ours: dict, beyond: list[str]) -> None:
    """paper.causes: each difference beyond DIFFERENCE_TO_EXPLAIN with the measurement that
    names its cause: the same number with StarNUMA's trackers cached (part cached_tracking in
    StarNUMA's place), or a variant's effect over StarNUMA, theirs beside ours."""
    def with_cached(chosen_runs: dict) -> dict:
        runs = {**chosen_runs, **{(w, STAR): chosen_runs[w, "cached_tracking"] for w in R.workloads}}
        return stated(R, runs, bar_figures(R, runs), covered)

    cached = with_cached(best)
    variants = cached_variant_effects(R, covered)
    # What the variants' runs load: the CXL links' utilisation and the pool's share of accesses.
    cached_at = lambda w, label=None: (R(f"cached_variants-{folder(w)}-{label}") if label else
                                       R.at("cached_tracking", w, STAR, max(R.limits) if R.limits else None))
    util = lambda label=None: max((r["link_utilization"]["cxl"] for w in covered
                                   if (r := cached_at(w, label)) and "cxl" in r.get("link_utilization", {})),
                                  default=None)
    v["paper.cached.cxl_util"] = show(util(), lambda x: pct(x, 1))
    v["paper.cached.halfbw.cxl_util"] = show(util("halfbw"), lambda x: pct(x, 1))
    by_short = {short(w): w for w in R.workloads}
    if "fmi" in by_short:
        for label, name in ((None, "fmi"), ("pool1_17", "fmi.pool1_17")):
            r = cached_at(by_short["fmi"], label)
            v[f"paper.cached.{name}.pool_share"] = show(r and breakdown(r).get("pool", 0), lambda x: pct(x, 1))
    # And the phases' length: every limit counted, as if each phase could carry out its
    # migrations however many (the paper's phases are 500 times longer than these).
    best_unbounded = chosen(R, bounded=False)
    unbounded = with_cached(best_unbounded)
    theirs = {key: x for key, _, x, _ in STATED} | THEIRS_TOO
    kinds = {key: (what, x, kind) for key, what, x, kind in STATED}
    for key in T16_KEYS:
        fmt = times if kinds[key][2] == "x" else (lambda y: pct(y, 1))
        v[f"paper.cached.{key}"] = show(cached[key], fmt)
        v[f"paper.cached_unbounded.{key}"] = show(unbounded[key], fmt)
    v["paper.unbounded.t0.geomean"] = show(unbounded["t0.geomean"])
    # How many of the workloads the limits cap: the trackers cached, the highest IPC at the largest limit.
    top = max(R.limits) if R.limits else None
    capped = [w for w in covered if (unbounded_limit := best_unbounded[w, "cached_tracking"][2]) is not None
              and unbounded_limit == top]
    v["paper.cached.capped"] = f"{len(capped)} of {len(covered)}"
    def cause_of(key: str) -> str:
        if key in T16_KEYS:
            return T16_CAUSE
        if key == "t0.geomean":
            return T0_CAUSE
        if key.startswith("fig2."):
            return FIG2_CAUSE
        if key == "light.bfs":
            return (f"bfs's StarNUMA at the limit part light runs (the section V-G table: one detailed socket "
                    f"against all detailed differs by {v['paper.bfs.light_difference']}), whose difference is the "
                    f"rows above")
        variant = CACHED_VARIANT_OF[key]
        mine = variants.get(variant)
        own = {
            "fig10.190ns.tc": lambda: (
                f"tc's pool serves {v['paper.fig10.tc.pool_share']} of its accesses here (the table after Fig. 10), "
                "so the pool's latency hardly counts; the paper's TC gains 1.63x from its pool"),
            "fig11.halfbw_over_isobw": lambda: (
                f"the CXL links carry at most {v['paper.cached.cxl_util']} of their bandwidth (trackers cached, at "
                f"the variants' limit), {v['paper.cached.halfbw.cxl_util']} at half: halving them costs little, "
                "where the paper's bandwidth-bound workloads lean on them"),
            "fig11.halfbw.sssp": lambda: (
                f"sssp's StarNUMA gains nothing here even with its trackers cached (at best "
                f"{v['paper.sssp.cached_tracking_speedup']}, its best limit {v['paper.sssp.cached_tracking_limit']} "
                "pages a phase); half the CXL bandwidth costs it little more (column 6)"),
            "fig12.1_17.fmi": lambda: (
                f"fmi's hot pages fit a pool of 1/17: it serves {v['paper.cached.fmi.pool_share']} of the accesses "
                f"at 1/5 and {v['paper.cached.fmi.pool1_17.pool_share']} at 1/17 (trackers cached, at the variants' "
                "limit); the paper's FMI loses its gain"),
        }.get(key, lambda: "the variant's own effect, trackers cached, differs from the paper's (column 6): not "
                           "measured further")()
        return variant_cause(RELATIVE[key](theirs) if key in RELATIVE else None, mine, own)

    rows = []
    for key in beyond:
        what, x, kind = kinds[key]
        fmt = times if kind == "x" else (lambda y: pct(y, 1))
        against = lambda y: show(y, fmt) + (f" ({100 * (y / x - 1):+.0f} %)" if y is not None and not math.isnan(y)
                                            else "")
        relative = RELATIVE.get(key)
        variant = f"{relative(theirs):.2f}" if relative else "-"
        variant += " / " + (show(relative(ours), lambda y: f"{y:.2f}") if relative else "-")
        variant += " / " + show(variants.get(CACHED_VARIANT_OF.get(key)), lambda y: f"{y:.2f}")
        rows.append([what, fmt(x), v[f"paper.ours.{key}"],
                     against(cached[key]) if key in T16_KEYS else "",
                     against(unbounded[key]) if key in T16_KEYS or key == "t0.geomean" else "",
                     variant if key in CACHED_VARIANT_OF else "",
                     cause_of(key)])
    v["paper.causes"] = table(["the paper states", "theirs", "ours", "StarNUMA's trackers cached",
                               "and every limit counted",
                               "the variant over StarNUMA: theirs / ours / ours, trackers cached",
                               "measured cause"], rows)


def values(dir: str | Path, R: PaperRuns | None = None) -> dict:
    R = R or PaperRuns(dir)
    v: dict = {}
    covered = mean_over(R.workloads)
    v["paper.mean_over"] = ", ".join(short(w) for w in covered)
    v["paper.limits"] = ", ".join(pages(x) for x in R.limits)
    best = chosen(R)
    bars = bar_figures(R, best)
    cis = bar_figures(R, best, paired=True)
    base = lambda w: best[w, BASE][0]

    # Fig. 8a-8c: the two machines, placement dynamic on both.
    rows8, rows8c = [], []
    significant = with_interval = 0
    speed, t0 = bars["fig8a"]["StarNUMA (T16)"], bars["fig8a"]["StarNUMA (T0)"]
    for w in R.workloads:
        b, s = base(w), best[w, STAR][0]
        k = f"paper.{short(w)}."
        v[k + "speedup"] = show(speed[w])
        v[k + "t0_speedup"] = show(t0[w])
        red = 1 - s["amat_ns"] / b["amat_ns"] if s and b else None
        v[k + "amat_reduction"] = show(red, pct)
        split = lambda r: (f"{r['amat_ns']:.0f} ({r['amat_unloaded_ns']:.0f} + {r['amat_contention_ns']:.0f})"
                           if r else "-")
        ci = paired_speedup(s, b)
        v[k + "speedup_interval"] = interval(ci)
        significant += bool(ci and (ci[1] > 1 or ci[2] < 1))
        with_interval += bool(ci)
        rows8.append([f"`{w}`", v[k + "speedup"], v[k + "speedup_interval"], v[k + "t0_speedup"],
                      v[k + "amat_reduction"], split(b), split(s)])
        if s:
            bd = breakdown(s)
            c = window_totals(R, best[w, STAR][1])
            bt_share = bd.get("bt-pool", 0) + bd.get("bt-socket", 0)
            v[k + "bt_share"] = pct(bt_share, 1)
            versus = c["bt_pool_ns"] / c["bt_socket_ns"] if c["bt_pool_ns"] and c["bt_socket_ns"] else None
            rows8c.append([f"`{w}`", *(pct(bd.get(x, 0), 1) for x in ("local", "1-hop", "2-hop", "pool")),
                           v[k + "bt_share"], show(versus, lambda x: f"{x:.2f}"),
                           show(c["directory_per_us"], lambda x: f"{x:.2f}"),
                           show(c["os_busy_share"], lambda x: pct(x, 2))])
    for key, xs in (("speedup", speed), ("t0_speedup", t0)):
        v[f"paper.geomean.{key}"] = show(geomean(xs.get(w) for w in covered))
    rows8.append(["geomean", v["paper.geomean.speedup"], "", v["paper.geomean.t0_speedup"], "", "", ""])
    v["paper.speedup_intervals"] = f"{significant} of {with_interval}"
    v["paper.fig8.table"] = table(["workload", "speedup (T16)", "95 % interval", "speedup (T0)", "AMAT reduction",
                                   "baseline AMAT ns (unloaded + contention)", "StarNUMA AMAT ns"], rows8)
    v["paper.fig8c.table"] = table(["workload", "local", "1-hop", "2-hop", "pool", "block transfers",
                                    "BT via pool / 3-hop BT latency", "pool directory transactions per us",
                                    "OS core busy (share of one core)"], rows8c)

    # The limit each workload-machine pair's figures use.
    keys = [(BASE, "baseline"), (STAR, "StarNUMA"), *FIG10, *FIG11, ("t0", "StarNUMA T0"),
            ("cached_tracking", "StarNUMA, trackers cached"),
            ("pool", "StarNUMA pool 1/17")]
    rows = [[f"`{w}`", *(show(best[w, key][2], pages) for key, _ in keys)] for w in R.workloads]
    v["paper.best_limit.table"] = table(["workload", *(label for _, label in keys)], rows)

    # Figs. 9-12: every series over the dynamic baseline, with the geomeans (Fig. 9 has none in the
    # paper); a series' values are named by its platform (Figs. 10, 11) or label.
    for fig in ("fig9", "fig10", "fig11", "fig12"):
        with_ci = lambda x, ci: show(x) + (f" ({ci[1]:.2f}-{ci[2]:.2f})" if ci else "")
        rows = [[f"`{w}`", *(with_ci(xs[w], cis[fig][label][w]) for label, xs in bars[fig].items())]
                for w in R.workloads]
        means = {label: show(geomean(xs.get(w) for w in covered)) for label, xs in bars[fig].items()}
        for key, label in BARS[fig][1]:
            name = key if key.startswith(("starnuma", "baseline")) else re.sub(r"[^a-z0-9]+", "_", label.lower())
            v[f"paper.{fig}.geomean.{name}"] = means[label]
            for w in R.workloads:
                v[f"paper.{fig}.{short(w)}.{name}"] = show(bars[fig][label][w])
        if fig != "fig9":
            rows.append(["geomean", *means.values()])
        v[f"paper.{fig}.table"] = table(["workload", *bars[fig]], rows)

    # The machines with their placement given: StarNUMA's oracle over the baseline's, the same window.
    oracles = {w: ratio(R.at("oracle", w, STAR), R.at("oracle", w, BASE)) for w in R.workloads}
    v["paper.fig9.oracle_speedup"] = show(geomean(oracles.get(w) for w in covered))
    amats = {w: ratio(R.at("oracle", w, STAR), R.at("oracle", w, BASE), "amat_ns") for w in R.workloads}
    v["paper.fig9.oracle_amat_reduction"] = show(1 - geomean(amats.get(w) for w in covered), pct)
    v["paper.fig9.oracle_speedup.range"] = show(min((x for w in covered if (x := oracles.get(w))), default=None)) + \
        " to " + show(max((x for w in covered if (x := oracles.get(w))), default=None))

    # What the 190 ns pool costs each workload: in proportion to the accesses the pool serves.
    rows = []
    slow = FIG10[0][0]
    for w in R.workloads:
        s, t = best[w, STAR][0], best[w, slow][0]
        share = lambda r: show(r and breakdown(r).get("pool", 0), lambda x: pct(x, 1))
        amat = lambda r: show(r and r["amat_ns"], lambda x: f"{x:.0f}")
        v[f"paper.fig10.{short(w)}.pool_share"] = share(s)
        rows.append([f"`{w}`", share(s), share(t), amat(s), amat(t), show(ratio(t, s))])
    v["paper.fig10.pool.table"] = table(["workload", "pool's share of accesses, StarNUMA", "the same, 190 ns pool",
                                         "AMAT ns, StarNUMA", "AMAT ns, 190 ns pool", "190 ns pool over StarNUMA"],
                                        rows)

    # Table IV: the share of moved pages that went to the pool, T16 and T0 each at its best limit.
    pool = lambda r: pct(r["migration"]["to_pool_fraction"]) if r and r["migration"]["pages_moved"] else "-"
    rows = [[f"`{w}`", pool(best[w, STAR][0]), pool(best[w, "t0"][0]), v[f"paper.{short(w)}.speedup"],
             v[f"paper.{short(w)}.t0_speedup"]] for w in R.workloads]
    v["paper.table4.table"] = table(["workload", "to the pool, T16", "to the pool, T0", "speedup, T16",
                                     "speedup, T0"], rows)

    # The migration limit: each machine at each limit over the baseline at its best; at 0 nothing
    # moves (T0 is not run there: with nothing moved its trackers do not matter).
    t0_limits = {int(R.rows[n]["sets"]["os.migration_limit"]) for w in R.workloads for n in R.names("t0", w)}
    columns = [(limit, who) for limit in R.limits
               for who in (BASE, STAR, *(("t0",) if limit in t0_limits else ()))]
    def cell(w, limit, who):
        part, platform = ("t0", STAR) if who == "t0" else ("dynamic", who)
        names = R.names(part, w, platform, limit)
        text = show(ratio(R.at(part, w, platform, limit), base(w)))
        return text + ("*" if text != "-" and not R.carried_out(names[0]) else "")

    rows = [[f"`{w}`", *(cell(w, limit, who) for limit, who in columns)] for w in R.workloads]
    label = {BASE: "baseline", STAR: "StarNUMA T16", "t0": "StarNUMA T0"}
    v["paper.limit.table"] = table(["workload", *(f"{label[who]} at {pages(limit)}" for limit, who in columns)], rows)
    v["paper.limit.not_carried_out"] = ", ".join(R.not_carried_out()) or "none"

    # What the tracking hardware costs: at limit 0 nothing moves on either machine, so StarNUMA's
    # pool holds nothing and what separates the two is its T16 trackers at work (docs/tracking.md).
    rows = []
    for w in R.workloads:
        base0, star0 = R.at("dynamic", w, BASE, 0), R.at("dynamic", w, STAR, 0)
        cost = ratio(star0, base0)
        cached0 = R.at("cached_tracking", w, STAR, 0)
        cached = paired_speedup(best[w, "cached_tracking"][0], base(w))
        v[f"paper.{short(w)}.tracking_cost"] = show(cost)
        v[f"paper.{short(w)}.cached_tracking_speedup"] = show(cached and cached[0])
        v[f"paper.{short(w)}.cached_tracking_limit"] = show(best[w, "cached_tracking"][2], pages)
        rows.append([f"`{w}`", show(base0 and base0["ipc"], lambda x: f"{x:.4f}"),
                     show(star0 and star0["ipc"], lambda x: f"{x:.4f}"), show(cost), show(ratio(cached0, base0)),
                     v[f"paper.{short(w)}.speedup"], v[f"paper.{short(w)}.cached_tracking_speedup"] +
                     (f" ({interval(cached)})" if cached else "")])
    v["paper.tracking_cost.table"] = table(
        ["workload", "baseline IPC, no migration", "StarNUMA IPC, no migration",
         "StarNUMA over baseline, no migration", "the same, trackers cached", "speedup (T16, best limits)",
         "speedup, trackers cached (best limits)"], rows)

    # Section V-G: one detailed socket against all detailed, the same machines at the same limit.
    rows, differences, inside = [], {}, {}
    for w in R.workloads:
        lights = {p: R.at("light", w, p) for p in (BASE, STAR)}
        limit = next((int(R.rows[n]["sets"]["os.migration_limit"]) for n in R.names("light", w, STAR)), None)
        light = ratio(lights[STAR], lights[BASE])
        full = ratio(R.at("dynamic", w, STAR, limit), R.at("dynamic", w, BASE, limit)) if limit is not None else None
        if light and full:
            differences[short(w)] = light / full - 1
            ci = paired_speedup(R.at("dynamic", w, STAR, limit), R.at("dynamic", w, BASE, limit))
            inside[short(w)] = bool(ci and ci[1] <= light <= ci[2])
        v[f"paper.{short(w)}.light_difference"] = show(differences.get(short(w)), lambda x: f"{100 * x:+.1f} %")
        rows.append([f"`{w}`", show(limit, pages), show(full), show(light), v[f"paper.{short(w)}.light_difference"]])
    eight = {k: x for k, x in differences.items() if k in {short(w) for w in covered}}
    widest = max(eight, key=lambda k: abs(eight[k]), default=None)
    v["paper.light.widest"] = (f"{100 * eight[widest]:+.1f} % ({widest})" if widest else "-")
    v["paper.light.within5"] = f"{sum(abs(x) <= 0.05 for x in eight.values())} of {len(eight)}"
    v["paper.light.inside_interval"] = f"{sum(inside[k] for k in eight)} of {len(eight)}"
    v["paper.light.table"] = table(["workload", "migration limit", "speedup, all sockets detailed",
                                    "speedup, one detailed socket", "difference"], rows)

    # Fig. 2: the sharing profile over the sampled span.
    rows = []
    for w in R.workloads:
        p = R(f"profile-{folder(w)}")
        if not p:
            rows.append([f"`{w}`", "-", "-"])
            continue
        wide = lambda d: sum(x for k, x in d.items() if int(k) > 8)
        rows.append([f"`{w}`", pct(wide(p["pages_by_sharers"]), 1), pct(wide(p["accesses_by_sharers"]), 1)])
    v["paper.fig2.table"] = table(["workload", "pages with more than 8 sharers", "their share of accesses"], rows)

    causes(R, v, best, covered, *comparison(R, v, best, bars, covered))
    missing = list(dict.fromkeys(R.missing))
    v["paper.missing"] = (", ".join(missing) if len(missing) <= MISSING_NAMED else
                          f"{len(missing)} runs (the runs not done yet: the table of parts above)") or "none"
    progress(R, v)
    for key, text in PAPER.items():
        v[f"paper.theirs.{key}"] = text
    return v


if __name__ == "__main__":
    import sys
    for name, text in values(sys.argv[1]).items():
        print(f"{name}:\n{text}\n" if "\n" in text else f"{name}: {text}")
