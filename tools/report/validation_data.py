"""Every number docs/validation.md and README's main job quote, computed from the database of one
sweep of experiments/validation.yaml (docs/reports.md, "docs/validation.md from one database"), and
from the companion papers' sweeps in its folder (DIR/multichip, DIR/lacx, ...), read through each
experiment's own table script (experiments/*_tables.py: values(runs)), and from the paper's own
evaluation, whose results are committed (experiments/results/paper; paper_data.py).

values(dir) returns {name: text}: scalars already formatted as the page prints them ("1.17x",
"12.5 %") and whole Markdown tables. validation_doc.py puts them into the page's template.
"""
from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

import main_job
import starnuma_results as sr

ROOT = Path(__file__).resolve().parents[2]
PAPER_RESULTS = ROOT / "experiments" / "results" / "paper"
RESULTS = ROOT / "experiments" / "results"
# Studies beyond the paper of the CXL device (docs/cxl-device.md), results committed in RESULTS/NAME:
# the CHMU against the trackers, QoS telemetry on a shared pool, dynamic capacity released under a workload.
COMMITTED = ["chmu", "qos", "dcd"]
sys.path.insert(0, str(ROOT / "experiments"))
from sweep_runs import finished_runs, grouped  # noqa: E402

# The companion papers' experiments: experiments/NAME.yaml swept into DIR/NAME, its numbers named
# NAME.* on the page.
COMPANIONS = ["multichip", "lacx", "hpc_pooling", "lmp"]

# The sweep file's workloads, as its runs are named (sr's folder names) and as the page shows them.
SAMPLED = ["bfs:scale=18,trials=100", "kv", "sharing"]
MIGRATION = SAMPLED
TABLE3 = ["sssp:scale=22,trials=2", "bfs:scale=22,trials=2", "cc:scale=22,trials=2", "tc:scale=22", "masstree",
          "tpcc", "fmi", "poa"]
# The StarNUMA paper's Table III: IPC per core on its baseline, on one socket, LLC MPKI.
PAPER_TABLE3 = {"sssp": (0.06, 0.56, 73), "bfs": (0.10, 0.69, 32), "cc": (0.14, 0.78, 17), "tc": (0.40, 1.7, 3.2),
                "masstree": (0.18, 0.89, 15), "tpcc": (0.41, 1.12, 4.8), "fmi": (0.61, 1.45, 2.6),
                "poa": (0.68, 0.68, 33)}
BASE, STAR = "baseline16-scaled", "starnuma16-scaled"
CONVERGENCE = [
    ("kv_starnuma_oracle", "kv, starnuma16-scaled, oracle, 100 K"),
    ("bfs16_baseline_oracle", "bfs:scale=16,trials=100, baseline16-scaled, oracle, 300 K"),
    ("bfs14_starnuma_dynamic", "bfs:scale=14,trials=100, starnuma16-scaled, dynamic, phases of 50 K, 200 K"),
    ("bfs14_baseline_dynamic", "bfs:scale=14,trials=100, baseline16-scaled, dynamic, phases of 50 K, 200 K"),
    ("uniform_baseline_first_touch_no_coherence",
     "uniform:footprint=64MiB, baseline16-scaled, first touch, no coherence, 100 K"),
    ("sharing_starnuma_oracle_no_coherence", "sharing, starnuma16-scaled, oracle, no coherence, 100 K"),
    ("mix_starnuma", "kv on sockets 0-7 and uniform on 8-15, starnuma16-scaled, first touch, 100 K"),
    ("sharing_baseline_first_touch", "sharing, baseline16-scaled, first touch, 100 K"),
    ("sharing_baseline_one_detailed_no_coherence",
     "sharing, baseline16-scaled, first touch, no coherence, socket 0 detailed and 15 light, 100 K"),
    ("bfs16_starnuma_one_detailed",
     "bfs:scale=16,trials=100, starnuma16-scaled, first touch, socket 0 detailed and 15 light, 300 K"),
]
# Chaotic cases and the seeds their convergence is the mean over (experiments/validation.yaml's
# part convergence-seeds; seed 1 is part convergence's run).
CONVERGENCE_SEEDS = {"bfs14_starnuma_dynamic": 6, "bfs14_baseline_dynamic": 6}
LIMITS = [0, 256, 1024, 4096]
UNLOADED = ["baseline16", "starnuma16", "starnuma8", "starnuma16-190ns", "starnuma16-switch", "starnuma32"]


