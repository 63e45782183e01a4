#!/usr/bin/env python3
"""What experiments/paper.yaml costs, from measured runs (docs/cluster.md).

Reads a finished sweep of experiments/paper-cost.yaml, fits host seconds = fixed + slope x work per
workload and kind of run (work: instructions per thread; a functional pass: phases x phase
instructions), lists paper.yaml's runs with `starnuma sweep --dry-run`, and adds them up: core
hours, the longest run, and the wall time here and on a 64-node cluster.

    python3 experiments/paper_cost.py COST_DIR [--starnuma build/starnuma] [--spec experiments/paper.yaml] [--paper-sizes]

--paper-sizes prices the same runs at the paper's own lengths (its section IV-A: 10 phases of 1 B
instructions per thread, a 100 M window after 20 M of warm-up each; static runs of 100 M after
20 M; profiles of 1 B), extrapolating the per-instruction costs measured at small sizes.
"""
import argparse
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fit(points):
    """Least squares through two or more (work, seconds) points: (fixed, per unit of work)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    slope = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else 0.0
    return max(0.0, my - slope * mx), max(0.0, slope)


def models(cost_dir):
    db = sqlite3.connect(f"file:{os.path.join(cost_dir, 'sweep.db')}?mode=ro", uri=True)
    rows = db.execute("SELECT workload, instructions, host_seconds, sets, params FROM runs WHERE status = 'done'").fetchall()
    points = {}
    for workload, instructions, seconds, sets, params in rows:
        part = json.loads(params)["part"]
        work = instructions
        if part == "pass":
            work = 2 * int(json.loads(sets)["os.phase_instructions"])  # two checkpoints
        points.setdefault((part, workload), []).append((work, seconds))
    return {key: fit(p) for key, p in points.items() if len(p) >= 2}


def option(argv, flag, default=None):
    return argv[argv.index(flag) + 1] if flag in argv else default


def paper_runs(starnuma, spec):
    with tempfile.TemporaryDirectory() as out:
        text = subprocess.run([starnuma, "sweep", spec, "--out", os.path.join(out, "s"), "--dry-run"],
                              check=True, capture_output=True, text=True).stdout
    for line in text.splitlines()[1:]:
        name, command = line.split()[0], line.split(" to run ", 1)[1].strip()
        yield name, [shlex.split(c) for c in command.split(" && ")]


# The paper's lengths (per thread), for --paper-sizes.
PAPER = {"checkpoints": 10, "phase": 1_000_000_000, "window": 100_000_000, "warmup": 20_000_000,
         "profile": 1_000_000_000}


def cost(commands, fitted, paper_sizes=False):
    first = commands[0]
    kind = first[1]
    workload = option(first, "--workload")
    if kind == "profile":
        fixed, slope = fitted[("profile", workload)]
        return fixed + slope * (PAPER["profile"] if paper_sizes else int(option(first, "--instructions", "10000000")))
    run_fixed, run_slope = fitted[("run", workload)]
    if kind == "run":
        work = PAPER["window"] + PAPER["warmup"] if paper_sizes else \
            int(option(first, "--instructions")) + int(option(first, "--warmup", "0"))
        return run_fixed + run_slope * work
    # sampled: the functional pass, then `sample`, which builds the workload once and forks one
    # window per checkpoint. Part pass measured a pass of 2 checkpoints with their `sample` (its
    # build and 2 windows of 1,000 instructions); each further window costs a run's set-up without
    # the build (a run's fixed cost less a profile's, which is the build and little else) and each
    # window its instructions.
    windows = commands[1]
    checkpoints = int(option(first, "--checkpoints"))
    phase = next(int(a.split("=", 1)[1]) for a in first if a.startswith("os.phase_instructions="))
    window = int(option(windows, "--instructions")) + int(option(windows, "--warmup", "0"))
    if paper_sizes:
        checkpoints, phase, window = PAPER["checkpoints"], PAPER["phase"], PAPER["window"] + PAPER["warmup"]
    fixed, slope = fitted[("pass", workload)]
    window_setup = max(0.0, run_fixed - fitted[("profile", workload)][0])
    return fixed + slope * checkpoints * phase + max(0, checkpoints - 2) * window_setup + \
        checkpoints * run_slope * window


def hours(seconds):
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cost_dir")
    parser.add_argument("--starnuma", default=os.path.join(ROOT, "build", "starnuma"))
    parser.add_argument("--spec", default=os.path.join(ROOT, "experiments", "paper.yaml"))
    parser.add_argument("--paper-sizes", action="store_true", help="price the runs at the paper's own lengths")
    args = parser.parse_args()
    fitted = models(args.cost_dir)
    runs = [(name, cost(commands, fitted, args.paper_sizes)) for name, commands in paper_runs(args.starnuma, args.spec)]
    total = sum(c for _, c in runs)
    longest = max(runs, key=lambda r: r[1])
    cores = os.cpu_count() or 1
    print(f"{len(runs)} runs, {hours(total)} of one core in all; the longest: {longest[0]} ({hours(longest[1])})")
    print("| where | runs at once | wall time |")
    print("|---|---|---|")
    for where, parallel in ((f"this machine ({cores} cores)", cores), ("64 nodes, one run per node", 64),
                            ("64 nodes of 32 cores, one run per core", 64 * 32)):
        # Longest first keeps the tail short: the wall time is at least the longest run.
        print(f"| {where} | {parallel} | {hours(max(total / parallel, longest[1]))} |")


if __name__ == "__main__":
    sys.exit(main())
