#!/usr/bin/env python3
"""Draws one transaction of a `run --trace-transactions` file as a waterfall: one row per step of
its critical path, from the miss's issue to its data, each named by the component it crosses
(docs/debugging.md). For a quick
look without a browser; Perfetto (ui.perfetto.dev) or chrome://tracing open the whole file.

    plot_transaction.py TRACE.json OUT.png [--path bt-pool] [--index N]

--path picks the first transaction of that access class (local, 1-hop, 2-hop, pool, bt-socket,
bt-pool); --index the N-th of them (default 0).
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("out")
    p.add_argument("--path")
    p.add_argument("--index", type=int, default=0)
    a = p.parse_args()
    events = json.load(open(a.trace))["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    whole = [e for e in events if e["ph"] == "X" and e["cat"] == "transaction" and
             (not a.path or e["args"]["path"] == a.path)]
    if len(whole) <= a.index:
        raise SystemExit("no such transaction in " + a.trace)
    w = whole[a.index]
    txn = w["args"]["transaction"]
    steps = [e for e in events if e["ph"] == "X" and e["cat"] != "transaction" and e["args"]["transaction"] == txn]
    memory = [x for x in steps if x["cat"] == "memory"]
    caches = sum(x["dur"] for x in steps if x["cat"] == "caches") * 1000
    t0 = memory[0]["ts"]
    fig, ax = plt.subplots(figsize=(11, 0.26 * len(memory) + 1.4))
    for y, x in enumerate(memory):
        start, dur = (x["ts"] - t0) * 1000, x["dur"] * 1000
        waiting = x["name"] in ("queueing", "directory entry busy", "invalidation acks")
        ax.barh(y, dur, left=start, height=0.7, color="#fc8d62" if waiting else "#66c2a5", edgecolor="black",
                linewidth=0.4)
        ax.text(start + dur + 2, y, "%.1f" % dur, va="center", fontsize=7)
    ax.set_yticks(range(len(memory)))
    ax.set_yticklabels(["%s: %s" % (names[(x["pid"], x["tid"])], x["name"]) for x in memory], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("ns from the miss's issue (waits in orange)")
    args = w["args"]
    ax.set_title("%s: %s %s, %.1f ns from issue to data (transaction %d; %.1f ns in the caches before)" %
                 (args["path"], args["op"], args["physical_address"], args["latency_ns"], txn, caches), fontsize=9)
    ax.grid(axis="x", linestyle=":", linewidth=0.5)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


main()