def folder(text: str) -> str:
    """A run-name fragment as the sweep writes it: "bfs:scale=18,trials=100" -> "bfs-scale18-trials100"."""
    out = ""
    for c in text:
        if c.isalnum() or c in ".-_":
            out += c
        elif c in ":,":
            out += "-"
        elif c != "=":
            out += "_"
    return out


def short(workload: str) -> str:
    return workload.split(":")[0].split("@")[0]


# Formatting, one style for the whole page.
def times(x: float) -> str:
    return f"{x:.2f}x"


def pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f} %"


def geomean(xs) -> float:
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def amat_split(r: dict, digits: int = 1) -> str:
    return f"{grouped_ns(r['amat_ns'], digits)} ({r['amat_unloaded_ns']:.0f} + {r['amat_contention_ns']:.0f})"


def grouped_ns(x: float, digits: int = 1) -> str:
    whole, _, frac = f"{x:.{digits}f}".partition(".")
    return grouped(int(whole)) + ("." + frac if frac else "") + " ns"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def run_names() -> list:
    """Every run the studies read, as experiments/validation.yaml names them (the suite checks them
    against the sweep's dry run, and Results refuses a name that is not here)."""
    names = [f"main-{v}" for v in ("base", "t16", "rtl", "t0", "cache", "uncached", "perfect")]
    names += [f"sampled-{folder(w)}-{p}" for w in SAMPLED for p in (BASE, STAR)]
    names += [f"convergence-{case}-{q}" for case, _ in CONVERGENCE for q in ("100ns", "1ns")]
    names += [f"convergence-{case}-seed{seed}-{q}" for case, seeds in CONVERGENCE_SEEDS.items()
              for seed in range(2, seeds + 1) for q in ("100ns", "1ns")]
    names += [f"migration-{folder(w)}-{c}-{l}" for w in MIGRATION for c in ("perfect-base", "t16-star", "t0-star")
              for l in LIMITS]
    names += [f"migration-static-{folder(w)}-{p}-{placement}" for w in MIGRATION for p in (BASE, STAR)
              for placement in ("first-touch", "oracle")]
    names += [f"table3-{d}-{folder(w + where)}" for d in ("stall", "overlap") for w in TABLE3
              for where in ("", "@socket0")]
    names += [f"profile-{folder(w)}" for w in TABLE3]
    names += [f"unloaded-{p}" for p in UNLOADED]
    return list(dict.fromkeys(names))


class Results:
    """The sweep's done runs by name; a missing or unfinished run is an error naming it."""

    def __init__(self, dir: str | Path):
        self.dir = Path(dir)
        self.df = sr.load(self.dir)
        self.rows = {r["name"]: r for r in self.df.to_dict("records")}
        self._stats: dict = {}
        self._known = set(run_names())

    def __call__(self, name: str) -> dict:
        if name not in self._known:
            raise AssertionError(f"validation_data reads run {name}, which run_names() does not list")
        if name not in self._stats:
            row = self.rows.get(name)
            if row is None:
                raise SystemExit(f"{self.dir}: no run named {name}: is this a sweep of experiments/validation.yaml?")
            if row["status"] != "done":
                raise SystemExit(f"{self.dir}: run {name} is {row['status']}; run the sweep again to finish it")
            self._stats[name] = sr.stats(self.dir, name)
        return self._stats[name]

    def tracking_stall(self, name: str) -> float:
        """The share of the cores' cycles spent waiting for their socket's tracker."""
        r = self(name)
        described = sr.platform(self.dir, self.rows[name]["platform_key"])["describe"]
        sockets = {n["name"]: n["params"] for n in described["nodes"] if n["type"] == "socket"}
        stalled = cycles = 0.0
        for socket, params in sockets.items():
            stalled += r["stats"]["nodes"][socket].get("tracking", {}).get("core_stall_cycles", 0)
            cycles += params["cores"]["value"] * params["frequency"]["value"] * r["sim_time_ns"] * 1e-9
        return stalled / cycles

    def latency(self, name: str) -> dict:
        self(name)
        return sr.platform(self.dir, self.rows[name]["platform_key"])["latency"]["latency_ns"]


