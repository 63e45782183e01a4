#!/usr/bin/python3
"""Draws `starnuma mlc --plot`'s figure: the model's MLC measurements beside real machines'.

    python3 tools/report/plot_mlc.py OUT.png DATA.json

DATA is what `starnuma mlc --plot` writes: {"title": ..., "series": [{"label", "peak_injection":
[{"mix", "MBps"}], "loaded_latency": [{"MBps", "mean_latency_ns", "p99_latency_ns"?}]}]}, the model
first, then each --against file as read by starnuma's MLC reader (docs/hardware.md). Left, the
loaded-latency curves (mean latency against bandwidth; the model's p99 dashed); right, the peak
injection bandwidth per read-write mix, one bar per series. The figure is written atomically (a
temporary file renamed into place).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _interpreter  # noqa: E402

_interpreter.ensure(("matplotlib",), "starnuma mlc --plot")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def draw(data, out):
    series = data["series"]
    fig, (curve, peaks) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        points = sorted(s.get("loaded_latency", []), key=lambda p: p["MBps"])
        if points:
            gbps = [p["MBps"] / 1000 for p in points]
            curve.plot(gbps, [p["mean_latency_ns"] for p in points], "o-", color=color, ms=3, label=s["label"])
            if all("p99_latency_ns" in p for p in points):
                curve.plot(gbps, [p["p99_latency_ns"] for p in points], "--", color=color, lw=1,
                           label=s["label"] + " (p99)")
    curve.set_xlabel("bandwidth (GB/s)")
    curve.set_ylabel("read latency (ns)")
    curve.set_title("Loaded latency")
    curve.grid(alpha=0.3)
    curve.legend(fontsize=7)

    mixes = []
    for s in series:
        for m in s.get("peak_injection", []):
            if m["mix"] not in mixes:
                mixes.append(m["mix"])
    width = 0.8 / max(1, len(series))
    for i, s in enumerate(series):
        by_mix = {m["mix"]: m["MBps"] / 1000 for m in s.get("peak_injection", [])}
        xs = [k + (i - (len(series) - 1) / 2) * width for k, mix in enumerate(mixes) if mix in by_mix]
        ys = [by_mix[mix] for mix in mixes if mix in by_mix]
        peaks.bar(xs, ys, width, color=COLORS[i % len(COLORS)], label=s["label"])
    peaks.set_xticks(range(len(mixes)))
    peaks.set_xticklabels([m.replace(" Reads-Writes", "") for m in mixes], fontsize=8)
    peaks.set_ylabel("peak bandwidth (GB/s)")
    peaks.set_title("Peak injection bandwidth per mix")
    peaks.grid(axis="y", alpha=0.3)
    fig.suptitle(data.get("title", ""), fontsize=9)
    fig.tight_layout()
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=120)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's file is private; the figure is not
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1]) as f:
        data = json.load(f)
    draw(data, argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
