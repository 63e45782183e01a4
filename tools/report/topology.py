"""Figures drawn on a platform's structure: link utilisation on the topology (describe.json plus a
run's stats.json) and the unloaded latency matrix (latency.json). Same conventions as figures.py."""
from __future__ import annotations

import json
import math

import matplotlib
import numpy as np
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap, Normalize
from matplotlib.lines import Line2D

import starnuma_results as sr
from figures import Skip, Sweep, new_figure

MAX_PANELS = 6  # platforms drawn per workload
PANEL_COLUMNS = 3
# plasma without its palest yellows, which vanish on white
LINK_CMAP = ListedColormap(matplotlib.colormaps["plasma"](np.linspace(0.0, 0.85, 256)))
NODE_STYLE = {  # kind -> marker, size, colour
    "socket": ("o", 120, "#4c78a8"),
    "router": ("s", 80, "#9d9d9d"),
    "pool": ("D", 220, "#54a24b"),
}


def node_kind(node: dict) -> str:
    t = node.get("type", "")
    return "socket" if t == "socket" else "pool" if "pool" in t else "router"


def positions(describe: dict) -> dict[str, tuple[float, float]]:
    """Sockets on the unit circle (clockwise from the top), each router inside, towards the sockets it
    links (evenly spread on a small circle when it links all or none of them), the pool in the centre."""
    nodes = describe.get("nodes", [])
    by_kind = {k: [n["name"] for n in nodes if node_kind(n) == k] for k in NODE_STYLE}
    pos = {}
    sockets = by_kind["socket"]
    for i, name in enumerate(sockets):
        a = math.pi / 2 - 2 * math.pi * i / max(1, len(sockets))
        pos[name] = (math.cos(a), math.sin(a))
    pools = by_kind["pool"]
    for i, name in enumerate(pools):
        a = 2 * math.pi * i / len(pools)
        r = 0.0 if len(pools) == 1 else 0.15
        pos[name] = (r * math.cos(a), r * math.sin(a))
    neighbours: dict[str, list[str]] = {}
    for link in describe.get("links", []):
        neighbours.setdefault(link["a"], []).append(link["b"])
        neighbours.setdefault(link["b"], []).append(link["a"])
    unplaced = []
    for name in by_kind["router"]:
        near = [pos[n] for n in neighbours.get(name, []) if n in sockets]
        x, y = (np.mean([p[0] for p in near]), np.mean([p[1] for p in near])) if near else (0.0, 0.0)
        if math.hypot(x, y) < 0.2:  # no direction to lean towards
            unplaced.append(name)
            continue
        a = math.atan2(y, x)
        for _ in range(60):  # routers serving the same sockets side by side (overlapping when crowded)
            if all(math.hypot(0.62 * math.cos(a) - px, 0.62 * math.sin(a) - py) >= 0.08 for px, py in pos.values()):
                break
            a += math.radians(6)
        pos[name] = (0.62 * math.cos(a), 0.62 * math.sin(a))
    for i, name in enumerate(unplaced):
        a = math.pi / 2 + 2 * math.pi * i / len(unplaced) + 0.3
        pos[name] = (0.35 * math.cos(a), 0.35 * math.sin(a))
    return pos


def utilisation(stats: dict) -> dict[str, float]:
    """Each link's utilisation in its busier direction: max(ab_utilization, ba_utilization)."""
    links = (stats.get("stats") or {}).get("links") or {}
    return {name: max(float(s.get("ab_utilization") or 0.0), float(s.get("ba_utilization") or 0.0))
            for name, s in links.items() if isinstance(s, dict)}


def topology_runs(sw: Sweep, workload: str) -> list[tuple[dict, dict, dict]]:
    """(run, describe, stats) for one done kind-run run per platform with this workload (the first at
    the other axes' first values, else the first), when its statistics have links and its platform a
    describe.json."""
    picked = {}
    rows = [r for r in sw.done if r["kind"] == "run" and r["workload"] == workload and r["platform_key"]]
    for r in sorted(rows, key=lambda r: not sw.at_default(r["params"])):
        if r["platform_name"] in picked or len(picked) >= MAX_PANELS:
            continue
        describe = sr.platform(sw.dir, r["platform_key"])["describe"]
        stats = sw.stats(r["name"])
        if describe and stats and utilisation(stats):
            picked[r["platform_name"]] = (r, describe, stats)
    return [picked[p] for p in sw.platforms([t[0] for t in picked.values()])]