def pool_share(r: dict) -> float:
    b = r["access_breakdown"]
    return b.get("pool", 0) + b.get("bt-pool", 0)


def main_study(R: Results, v: dict) -> None:
    base = R("main-base")
    v["main.base.ipc"] = f"{base['ipc']:.3f}"
    v["main.base.amat"] = amat_split(base)
    v["main.base.pages"] = grouped(base["migration"]["pages_moved"])
    rows = []
    for variant, label in [("t16", "T16, metadata through the LLCs, coherent (the default)"),
                           ("rtl", "T16, the Verilated RTL (`impl=rtl`)"), ("t0", "T0 (`counter_bits=0`)"),
                           ("cache", "T16, a metadata cache per socket (`metadata_path=cache`)"),
                           ("uncached", "T16, metadata in memory only (`metadata_path=memory`)"),
                           ("perfect", "no trackers: perfect knowledge on both")]:
        r = R(f"main-{variant}")
        m = r["migration"]
        p = f"main.{variant}."
        v[p + "speedup"] = times(r["ipc"] / base["ipc"])
        v[p + "amat_reduction"] = pct(1 - r["amat_ns"] / base["amat_ns"], 1)
        v[p + "pages"] = grouped(m["pages_moved"])
        v[p + "to_pool"] = pct(m["to_pool_fraction"])
        v[p + "bt_pool"] = pct(r["access_breakdown"].get("bt-pool", 0))
        v[p + "tracking_stall"] = pct(R.tracking_stall(f"main-{variant}"), 2)
        rows.append([label, v[p + "speedup"], v[p + "amat_reduction"], amat_split(r), v[p + "pages"], v[p + "to_pool"]])
    v["main.table"] = table(["StarNUMA's tracking", "speedup", "AMAT reduction", "StarNUMA AMAT (unloaded + cont.)",
                             "pages moved", "to the pool"], rows)
    same = all(R("main-rtl")[k] == R("main-t16")[k] for k in ("ipc", "amat_ns"))
    v["main.rtl_equals_model"] = "the same to the last digit" if same else "**not** the same (a bug)"


def sampled_study(R: Results, v: dict) -> None:
    # Its own version: the part can be run again alone (`sweep --only 'sampled-*'`, validation_doc.py --sampled).
    meta = R.df.attrs["meta"]
    v["sampled.version"] = f"{meta.get('starnuma_version', '?')} (sources {str(meta.get('starnuma_sources', '?'))[:12]})"
    rows, speedups = [], []
    for w in SAMPLED:
        b, s = R(f"sampled-{folder(w)}-{BASE}"), R(f"sampled-{folder(w)}-{STAR}")
        k = f"sampled.{short(w)}."
        speedups.append(s["ipc"] / b["ipc"])
        v[k + "speedup"] = times(s["ipc"] / b["ipc"])
        v[k + "amat_reduction"] = pct(1 - s["amat_ns"] / b["amat_ns"], 1)
        v[k + "to_pool"] = pct(s["migration"]["to_pool_fraction"])
        # The execution's decisions (the manifest's phases), not the windows' copies (windows_copies),
        # which count a page again in each unit that carries it in flight.
        v[k + "pages"] = grouped(s["migration"]["pages_decided"])
        v[k + "base_pages"] = grouped(b["migration"]["pages_decided"])
        rows.append([f"`{w}`", v[k + "speedup"], v[k + "amat_reduction"], v[k + "to_pool"],
                     f"{b['ipc']:.4f}, {grouped_ns(b['amat_ns'], 0)}", f"{s['ipc']:.4f}, {grouped_ns(s['amat_ns'], 0)}"])
    v["sampled.geomean"] = times(geomean(speedups))
    rows.append(["geomean", v["sampled.geomean"], "", "", "", ""])
    # README's main job is the first workload's pair (experiments/sampled.sh's default)
    pair = [R(f"sampled-{folder(SAMPLED[0])}-{m}") for m in main_job.MACHINES]
    lines = []
    for m, r in zip(main_job.MACHINES, pair):  # the first phase's windows of each; the job prints them all
        header, *windows = main_job.window_lines(r)
        first = [w for w in windows if w.split()[0].split(".")[0] == "1"]
        lines += [f"== {m} ({main_job.KNOWLEDGE[m]}): ...", header, *first] + (["..."] if len(first) < len(windows) else [])
    v["readme.main_job"] = "\n".join(lines + main_job.summary_lines(*pair))
    v["sampled.table"] = table(["workload", "speedup", "AMAT reduction", "to the pool (Table IV)", "baseline IPC, AMAT",
                                "StarNUMA IPC, AMAT"], rows)


