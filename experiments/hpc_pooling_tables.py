#!/usr/bin/env python3
"""The tables of experiments/hpc_pooling.yaml's sweep (the CXL memory pooling paper's Figs. 8-13):
each job's performance against the share of its memory in the pool, the profiler's view of it
(footprint, bandwidth over time, and the largest pooled share within a slowdown), bandwidth
scaling over CXL links, and interference of hosts sharing a pool; Markdown on stdout, the numbers docs/validation.md quotes.

   python3 experiments/hpc_pooling_tables.py SWEEP_DIR
"""
from sweep_runs import main

SHARES = ["0", "0.25", "0.5", "0.75", "1"]


def job_of(workload):
    return workload.split("@")[0].split(":")[0]


def first_program_time(stats):
    programs = stats.get("programs")
    return (next(iter(programs.values()))["time_ns"] if programs else stats["sim_time_ns"]) / 1e3


def composed(runs, v):
    by_job = {}
    for name, workload, sets, stats in runs:
        if name.startswith("composed-"):
            by_job.setdefault(job_of(workload), {})[str(sets["os.cpuless_share"])] = stats
    lines = ["| job | " + " | ".join(f"{float(s) * 100:.0f} % pooled" for s in SHARES) +
             " | footprint | mean / peak GB/s | pooled within 10 % / 25 % |",
             "|---|" + "---|" * (len(SHARES) + 3)]
    for job, r in by_job.items():
        base = first_program_time(r["0"])
        perf = {s: base / first_program_time(r[s]) for s in SHARES}
        timeline = r["0"]["timeline"]["nodes"]
        pages = sum(n["pages"][-1] for n in timeline.values())
        bw = [sum(v) for v in zip(*(n["bandwidth_GBps"] for n in timeline.values()))]
        within = lambda limit: max(float(s) for s in SHARES if perf[s] >= 1 / (1 + limit))
        lines.append(f"| {job} | " + " | ".join(f"{perf[s]:.2f}" for s in SHARES) +
                     f" | {pages * 4 / 1024:.1f} MiB | {sum(bw) / len(bw):.1f} / {max(bw):.1f} |"
                     f" {within(0.10) * 100:.0f} % / {within(0.25) * 100:.0f} % |")
        for share in SHARES:
            v[f"composed.{job}.{float(share) * 100:.0f}"] = f"{perf[share]:.2f}"
            v[f"composed.{job}.{float(share) * 100:.0f}.change"] = f"{100 * (perf[share] - 1):+.0f} %"
        v[f"composed.{job}.mean_GBps"] = f"{sum(bw) / len(bw):.1f} GB/s"
    v["composed_table"] = "\n".join(lines)


def links(runs, v):
    by_job = {}
    for name, workload, sets, stats in runs:
        if name.startswith("links-"):
            k = sum(sets[f"nodes.pool{i}.numa_node"] in ("true", True) for i in range(3))
            by_job.setdefault(job_of(workload), {})[k] = stats["sim_time_ns"]
    lines = ["| job | local only | + 1 CXL link | + 2 | + 3 |", "|---|---|---|---|---|"]
    for job, t in by_job.items():
        lines.append(f"| {job} | 1.00 | " + " | ".join(f"{t[0] / t[k]:.2f}" for k in (1, 2, 3)) + " |")
        for k in (1, 2, 3):
            v[f"links.{job}.{k}"] = f"{t[0] / t[k]:.2f}x"
    v["links_table"] = "\n".join(lines)


def shared(runs, v):
    by_job = {}
    for name, workload, sets, stats in runs:
        if name.startswith("shared-"):
            hosts = workload.count("@")
            by_job.setdefault(job_of(workload), {})[hosts] = (first_program_time(stats),
                                                              stats["link_utilization"].get("upi", 0))
    lines = ["| job | 1 host | 2 hosts | 3 hosts |", "|---|---|---|---|"]
    upi = 0.0
    for job, t in by_job.items():
        lines.append(f"| {job} | 1.00 | " + " | ".join(f"{t[h][0] / t[1][0]:.2f}" for h in (2, 3)) + " |")
        upi = max(upi, *(x[1] for x in t.values()))
        for h in (2, 3):
            v[f"shared.{job}.{h}"] = f"{t[h][0] / t[1][0]:.2f}x"
    v["shared_table"] = "\n".join(lines)
    v["shared.upi"] = f"{upi * 100:.2f} %"


def values(runs):
    """The HPC pooling section's numbers (docs/validation.md.in's hpc_pooling.* names): three
    tables, and their cells by job (composed.{job}.{percent pooled}, links.{job}.{links},
    shared.{job}.{hosts})."""
    v = {}
    for study in (composed, links, shared):
        study(runs, v)
    return v


if __name__ == "__main__":
    main(__doc__, values)