def link_utilisation(sw: Sweep, workload: str):
    """Per-link utilisation of one run per platform, drawn on its topology, one colour scale."""
    runs = topology_runs(sw, workload)
    if not runs:
        raise Skip(f"{workload}: no done run with link statistics and a describe.json")
    utils = [utilisation(stats) for _, _, stats in runs]
    norm = Normalize(0.0, max([0.01] + [u for d in utils for u in d.values()]))
    ncols = min(PANEL_COLUMNS, len(runs))
    nrows = math.ceil(len(runs) / ncols)
    fig, axes = new_figure(4.2 * ncols + 1.2, 4.6 * nrows, ncols=ncols, nrows=nrows)
    for ax in axes[len(runs):]:
        ax.set_axis_off()
    data = {}
    for ax, (run, describe, _), util in zip(axes, runs, utils):
        pos = positions(describe)
        links = [l for l in describe.get("links", []) if l["a"] in pos and l["b"] in pos]
        segments = [[pos[l["a"]], pos[l["b"]]] for l in links]
        # the whole topology in light grey beneath, so that links without statistics still show
        ax.add_collection(LineCollection(segments, colors="#dddddd", linewidths=1.0, zorder=1))
        measured = [(l, s) for l, s in zip(links, segments) if l["name"] in util]
        lc = LineCollection([s for _, s in measured], cmap=LINK_CMAP, norm=norm, zorder=2, label=run["name"],
                            linewidths=[2.6 if l.get("type") == "cxl" else 1.8 for l, _ in measured])
        lc.set_array(np.array([util[l["name"]] for l, _ in measured]))
        ax.add_collection(lc)
        for kind, (marker, size, color) in NODE_STYLE.items():
            names = [n["name"] for n in describe.get("nodes", []) if node_kind(n) == kind and n["name"] in pos]
            if names:
                ax.scatter([pos[n][0] for n in names], [pos[n][1] for n in names], s=size, marker=marker, c=color,
                           zorder=3, label=kind, edgecolors="white")
            for n in names:
                x, y = pos[n]
                ax.annotate(n, (x, y), xytext=(0, -9), textcoords="offset points", ha="center", va="top", fontsize=5.5,
                            in_layout=False)
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.25, 1.25)
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_title(f"{run['platform_name']}\n{run['name']}", fontsize=8)
        data[run["name"]] = [[l["name"], util[l["name"]]] for l, _ in measured]
    kinds = {node_kind(n) for _, describe, _ in runs for n in describe.get("nodes", [])}
    handles = [Line2D([], [], linestyle="", marker=m, markersize=6, color=c, label=k)
               for k, (m, _, c) in NODE_STYLE.items() if k in kinds]
    axes[0].legend(handles=handles, loc="lower left", fontsize=6, frameon=False)
    fig.colorbar(ScalarMappable(norm, LINK_CMAP), ax=list(axes), shrink=0.8,
                 label="link utilisation, busier direction (fraction of bandwidth)")
    fig.suptitle(f"Link utilisation: {workload}")
    return fig, data


def latency_groups(sw: Sweep) -> list[list[str]]:
    """The runs' platform keys that have a latency.json, in run order, grouped by identical matrices
    (configurations differing only in, say, os.* overrides)."""
    groups: dict[str, list[str]] = {}
    for key in dict.fromkeys(sw.runs["platform_key"].dropna()):
        latency = sr.platform(sw.dir, key)["latency"]
        if latency and latency.get("latency_ns"):
            groups.setdefault(json.dumps(latency, sort_keys=True), []).append(key)
    return list(groups.values())


def latency_matrix(sw: Sweep, keys: list[str]):
    """The unloaded latency from every socket to every memory node of platforms/KEYS[0], as a heat
    map with values in ns; KEYS: the configurations sharing this matrix, named in the title."""
    latency = sr.platform(sw.dir, keys[0])["latency"]
    if not latency or not latency.get("latency_ns"):
        raise Skip(f"no platforms/{keys[0]}/latency.json")
    table = latency["latency_ns"]
    rows = latency.get("sockets") or list(table)
    cols = latency.get("nodes") or list(dict.fromkeys(c for r in table.values() for c in r))
    matrix = np.array([[_value(table.get(r, {}).get(c)) for c in cols] for r in rows], dtype=float)
    fig, (ax,) = new_figure(0.42 * len(cols) + 2.5, 0.32 * len(rows) + 1.6)
    image = ax.imshow(matrix, cmap="Blues", aspect="auto")
    high = np.nanmax(matrix) if np.isfinite(matrix).any() else 0
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isfinite(matrix[i, j]):
                # inside the axes: left out of the layout's bounding boxes, which is much faster
                ax.text(j, i, f"{matrix[i, j]:.0f}", ha="center", va="center", fontsize=6, in_layout=False,
                        color="white" if matrix[i, j] > 0.6 * high else "black")
    ax.set_xticks(range(len(cols)), cols, rotation=90, fontsize=7)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_xlabel("memory node")
    ax.set_ylabel("requesting socket")
    names = dict.fromkeys(r["platform_name"] for r in sw.runs.to_dict("records") if r["platform_key"] in keys)
    ax.set_title(f"Unloaded latency (ns): {', '.join(n for n in names if n)}\n({', '.join(keys)})", fontsize=9)
    fig.colorbar(image, ax=ax, label="unloaded latency (ns)")
    data = {r: [[c, _value(table.get(r, {}).get(c))] for c in cols] for r in rows}
    return fig, data


def _value(x):
    return float(x) if isinstance(x, (int, float)) else float("nan")