def convergence_study(R: Results, v: dict) -> None:
    """Each case at 100 ns against 1 ns, as Cases/Convergence checks it: one run each, within 2 %;
    a chaotic case (CONVERGENCE_SEEDS) seed by seed, the mean of the ratios within 2 % or three
    standard errors of that mean, whichever is wider."""
    def sample(case: str, quantum: str) -> dict[str, list[float]]:
        runs = [R(f"convergence-{case}-{quantum}")]
        runs += [R(f"convergence-{case}-seed{seed}-{quantum}") for seed in range(2, CONVERGENCE_SEEDS.get(case, 1) + 1)]
        return {what: [r[what] for r in runs] for what in ("ipc", "amat_ns")}

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs)

    def standard_error(xs: list[float]) -> float:
        if len(xs) < 2:
            return 0.0
        m = mean(xs)
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))

    rows, worst = [], (0.0, "")
    for case, label in CONVERGENCE:
        c, f = sample(case, "100ns"), sample(case, "1ns")
        seeds = len(c["ipc"])
        cells, bounds = [], []
        for what in ("ipc", "amat_ns"):
            # Seed by seed, as the test compares them: the seeds' own spread cancels in the ratio
            ratios = [a / b for a, b in zip(c[what], f[what])]
            gap = mean(ratios) - 1
            bound = max(0.02, 3 * standard_error(ratios))
            if abs(gap) > abs(worst[0]):
                worst = (gap, f"{'IPC' if what == 'ipc' else 'AMAT'} of {label.split(',')[0]}"
                         + (f", mean of {seeds} seeds, bound {100 * bound:.1f} %" if seeds > 1 else ""))
            cells.append(f"{100 * gap:+.1f} %")
            bounds.append(f"{100 * bound:.1f} %")
        fmt = lambda what, digits: f"{mean(c[what]):.{digits}f} / {mean(f[what]):.{digits}f}"
        rows.append([label + (f" (mean of {seeds} seeds)" if seeds > 1 else ""), fmt("ipc", 4), fmt("amat_ns", 1),
                     cells[0], cells[1], " / ".join(bounds) if seeds > 1 else "2 %"])
    v["convergence.table"] = table(["case", "IPC 100 ns / 1 ns", "AMAT 100 ns / 1 ns (ns)", "IPC gap", "AMAT gap",
                                    "bound (IPC / AMAT)"], rows)
    v["convergence.worst"] = f"{100 * worst[0]:+.1f} %"
    v["convergence.worst_what"] = worst[1]


