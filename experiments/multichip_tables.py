#!/usr/bin/env python3
"""Each program's speedup over first touch in experiments/multichip.yaml's sweep (the multi-chip
placement paper's Figs. 5 and 8), and the numbers docs/validation.md quotes from it: a Markdown table on stdout and, with --figure FILE, a bar chart.

   python3 experiments/multichip_tables.py SWEEP_DIR [--figure FILE.png]
"""
import os

from sweep_runs import grouped, main, save_figure, span

POLICIES = [("FT", "first-touch", "algorithm1"), ("PI", "interleave", "algorithm1"), ("HY", "hybrid", "algorithm1"),
            ("UA", "usage-aware", "algorithm1"), ("DM", "first-touch", "balance"),
            ("UA+DM", "usage-aware", "balance")]


def by_mix(finished):
    """{mix: {policy: {programs, moved}}} from the sweep's finished runs."""
    runs = {}
    for _, workload, sets, stats in finished:
        policy = next(p for p, alloc, rule in POLICIES
                      if sets["os.allocation"] == alloc and sets["os.migration"] == rule)
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
    return "\n".join(lines)


def values(finished):
    """The multi-chip section's numbers (docs/validation.md.in's multichip.* names): the table, and
    each program's speedup ({mix}.{program}.{policy}: "1.64x"), AMAT ({mix}.{program}.{policy}.amat)
    and the pages each dynamic policy moved ({mix}.{policy}.moved)."""
    runs = by_mix(finished)
    v = {"table": table(runs)}
    for mix, program, s in speedups(runs):
        for policy, x in s.items():
            v[f"{mix}.{program}.{policy}"] = f"{x:.2f}x"
            v[f"{mix}.{program}.{policy}.amat"] = f"{runs[mix][policy]['programs'][program]['amat_ns']:.0f} ns"
    for mix in runs:
        for policy in ("DM", "UA+DM"):
            v[f"{mix}.{policy}.moved"] = grouped(runs[mix][policy]["moved"])
    rows = speedups(runs)

    def over(policies, programs):
        return span([s[p] for _, program, s in rows if program in programs for p in policies], "{:.2f}x".format)

    v["PI.big"] = over(["PI"], ["big"])
    v["PI.compute"] = over(["PI"], ["compute"])
    v["PI.chasing"] = over(["PI"], ["chasing"])
    v["HY_UA.others"] = over(["HY", "UA"], ["streaming", "chasing", "compute"])
    v["FT.chasing.amat"] = span([runs[m]["FT"]["programs"]["chasing"]["amat_ns"] for m in runs], unit=" ns")
    return v


def figure(finished, path):
    runs = by_mix(finished)
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
    save_figure(fig, path)


if __name__ == "__main__":
    main(__doc__, values, figure)
