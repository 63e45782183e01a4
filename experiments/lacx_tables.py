#!/usr/bin/env python3
"""The tables of experiments/lacx.yaml's sweep (the LACX paper's Figs. 6-10 and Table 3): execution
time under AutoNUMA and LACX, pages on the CXL node, and each node's bandwidth over the multi
case's run; Markdown on stdout, and with --figure FILE the bandwidth-over-time plot (its Fig. 10).

   python3 experiments/lacx_tables.py SWEEP_DIR [--figure FILE.png]
"""
from sweep_runs import main, save_figure


def by_name(finished):
    """{run name: stats} of the sweep's finished runs."""
    return {name: stats for name, _, _, stats in finished}


def time_us(stats):
    """The run's execution time: its last program's end."""
    programs = stats.get("programs")
    return (max(p["time_ns"] for p in programs.values()) if programs else stats["sim_time_ns"]) / 1e3


def row(label, a, l):
    ta, tl = time_us(a), time_us(l)
    ma, ml = a["migration"], l["migration"]
    return (f"| {label} | {ta:.0f} | {tl:.0f} | {100 * (tl / ta - 1):+.1f} % | {ml['to_cxl']} | "
            f"{100 * l['access_breakdown'].get('pool', 0):.1f} % / {100 * a['access_breakdown'].get('pool', 0):.1f} % | "
            f"{ma['fault_time_ns'] / 1e3:.0f} / {ml['fault_time_ns'] / 1e3:.0f} |")


def tables(finished):
    runs = by_name(finished)
    head = ["| case | AutoNUMA (us) | LACX (us) | LACX's change | pages LACX moved to CXL | CXL accesses LACX / AutoNUMA | fault time AutoNUMA / LACX (us) |",
            "|---|---|---|---|---|---|---|"]
    lines = list(head)
    for name in sorted(runs):
        if not name.endswith("-autonuma"):
            continue
        base = name[: -len("-autonuma")]
        if base + "-lacx" in runs:
            lines.append(row(base, runs[name], runs[base + "-lacx"]))
    lines += ["", "| node | AutoNUMA mean / max GB/s | LACX mean / max GB/s |", "|---|---|---|"]
    a, l = runs["multi-autonuma"]["timeline"], runs["multi-lacx"]["timeline"]
    total_a = total_l = 0.0
    for node in a["nodes"]:
        ba, bl = a["nodes"][node]["bandwidth_GBps"], l["nodes"][node]["bandwidth_GBps"]
        ma, ml = sum(ba) / len(ba), sum(bl) / len(bl)
        total_a += ma
        total_l += ml
        lines.append(f"| {node} | {ma:.2f} / {max(ba):.2f} | {ml:.2f} / {max(bl):.2f} |")
    lines.append(f"| all | {total_a:.2f} | {total_l:.2f} |")
    return "\n".join(lines)


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
    main(__doc__, tables, figure)