def migration_study(R: Results, v: dict) -> None:
    configs = [("perfect-base", "baseline, perfect"), ("t16-star", "StarNUMA, T16"), ("t0-star", "StarNUMA, T0")]
    best, sweep = {}, {}
    for w in MIGRATION:
        for c, _ in configs:
            sweep[w, c] = {l: R(f"migration-{folder(w)}-{c}-{l}") for l in LIMITS}
            # the paper's choice: each workload and system at its best limit
            best[w, c] = max(LIMITS, key=lambda l: sweep[w, c][l]["ipc"])
    at_best = lambda w, c: sweep[w, c][best[w, c]]
    static = lambda w, p, placement: R(f"migration-static-{folder(w)}-{p}-{placement}")

    rows, t16s, t0s = [], [], []
    for w in MIGRATION:
        b = at_best(w, "perfect-base")
        s16, s0 = at_best(w, "t16-star"), at_best(w, "t0-star")
        t16s.append(s16["ipc"] / b["ipc"])
        t0s.append(s0["ipc"] / b["ipc"])
        k = f"migration.{short(w)}."
        v[k + "t16"], v[k + "t0"] = times(t16s[-1]), times(t0s[-1])
        v[k + "t16_amat_reduction"] = pct(1 - s16["amat_ns"] / b["amat_ns"])
        v[k + "t0_amat_reduction"] = pct(1 - s0["amat_ns"] / b["amat_ns"])
        v[k + "t16_limit"], v[k + "t0_limit"] = str(best[w, "t16-star"]), str(best[w, "t0-star"])
        rows.append([f"`{w}`", best[w, "perfect-base"], best[w, "t16-star"], v[k + "t16"], v[k + "t16_amat_reduction"],
                     best[w, "t0-star"], v[k + "t0"], v[k + "t0_amat_reduction"]])
    v["migration.t16_geomean"], v["migration.t0_geomean"] = times(geomean(t16s)), times(geomean(t0s))
    rows.append(["geomean", "", "", v["migration.t16_geomean"], "", "", v["migration.t0_geomean"], ""])
    v["migration.fig8"] = table(["workload", "baseline limit", "T16 limit", "T16 speedup", "T16 AMAT reduction",
                                 "T0 limit", "T0 speedup", "T0 AMAT reduction"], rows)

    rows = []
    for w in MIGRATION:
        m16, m0 = at_best(w, "t16-star")["migration"], at_best(w, "t0-star")["migration"]
        k = f"migration.{short(w)}."
        v[k + "t16_to_pool"], v[k + "t0_to_pool"] = pct(m16["to_pool_fraction"]), pct(m0["to_pool_fraction"])
        rows.append([f"`{w}`", v[k + "t16_to_pool"], v[k + "t0_to_pool"], grouped(m16["pages_moved"]),
                     grouped(m0["pages_moved"])])
    v["migration.table4"] = table(["workload", "T16", "T0", "T16 pages moved", "T0 pages moved"], rows)

    rows = []
    for w in MIGRATION:
        b = at_best(w, "perfect-base")["ipc"]
        cells = [static(w, p, placement)["ipc"] / b for p in (BASE, STAR) for placement in ("first-touch", "oracle")]
        k = f"migration.{short(w)}."
        v[k + "oracle_base"], v[k + "oracle_star"] = times(cells[1]), times(cells[3])
        rows.append([f"`{w}`", *(times(x) for x in cells), times(at_best(w, "t16-star")["ipc"] / b)])
    v["migration.fig9"] = table(["workload", "baseline, first touch", "baseline, oracle", "StarNUMA, first touch",
                                 "StarNUMA, oracle", "StarNUMA, T16"], rows)

    rows = []
    for w in MIGRATION:
        for c, label in configs:
            cells = []
            for l in LIMITS:
                x = sweep[w, c][l]
                cells.append(f"{x['ipc']:.4f}, {x['amat_ns']:.0f} ns, {pct(pool_share(x))}")
                v[f"migration.{short(w)}.{c}.{l}.ipc"] = f"{x['ipc']:.4f}"
                if c != "perfect-base" and l == 0:
                    stall = R.tracking_stall(f"migration-{folder(w)}-{c}-{l}")
                    v[f"migration.{short(w)}.{c}.tracking_stall"] = pct(stall, 1)
            rows.append([f"`{w}`", label, *cells])
    v["migration.limits"] = table(["workload", "configuration", *(f"L = {l}" for l in LIMITS)], rows)


