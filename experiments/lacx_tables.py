#!/usr/bin/env python3
"""The tables of experiments/lacx.yaml's sweep (the LACX paper's Figs. 6-10 and Table 3): execution
time under AutoNUMA and LACX, pages on the CXL node, and each node's bandwidth over the multi
case's run; Markdown on stdout, and with --figure FILE the bandwidth-over-time plot (its Fig. 10).

   python3 experiments/lacx_tables.py SWEEP_DIR [--figure FILE.png]
"""
from sweep_runs import grouped, main, save_figure, span


def by_name(finished):
    """{run name: stats} of the sweep's finished runs."""
    return {name: stats for name, _, _, stats in finished}


def time_us(stats):
    """The run's execution time: its last program's end."""
    programs = stats.get("programs")
    return (max(p["time_ns"] for p in programs.values()) if programs else stats["sim_time_ns"]) / 1e3


# The cases as the page names them, with the paper's change of execution time under LACX.
CASES = [("single-uniform-footprint16MiB-store_fraction0.5", "single: SHM-bench (`uniform`, 16 MiB)", "+14 %"),
         ("single-kv-keys200000-read_fraction0.5", "single: YCSB A (`kv`, 200 K keys)", "+12 %"),
         ("multi", "multi: shared + private beyond DRAM", "up to -3 %"),
         ("constrained-4388KiB", "constrained, sockets:CXL 2.5:1", "about 0"),
         ("constrained-3686KiB", "constrained, 1.5:1", "-2.1 %"),
         ("constrained-2458KiB", "constrained, 1:1.5", "-6.2 %")]
CONSTRAINED = [("constrained-4388KiB", "2.5:1"), ("constrained-3686KiB", "1.5:1"), ("constrained-2458KiB", "1:1.5")]


def change(runs, case):
    """LACX's change of execution time against AutoNUMA in `case`, as a fraction."""
    return time_us(runs[case + "-lacx"]) / time_us(runs[case + "-autonuma"]) - 1


def cxl_share(stats):
    return stats["access_breakdown"].get("pool", 0)


def pct(x, digits=1, sign=False):
    return f"{100 * x:{'+' if sign else ''}.{digits}f} %"


def cases_table(runs):
    lines = ["| case | AutoNUMA (us) | LACX (us) | LACX's change | the paper | pages LACX moved to CXL | "
             "CXL accesses LACX / AutoNUMA | fault time AutoNUMA / LACX (us) |", "|---|---|---|---|---|---|---|---|"]
    for case, label, paper in CASES:
        a, l = runs[case + "-autonuma"], runs[case + "-lacx"]
        lines.append(f"| {label} | {grouped(time_us(a))} | {grouped(time_us(l))} | {pct(change(runs, case), sign=True)} | "
                     f"{paper} | {grouped(l['migration']['to_cxl'])} | {pct(cxl_share(l))} / {pct(cxl_share(a))} | "
                     f"{grouped(a['migration']['fault_time_ns'] / 1e3)} / {grouped(l['migration']['fault_time_ns'] / 1e3)} |")
    return "\n".join(lines)


def node_bandwidth(runs, kernel):
    """{node: (mean, max) GB/s} over the multi case's timeline."""
    nodes = runs[f"multi-{kernel}"]["timeline"]["nodes"]
    return {node: (sum(s["bandwidth_GBps"]) / len(s["bandwidth_GBps"]), max(s["bandwidth_GBps"]))
            for node, s in nodes.items()}


def bandwidth_table(a, l):
    lines = ["| node | AutoNUMA mean / max GB/s | LACX mean / max GB/s |", "|---|---|---|"]
    for node in a:
        lines.append(f"| {node if node.startswith('socket') else 'CXL node'} | {a[node][0]:.2f} / {a[node][1]:.2f} | {l[node][0]:.2f} / {l[node][1]:.2f} |")
    lines.append(f"| all | {sum(m for m, _ in a.values()):.2f} | {sum(m for m, _ in l.values()):.2f} |")
    return "\n".join(lines)


def program_of(stats, workload_prefix):
    return next(p for p in stats["programs"].values() if p["workload"].startswith(workload_prefix))


def values(finished):
    """The LACX section's numbers (docs/validation.md.in's lacx.* names)."""
    runs = by_name(finished)
    singles = [c for c, _, _ in CASES[:2]]
    a, l = node_bandwidth(runs, "autonuma"), node_bandwidth(runs, "lacx")
    cxl = next(n for n in a if not n.startswith("socket"))
    constrained = [runs[f"{c}-{k}"] for c, _ in CONSTRAINED for k in ("autonuma", "lacx")]
    shared_25 = {k: program_of(runs[f"constrained-4388KiB-{k}"], "uniform")["amat_ns"] for k in ("autonuma", "lacx")}
    return {
        "cases_table": cases_table(runs),
        "bandwidth_table": bandwidth_table(a, l),
        "single.changes": " and ".join(pct(change(runs, c), sign=True) for c in singles),
        "single.pages": span([runs[c + "-lacx"]["migration"]["to_cxl"] for c in singles]),
        "single.autonuma_cxl": span([100 * cxl_share(runs[c + "-autonuma"]) for c in singles], "{:.1f}".format, " %"),
        "multi.cxl_gain": pct(l[cxl][0] / a[cxl][0] - 1, 0, sign=True),
        "multi.total_gain": pct(sum(m for m, _ in l.values()) / sum(m for m, _ in a.values()) - 1, 0, sign=True),
        "constrained.changes": ", ".join(f"{pct(change(runs, c), sign=True)} at {ratio}" for c, ratio in CONSTRAINED),
        "constrained.private_ms": span([program_of(r, "local")["time_ns"] / 1e6 for r in constrained], "{:.1f}".format, " ms"),
        "constrained.shared_amat_2.5": f"{shared_25['autonuma']:.0f} ns under AutoNUMA, {shared_25['lacx']:.0f} ns under LACX",
        "constrained.cxl_share": span([100 * cxl_share(runs[f"{c}-{k}"]) for c, _ in CONSTRAINED[1:]
                                       for k in ("autonuma", "lacx")], "{:.0f}".format, " %"),
    }


def figure(finished, path):
    runs = by_name(finished)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2), sharey=True)
    for ax, kernel in zip(axes, ["autonuma", "lacx"]):
        t = runs[f"multi-{kernel}"]["timeline"]
        times = [x / 1e3 for x in t["time_ns"]]
        for node, series in t["nodes"].items():
            ax.plot(times, series["bandwidth_GBps"], label=node)
        ax.set_title("AutoNUMA" if kernel == "autonuma" else "AutoNUMA with LACX", fontsize=9)
        ax.set_xlabel("simulated time (us)")
    axes[0].set_ylabel("bandwidth (GB/s)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)


if __name__ == "__main__":
    main(__doc__, values, figure)
