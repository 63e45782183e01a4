#!/usr/bin/env python3
"""Where the functional pass puts each thread against a continuous run (docs/sampling.md, "Paced by time").

For each case of a coverage study (experiments/coverage.sh) whose checkpoints were made with
`checkpoint --pace time` (CHECKPOINT_OPTIONS="--pace time"), each thread's instructions in the pass
from boundary 1 to the pass's end (the manifest's `phases[0].threads_instructions` and
`pace.threads`) beside each core's instructions in the first draw's run with the pass's moves over
the same span (CASE/counters/stats.json). Prints, per case: the coefficient of variation of the
threads' work in the run and in the paced pass, their correlation, and the threads' places' error
(root mean square, over the run's mean, each thread's pass work scaled to the run's mean) for the
paced pass and for equal turns, which give every thread the mean.

    python3 experiments/pace_positions.py STUDY [CASE_REGEX]
"""
import json
import math
import re
import statistics
import sys
from pathlib import Path


def run_work(stats_path):
    nodes = json.loads(stats_path.read_text())["stats"]["nodes"]
    return {f"{s}.{c}": v["instructions"] for s, sv in nodes.items() if s.startswith("socket")
            for c, v in sv.items() if c.startswith("core")}


def paced_work(manifest):
    pace = manifest.get("pace", {})
    if pace.get("by") != "time":
        return None
    if not manifest["phases"] or "threads_instructions" not in manifest["phases"][0]:
        return None  # made before the boundaries listed each thread's place
    start = manifest["phases"][0]["threads_instructions"]
    return {t["core"]: t["instructions"] - start[i] for i, t in enumerate(pace["threads"])}


def compare(run, paced):
    cores = sorted(run)
    r = [run[c] for c in cores]
    p = [paced[c] for c in cores]
    mr, mp = statistics.mean(r), statistics.mean(p)
    cov = sum((x - mp) * (y - mr) for x, y in zip(p, r))
    norm = math.sqrt(sum((x - mp) ** 2 for x in p) * sum((y - mr) ** 2 for y in r))
    paced_error = math.sqrt(statistics.mean([(x / mp * mr - y) ** 2 for x, y in zip(p, r)])) / mr
    turns_error = statistics.pstdev(r) / mr  # every thread at the mean
    return (statistics.pstdev(r) / mr, statistics.pstdev(p) / mp, cov / norm if norm else float("nan"),
            paced_error, turns_error)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    study = Path(argv[1])
    pattern = re.compile(argv[2] if len(argv) > 2 else ".")
    print("| case | run's CV | paced pass's CV | correlation | places' error, paced | equal turns |")
    print("|---|---|---|---|---|---|")
    for case in sorted(p for p in study.iterdir() if p.is_dir() and pattern.search(p.name)):
        manifest, stats = case / "manifest.json", case / "counters" / "stats.json"
        if not manifest.exists() or not stats.exists():
            continue
        paced = paced_work(json.loads(manifest.read_text()))
        if paced is None:
            print(f"pace_positions.py: {case.name}: its pass was not paced by time, or lists no thread's place "
                  "at boundary 1 (checkpoint --pace time)", file=sys.stderr)
            continue
        run_cv, pass_cv, corr, paced_error, turns_error = compare(run_work(stats), paced)
        print(f"| {case.name} | {run_cv:.2f} | {pass_cv:.2f} | {corr:.2f} | {paced_error:.2f} | {turns_error:.2f} |")


if __name__ == "__main__":
    main(sys.argv)