def table3_study(R: Results, v: dict) -> None:
    def ipc_mpki(w: str, dependent: str) -> tuple[float, float]:
        s = R(f"table3-{dependent}-{folder(w)}")
        ipc = next(iter(s["programs"].values()))["ipc"] if "@" in w else s["ipc"]
        return ipc, 1000 * s["llc_misses"] / s["instructions"]

    rows = []
    for w in TABLE3:
        k = short(w)
        paper_ipc, paper_ipc1, paper_mpki = PAPER_TABLE3[k]
        # The cores' default, `overlap`, and `stall` beside it
        (i, m), (i1, m1) = ipc_mpki(w, "overlap"), ipc_mpki(w + "@socket0", "overlap")
        (o, _), (o1, _) = ipc_mpki(w, "stall"), ipc_mpki(w + "@socket0", "stall")
        v[f"table3.{k}.ipc"], v[f"table3.{k}.ipc1"], v[f"table3.{k}.mpki"] = f"{i:.3f}", f"{i1:.3f}", f"{m:.1f}"
        v[f"table3.{k}.overlap_gain"] = pct(i / o - 1)
        rows.append([k, f"{paper_ipc} ({paper_ipc1})", f"{i:.3f} ({i1:.3f})", f"{o:.3f} ({o1:.3f})", paper_mpki,
                     f"{m:.1f} ({m1:.1f})"])
    # What the causes below the table quote, from the same runs
    for w in TABLE3:
        k = short(w)
        for where, cores, suffix in (("", 64, ""), ("@socket0", 4, "1")):
            r = R(f"table3-overlap-{folder(w + where)}")
            ipc, mpki = ipc_mpki(w + where, "overlap")
            # Little's law: misses in flight per core = miss rate x miss latency
            v[f"table3.{k}.in_flight{suffix}"] = f"{r['llc_misses'] / r['sim_time_ns'] * r['amat_ns'] / cores:.1f}"
            v[f"table3.{k}.amat{suffix}"] = f"{r['amat_ns']:.0f} ns"
            v[f"table3.{k}.contention{suffix}"] = f"{r['amat_contention_ns']:.0f} ns"
            v[f"table3.{k}.bt{suffix}"] = pct(r["access_breakdown"].get("bt-socket", 0) +
                                              r["access_breakdown"].get("bt-pool", 0))
            v[f"table3.{k}.instructions_per_miss{suffix}"] = f"{1000 / mpki:.0f}"
            v[f"table3.{k}.cycles_per_miss{suffix}"] = f"{1000 / mpki / ipc:.0f}"
        o = R(f"table3-stall-{folder(w)}")
        v[f"table3.{k}.in_flight_stall"] = f"{o['llc_misses'] / o['sim_time_ns'] * o['amat_ns'] / 64:.1f}"
    v["table3.table"] = table(["workload", "IPC (one socket), paper", "ours", "ours, dependent loads stall",
                               "MPKI, paper", "ours (one socket)"], rows)


def profile_study(R: Results, v: dict) -> None:
    def share(d: dict, test) -> float:
        return sum(n for k, n in d.items() if test(int(k))) / max(1, sum(d.values()))

    rows = []
    for w in TABLE3:
        p = R(f"profile-{folder(w)}")
        pages, accesses = p["pages_by_sharers"], p["accesses_by_sharers"]
        cells = [share(pages, lambda k: k == 1), share(pages, lambda k: k > 8), share(accesses, lambda k: k > 8),
                 share(pages, lambda k: k == 16), share(accesses, lambda k: k == 16), p["read_only_pages"],
                 p["read_only_accesses"]]
        for name, x in zip(["one", "over8", "over8_accesses", "all", "all_accesses", "read_only", "read_only_accesses"],
                           cells):
            v[f"profile.{short(w)}.{name}"] = pct(x, 1)
        rows.append([short(w), *(pct(x, 1) for x in cells)])
    v["profile.table"] = table(["workload", "pages with 1 sharer", "> 8 sharers: pages", "accesses", "all 16: pages",
                                "accesses", "read-only pages", "their accesses"], rows)


