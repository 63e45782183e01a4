#!/usr/bin/env python3
"""Reads a VCD file (ours, or GTKWave's fst2vcd's from an FST) and checks it against a run.

    check_waves.py VCD --describe DESCRIBE.json --stats STATS.json     busy time = utilisation
    check_waves.py VCD --window START_PS END_PS                         no change outside the window
    check_waves.py VCD --only PREFIX [PREFIX ...]                       every signal under a prefix
    check_waves.py VCD --busy-of OTHER.vcd START_PS END_PS              busy inside the window agrees
    check_waves.py VCD --stats STATS.json --rtl-flushes SOCKET            the RTL annexes' handshakes
    check_waves.py VCD --migration RUN.json                               shootdowns and copies

The VCD is read by tools/vcd_reader.py. Exit status 1 with the first difference on stderr.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from vcd_reader import parse, rising_edges, time_integral, value_at  # noqa: E402


def fail(message):
    print("check_waves: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("vcd")
    p.add_argument("--describe")
    p.add_argument("--stats")
    p.add_argument("--window", nargs=2, type=int)
    p.add_argument("--only", nargs="+")
    p.add_argument("--busy-of", nargs=3)
    p.add_argument("--rtl-flushes")
    p.add_argument("--migration")
    a = p.parse_args()
    changes, first, last = parse(a.vcd)
    if not changes:
        fail(a.vcd + " has no signals")

    if a.rtl_flushes:
        # Each flush an annex hands the tracker is one cycle with flush_valid and flush_ready high
        # at the clock's rising edge.
        socket = a.rtl_flushes
        scope = "nodes.%s.tracking.rtl." % socket
        annexes = sorted({n[len(scope):].split(".")[0] for n in changes if n.startswith(scope + "annex")})
        if not annexes:
            fail("no RTL annex under " + scope)
        seen, flushed = 0, {}
        for annex in annexes:
            s = scope + annex + "."
            valid, ready = changes[s + "flush_valid"], changes[s + "flush_ready"]
            flushed[annex] = sum(1 for t in rising_edges(changes[s + "clk"]) if value_at(valid, t) and value_at(ready, t))
            seen += flushed[annex]
        expected = json.load(open(a.stats))["stats"]["nodes"][socket]["tracking"]["flushes"]
        if seen != expected:
            fail("%d flush handshakes in the RTL's waves of %s, %d flushes in stats.json" % (seen, socket, expected))
        print("check_waves: %d flush handshakes of %d annexes, as stats.json counts" % (seen, len(annexes)))
        # Inside the blocks (the signals the RTL marks public): every update the tracker makes
        # starts in state READ (1), so it enters READ once per flush; each annex shows its
        # counters one signal per TLB entry and its flush FIFO's occupancy.
        trackers = sorted({n[len(scope):].split(".")[0] for n in changes if n.startswith(scope + "tracker")})
        reads = sum(1 for tr in trackers for _, v in changes[scope + tr + ".state_q"] if v == 1)
        if reads != expected:
            fail("the trackers of %s enter READ %d times, stats.json counts %d flushes" % (socket, reads, expected))
        for annex in annexes:
            s = scope + annex + "."
            counters = [n for n in changes if n.startswith(s + "count_q(")]
            if not counters or s + "flushes.count_q" not in changes:
                fail("no counters or flush FIFO occupancy inside " + s[:-1])
            if flushed[annex] and max(v for _, v in changes[s + "flushes.count_q"]) == 0:
                fail(s + "flushes.count_q never rises, though the annex flushed")
        print("check_waves: the trackers enter READ once per flush; %d counters per annex" % len(counters))

    if a.migration:
        report = json.load(open(a.migration))["migration"]
        sent, moved = report["shootdowns_sent"], report["pages_moved"]
        shootdowns, copies = changes["os.migration.shootdowns"], changes["os.migration.pages_in_flight"]
        if shootdowns[-1][1] != sent:
            fail("os.migration.shootdowns ends at %d, the run sent %d" % (shootdowns[-1][1], sent))
        if copies[-1][1] != 0 or (max(v for _, v in copies) >= 1) != (moved > 0):
            fail("os.migration.pages_in_flight does not rise (for %d pages moved) and end at 0" % moved)
        print("check_waves: %d shootdowns as the run sent, %d copies at most in flight" %
              (sent, max(v for _, v in copies)))

    if a.describe:
        links = {l["path"]: l for l in json.load(open(a.describe))["links"]}
        run = json.load(open(a.stats))
        elapsed = run["sim_time_ns"] * 1000
        checked = 0
        for name, ch in changes.items():
            parts = name.split(".")
            if parts[0] != "links" or parts[-1] != "busy":
                continue
            link, sender = ".".join(parts[:2]), parts[2][len("from_"):]
            direction = "ab" if links[link]["a"] == sender else "ba"
            utilization = run["stats"]["links"][parts[1]][direction + "_utilization"]
            busy = time_integral(ch, 0, elapsed)  # what is booked past the end is not yet sent
            if abs(busy - utilization * elapsed) > 1e-9 * elapsed + 1:
                fail("%s: busy %d ps in the waves, %.1f ps by stats.json's utilization %r" %
                     (name, busy, utilization * elapsed, utilization))
            checked += 1
        if checked == 0:
            fail("no link busy signal to check")
        print("check_waves: %d link directions busy as their utilization says" % checked)

    if a.window:
        start, end = a.window
        for name, ch in changes.items():
            for t, _ in ch:
                if t < start or t > end:
                    fail("%s changes at %d ps, outside the window [%d, %d]" % (name, t, start, end))
        if first is not None and first < start:
            fail("the file starts at %d ps, before the window's %d" % (first, start))
        print("check_waves: every change inside [%d, %d] ps" % (start, end))

    if a.only:
        for name in changes:
            if not any(name.startswith(prefix) for prefix in a.only):
                fail(name + " is not under " + ", ".join(a.only))
        print("check_waves: %d signals, all under %s" % (len(changes), ", ".join(a.only)))

    if a.busy_of:
        other, _, _ = parse(a.busy_of[0])
        start, end = int(a.busy_of[1]), int(a.busy_of[2])
        compared = 0
        for name, ch in changes.items():
            if not name.endswith(".busy") or name not in other:
                continue
            mine, theirs = time_integral(ch, start, end), time_integral(other[name], start, end)
            if mine != theirs:
                fail("%s: busy %d ps inside the window here, %d in %s" % (name, mine, theirs, a.busy_of[0]))
            compared += 1
        if compared == 0:
            fail("no busy signal in common with " + a.busy_of[0])
        print("check_waves: %d busy signals agree with %s inside the window" % (compared, a.busy_of[0]))


main()
