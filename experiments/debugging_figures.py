#!/usr/bin/env python3
"""Prints the figures docs/debugging.md quotes from the worked examples' runs
(experiments/debugging_example.sh writes them to OUT):

    debugging_figures.py OUT
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from vcd_reader import parse, time_integral  # noqa: E402

out = sys.argv[1]
start, end = 300_000_000, 302_000_000  # the waves' window, ps
with open(os.path.join(out, "cxl.vcd"), "w") as f:
    subprocess.run(["fst2vcd", os.path.join(out, "cxl.fst")], stdout=f, check=True)
waves, _, _ = parse(os.path.join(out, "cxl.vcd"))
run = json.load(open(os.path.join(out, "cxl", "stats.json")))
link = run["stats"]["links"]["cxl_socket0_pool"]
span = end - start


def mean(name):
    return time_integral(waves[name], start, end) / span


print("AMAT %.0f ns = %.0f unloaded + %.0f contention" %
      (run["amat_ns"], run["amat_unloaded_ns"], run["amat_contention_ns"]))
print("socket0's CXL link over the run: from socket0 %.1f %% busy, from the pool %.1f %% busy, mean wait %.0f ns" %
      (100 * link["ab_utilization"], 100 * link["ba_utilization"], link["ba_mean_wait"]))
for d in ("from_socket0", "from_pool"):
    q = [v for t, v in waves["links.cxl_socket0_pool.%s.queue" % d] if start <= t < end]
    print("window, %s: busy %.1f %%, queue %.1f on average, %d to %d" %
          (d, 100 * mean("links.cxl_socket0_pool.%s.busy" % d), mean("links.cxl_socket0_pool.%s.queue" % d),
           min(q), max(q)))
buses = [mean(n) for n in waves if n.startswith("nodes.pool.memory.channel0.") and n.endswith(".bus")]
banks = [mean(n) for n in waves if re.search(r"\.bank\d+\.busy$", n)]
print("pool channel0: buses %s %% busy, banks %.0f to %.0f %% (%.0f %% on average), queue %.1f on average" %
      ("/".join("%.0f" % (100 * b) for b in buses), 100 * min(banks), 100 * max(banks),
       100 * statistics.mean(banks), mean("nodes.pool.memory.channel0.queue")))
print("socket0.core0 outstanding misses: %s" %
      sorted({v for _, v in waves["nodes.socket0.core0.outstanding_misses"]}))
service = 64 / 2.857142857  # ns per line on the scaled half-bandwidth CXL link
print("Little's law: %.1f queued x %.1f ns = %.0f ns" % (mean("links.cxl_socket0_pool.from_pool.queue"), service,
                                                        mean("links.cxl_socket0_pool.from_pool.queue") * service))


def transactions(name):
    events = json.load(open(os.path.join(out, name)))["traceEvents"]
    return events, [e for e in events if e["ph"] == "X" and e["cat"] == "transaction"]


events, whole = transactions("cxl.json")
print("socket0's reads in the window: %d, %.0f ns on average" %
      (len(whole), statistics.mean(w["args"]["latency_ns"] for w in whole)))
drawn = [w for w in whole if w["args"]["path"] == "pool"][5]  # the one docs/images shows
queueing = sum(e["dur"] for e in events if e["ph"] == "X" and e["name"] == "queueing" and
               e["args"]["transaction"] == drawn["args"]["transaction"]) * 1000
print("the drawn pool read: %.1f ns, %.1f ns queueing" % (drawn["args"]["latency_ns"], queueing))
_, coherent = transactions("coherence.json")
print("the drawn bt-pool read: %.1f ns" % [w for w in coherent if w["args"]["path"] == "bt-pool"][0]["args"]["latency_ns"])
print("the same run at full CXL bandwidth (starnuma16-scaled): AMAT %.0f ns" %
      json.load(open(os.path.join(out, "full-bandwidth.json")))["amat_ns"])