def unloaded_study(R: Results, v: dict) -> None:
    lat = lambda platform, to, frm="socket0": R.latency(f"unloaded-{platform}")[frm][to]
    ns = lambda x: f"{x:.0f} ns"
    v["unloaded.local"] = ns(lat("baseline16", "socket0"))
    v["unloaded.chassis"] = ns(lat("baseline16", "socket1"))
    v["unloaded.remote"] = ns(lat("baseline16", "socket4"))
    v["unloaded.pool16"] = ns(lat("starnuma16", "pool"))
    v["unloaded.pool8"] = ns(lat("starnuma8", "pool"))
    v["unloaded.pool190"] = ns(lat("starnuma16-190ns", "pool"))
    v["unloaded.switch"] = ns(lat("starnuma16-switch", "pool"))
    v["unloaded.switch32"] = ns(lat("starnuma32", "pool"))


def shortfall_study(R: Results, v: dict) -> None:
    """Every run of the sweep that did less than it asked, in its own words (docs/decisions.md)."""
    rows = []
    for name in run_names():
        for what in R(name).get("shortfalls") or []:
            rows.append([f"`{name}`", what.replace("|", "/")])
    v["shortfalls.count"] = str(len({r[0] for r in rows}))
    v["shortfalls.table"] = table(["run", "what it did short of what it asked"], rows) if rows else "None."


def study_values(name: str, sweep: Path) -> dict:
    """The values experiments/NAME_tables.py makes of its sweep in `sweep`, named NAME.*."""
    if not (sweep / "sweep.db").is_file():
        raise SystemExit(f"{sweep}: no sweep of experiments/{name}.yaml; `bash experiments/validation.sh` runs it")
    study = importlib.import_module(f"{name}_tables")
    v = {f"{name}.version": str(sr.load(sweep).attrs["meta"].get("starnuma_version", "?"))}
    v.update({f"{name}.{key}": text for key, text in study.values(finished_runs(str(sweep))).items()})
    return v


def committed_values(name: str, sweep: str | Path | None = None) -> dict:
    """The values of a study beyond the paper whose results are committed in
    experiments/results/NAME like the paper's (COMMITTED), or in `sweep`."""
    return study_values(name, Path(sweep) if sweep else RESULTS / name)


def companion_values(dir: str | Path) -> dict:
    """Every companion experiment's values, from its sweep in DIR/NAME (the names it is missing
    make the template's error)."""
    v = {}
    for name in COMPANIONS:
        v.update(study_values(name, Path(dir) / name))
    for name in COMMITTED:
        v.update(committed_values(name))
    # The paper's own evaluation (experiments/paper.yaml; its values are named paper.* already): its
    # results are committed, since its sweep takes longer than a working session here
    # (experiments/results/README.md).
    if not (PAPER_RESULTS / "sweep.db").is_file():
        raise SystemExit(f"{PAPER_RESULTS}: no sweep of experiments/paper.yaml; `bash experiments/validation.sh` runs it")
    import paper_data
    v.update(paper_data.values(PAPER_RESULTS))
    return v


STUDIES = [main_study, sampled_study, convergence_study, migration_study, table3_study,
           profile_study, unloaded_study, shortfall_study]


def sampled_values(dir: str | Path) -> dict:
    """The sampled part's values (README's main job among them) from a sweep of
    experiments/validation.yaml that ran it, perhaps alone (`sweep --only 'sampled-*'`)."""
    v: dict = {}
    sampled_study(Results(dir), v)
    return v


def values(dir: str | Path) -> dict:
    R = Results(dir)
    v = {"sweep.version": str(R.df.attrs["meta"].get("starnuma_version", "?"))}
    for study in STUDIES:
        study(R, v)
    v.update(companion_values(dir))
    return v
