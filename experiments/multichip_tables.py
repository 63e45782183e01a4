#!/usr/bin/env python3
"""Each program's speedup over first touch in experiments/multichip.yaml's sweep (the multi-chip
placement paper's Figs. 5 and 8): a Markdown table on stdout and, with --figure FILE, a bar chart.

   python3 experiments/multichip_tables.py SWEEP_DIR [--figure FILE.png]
"""
import json
import os
import sqlite3
import sys

POLICIES = [("FT", "first-touch", "algorithm1"), ("PI", "interleave", "algorithm1"), ("HY", "hybrid", "algorithm1"),
            ("UA", "usage-aware", "algorithm1"), ("DM", "first-touch", "balance"),
            ("UA+DM", "usage-aware", "balance")]


def load(sweep):
    """{mix: {policy: {program: stats}}} from the sweep's finished runs."""
    db = sqlite3.connect(os.path.join(sweep, "sweep.db"))
    runs = {}
    for workload, sets, status, stats_path in db.execute("SELECT workload, sets, status, stats_path FROM runs"):
        if status != "done":
            sys.exit(f"{sweep}: a run of {workload} is {status}; run the sweep again")
        sets = json.loads(sets)
        policy = next(p for p, alloc, rule in POLICIES
                      if sets["os.allocation"] == alloc and sets["os.migration"] == rule)
        with open(os.path.join(sweep, stats_path)) as f:
            stats = json.load(f)
        mix = os.path.splitext(os.path.basename(workload))[0].replace("multichip-", "")
        runs.setdefault(mix, {})[policy] = {"programs": stats["programs"],
                                            "moved": stats.get("migration", {}).get("pages_moved", 0)}
    return runs


def speedups(runs):
    """[(mix, program, {policy: FT time / policy time})] in the mixes' and programs' order."""
    rows = []
    for mix in sorted(runs):
        ft = runs[mix]["FT"]["programs"]
        for program in ft:
            rows.append((mix, program, {p: ft[program]["time_ns"] / runs[mix][p]["programs"][program]["time_ns"]
                                        for p, _, _ in POLICIES if p in runs[mix]}))
    return rows


def table(runs):
    names = [p for p, _, _ in POLICIES]
    lines = ["| mix | program | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for mix, program, s in speedups(runs):
        lines.append(f"| {mix} | {program} | " + " | ".join(f"{s[p]:.2f}" for p in names) + " |")
    lines.append("")
    lines.append("Pages DM and UA+DM moved: " + ", ".join(
        f"{mix} {runs[mix]['DM']['moved']} and {runs[mix]['UA+DM']['moved']}" for mix in sorted(runs)) + ".")
    return "\n".join(lines)


def figure(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = speedups(runs)
    names = [p for p, _, _ in POLICIES]
    fig, ax = plt.subplots(figsize=(10, 3.6))
    width = 0.8 / len(names)
    for k, p in enumerate(names):
        ax.bar([i + k * width for i in range(len(rows))], [s[p] for _, _, s in rows], width, label=p)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))])
    ax.set_xticklabels([f"{mix}\n{program}" for mix, program, _ in rows], fontsize=7)
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_ylabel("speedup over FT")
    ax.legend(ncol=len(names), fontsize=7, loc="upper right")
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--figure"):
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    print(table(runs))
    if len(sys.argv) == 4:
        figure(runs, sys.argv[3])


if __name__ == "__main__":
    main()
