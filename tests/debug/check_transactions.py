#!/usr/bin/env python3
"""Checks a transaction trace (run --trace-transactions) against the documented format and the run.

    check_transactions.py TRACE.json [--amat RUN.json] [--socket S] [--window START_NS END_NS]
                                     [--addresses LOW HIGH]

Every transaction: a summary slice on its core's track, its caches' slices, then memory slices that
follow each other without gap from its issue and add up to its latency, and one flow arrow from
its first slice to its last. --amat: with every miss traced, the latencies' mean is the run's AMAT.
The other options: every transaction passes that filter. Exit status 1 with the first problem.
"""
import argparse
import collections
import json
import sys

PS = 1e-6  # one picosecond in the trace's microseconds


def fail(message):
    print("check_transactions: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("--amat")
    p.add_argument("--socket")
    p.add_argument("--window", nargs=2, type=float)
    p.add_argument("--addresses", nargs=2)
    a = p.parse_args()
    d = json.load(open(a.trace))
    if d.get("displayTimeUnit") != "ns" or not isinstance(d.get("traceEvents"), list):
        fail("not a Trace Event file with displayTimeUnit ns and a traceEvents list")
    names, whole = {}, {}
    slices, flows = collections.defaultdict(list), collections.defaultdict(list)
    for e in d["traceEvents"]:
        ph = e.get("ph")
        if ph == "M":
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        for key in ("name", "ts", "pid", "tid"):
            if key not in e:
                fail("an event without %s: %r" % (key, e))
        if (e["pid"], e["tid"]) not in names:
            fail("an event on a track with no thread_name before it: %r" % e)
        if ph == "X":
            if e["cat"] == "transaction":
                whole[e["args"]["transaction"]] = e
            else:
                slices[e["args"]["transaction"]].append(e)
        elif ph in ("s", "t", "f"):
            flows[e["id"]].append(e)
        else:
            fail("unexpected phase %r" % ph)
    if not whole:
        fail("no transaction")
    for txn, w in whole.items():
        args = w["args"]
        mine = slices[txn]
        memory = [s for s in mine if s["cat"] == "memory"]
        issue = args["issue_ns"] / 1000
        at = issue
        for s in memory:
            if abs(s["ts"] - at) > PS:
                fail("transaction %d: a slice at %.6f us, the previous ended at %.6f" % (txn, s["ts"], at))
            at = s["ts"] + s["dur"]
        total = sum(s["dur"] for s in memory) * 1000
        if abs(total - args["latency_ns"]) > 1e-3 * max(1, len(memory)) * PS * 1000:
            fail("transaction %d: its memory slices add up to %.3f ns, its latency is %.3f ns" %
                 (txn, total, args["latency_ns"]))
        if names[(w["pid"], w["tid"])] != names[(mine[0]["pid"], mine[0]["tid"])] or mine[0]["cat"] != "caches":
            fail("transaction %d does not start with its core's caches" % txn)
        f = flows[txn]
        if [x["ph"] for x in f] != ["s"] + ["t"] * (len(f) - 2) + ["f"] or len(f) != len(mine):
            fail("transaction %d: its flow is not one arrow through its %d slices" % (txn, len(mine)))
        core = names[(w["pid"], w["tid"])]
        if a.socket and not core.startswith("nodes.%s." % a.socket):
            fail("transaction %d of %s, not of %s" % (txn, core, a.socket))
        if a.window and not a.window[0] <= args["issue_ns"] < a.window[1]:
            fail("transaction %d issued at %.3f ns, outside the window" % (txn, args["issue_ns"]))
        if a.addresses and not int(a.addresses[0], 0) <= int(args["physical_address"], 16) < int(a.addresses[1], 0):
            fail("transaction %d at %s, outside the range" % (txn, args["physical_address"]))
    print("check_transactions: %d transactions, each slice after the last, adding up to its latency" % len(whole))
    if a.amat:
        run = json.load(open(a.amat))
        mean = sum(w["args"]["latency_ns"] for w in whole.values()) / len(whole)
        misses = sum(run["memory_accesses"].values())
        if len(whole) != misses or abs(mean - run["amat_ns"]) > 1e-6 * run["amat_ns"]:
            fail("%d transactions of mean latency %.6f ns; the run counts %d misses of AMAT %.6f ns" %
                 (len(whole), mean, misses, run["amat_ns"]))
        print("check_transactions: their mean latency is the run's AMAT, %.3f ns" % mean)


main()
