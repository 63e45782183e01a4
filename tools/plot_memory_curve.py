#!/usr/bin/python3
"""Plots bandwidth-latency curves written by `starnuma memory-curve --json` (docs/memory.md).

    python3 tools/plot_memory_curve.py OUT.png CURVE.json [CURVE.json ...] [--reference]

Each curve is its open-loop points (achieved GB/s against mean read latency in the controller);
its closed-form limits are drawn as vertical lines in the curve's colour. --reference adds the
StarNUMA artifact's DRAMsim3 curve for random reads on one DDR5-4800 channel. The figure is written
atomically (a temporary file renamed into place).
"""
import json
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# DRAMsim3, DDR5-4800, one channel (two subchannels), close page, random reads with Poisson
# arrivals: (achieved GB/s, mean read latency ns) at 10, 30, 50, 70, 80, 90, 100 % offered load.
REFERENCE = [(3.8, 68), (11.2, 81), (18.5, 105), (25.3, 149), (29.0, 208), (32.2, 327), (33.4, 328)]


def main(argv):
    args = [a for a in argv if a != "--reference"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    out, inputs = args[0], args[1:]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path, colour in zip(inputs, plt.rcParams["axes.prop_cycle"].by_key()["color"]):
        with open(path) as f:
            curve = json.load(f)
        points = [p for p in curve["points"] if not p["closed_loop"]]
        label = f'{curve["node"]} {curve["pattern"]}, {100 * curve["write_fraction"]:.0f} % writes ({os.path.basename(path)})'
        ax.plot([p["achieved_GBps"] for p in points], [p["mean_read_latency_ns"] for p in points], "o-",
                color=colour, label=label)
        bounds = curve["bounds_GBps"]
        ax.axvline(bounds["peak"], color=colour, linestyle=":", linewidth=1)
        ax.axvline(bounds["bound"], color=colour, linestyle="--", linewidth=1)
    if "--reference" in argv:
        ax.plot([p[0] for p in REFERENCE], [p[1] for p in REFERENCE], "s--", color="black",
                label="reference (DRAMsim3, random reads)")
    ax.set_xlabel("achieved bandwidth (GB/s); dotted: peak, dashed: closed-form bound")
    ax.set_ylabel("mean read latency in the controller (ns)")
    ax.set_ylim(0, 450)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=os.path.dirname(os.path.abspath(out)))
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
