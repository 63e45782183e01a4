"""Where a sampled run's windows and a continuous run differ (docs/sampling.md, "What drift explains"
and "Next", item 4): every counter of the statistics tree per 1 000 instructions, summed over the
units' windows (the boundaries' left out) and over the continuous run, each socket's or core's
counters added up by name; then each socket's IPC, the units' mean against the run's.

    python3 experiments/prototypes/windows_vs_continuous.py SAMPLE_OUT RUN_OUT [REGEX]

SAMPLE_OUT: `sample --out`'s folder (window-K/stats.json); RUN_OUT: `run --out`'s; REGEX keeps the
counters whose names match it (e.g. 'tracking|writebacks|memory\\.writes').
"""
import collections
import json
import pathlib
import re
import statistics
import sys


def counters(tree, path=""):
    for k, v in tree.items():
        name = f"{path}.{k}" if path else k
        if isinstance(v, dict):
            yield from counters(v, name)
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and not re.search(
                r"\.(mean|min|max)$|utilization|mean_wait|ipc$", name):
            yield re.sub(r"\d+", "N", name), v


def summed(runs):
    total = collections.Counter()
    for r in runs:
        for name, v in counters(r["stats"]):
            total[name] += v
    return total


def main(sampled: str, run: str, keep: str = "") -> int:
    windows = [json.loads(p.read_text()) for p in sorted(pathlib.Path(sampled).glob("window-*/stats.json"))]
    units = [w for w in windows if w.get("checkpoint_unit")]
    if not units:
        sys.exit(f"{sampled}: no unit's window (checkpoint --unit-every)")
    continuous = json.loads((pathlib.Path(run) / "stats.json").read_text())
    a, b = summed(units), summed([continuous])
    per = "nodes.socketN.coreN.instructions"
    print(f"{'per 1 000 instructions':70s} {'units':>12s} {'continuous':>12s} {'ratio':>7s}")
    for name in sorted(set(a) | set(b)):
        if not re.search(keep, name):
            continue
        x, y = 1e3 * a[name] / a[per], 1e3 * b[name] / b[per]
        if x or y:
            print(f"{name:70s} {x:12.4f} {y:12.4f} {x / y if y else float('inf'):7.2f}")
    sockets = continuous["ipc_per_socket"]
    print("\nsocket IPC: units' mean, continuous")
    for s in sockets:
        print(f"{s:10s} {statistics.mean(u['ipc_per_socket'][s] for u in units):7.3f} {sockets[s]:7.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
