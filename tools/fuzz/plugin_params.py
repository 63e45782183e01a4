#!/usr/bin/env python3
"""Fuzzes the parameter values of the shipped example plug-ins (issue 35; docs/testing.md).

A plug-in's parameters reach its code through starnuma's parameter layer, and its constructor and
threads then act on them: the whole path is only exercised by a real process that loads the
library, so this fuzzer works on processes, not in libFuzzer. Each case writes a platform that
loads one plug-in (the traffic generator, the pool device or the switch) with one to three of its
parameters given hostile values (values of every kind with and without units, out of range,
negative, huge, non-numbers, YAML's special forms, long or odd strings), then runs `starnuma check`
on it and, for the traffic generator and the switch, a `run` with no workload (bounded to 100 us
of simulated time). The only
acceptable outcomes are exit 0, or exit 1 with an "error:" line naming what was wrong; anything
else (another exit code, a signal, no message, no end within the time limit) is a finding, written
to OUT/findings/ as the platform and the command's output, and the script exits 1.

  python3 tools/fuzz/plugin_params.py STARNUMA PLUGIN_DIR PLATFORMS [--cases N | --seconds T] [--seed S] [--out OUT]
"""
import argparse
import itertools
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

# Each plug-in, the platform it extends, where its parameters live and those parameters' kinds
# (as `starnuma list --plugin` gives them).
SCENARIOS = {
    "traffic": {
        "library": "libstarnuma_example_traffic.so",
        "extends": "starnuma16-scaled.yaml",
        "section": "initiators",
        "name": "gen",
        "fixed": {"type": "example_traffic", "at": "socket0", "requests": "2000"},
        "params": {"target": "string", "op": "choice", "pattern": "choice", "size": "size",
                   "requests": "integer", "outstanding": "integer", "interval": "time", "start": "time",
                   "seed": "integer"},
        "run": True,
    },
    "pool": {
        "library": "libstarnuma_example_pool.so",
        "extends": "starnuma16-scaled.yaml",
        "section": "nodes",
        "name": "pool",
        "fixed": {"type": "example_pool"},
        "params": {"port_latency": "time", "capacity": "size", "cxl": "bool", "numa_node": "bool",
                   "latency": "time", "bandwidth": "bandwidth"},
        "run": False,
    },
    "switch": {
        "library": "libstarnuma_example_switch.so",
        "extends": "starnuma16-switch-scaled.yaml",
        "section": "nodes",
        "name": "cxl_switch0",
        "fixed": {"type": "example_switch"},
        "params": {"latency": "time", "output_queues": "bool", "port_bandwidth": "bandwidth"},
        "run": True,
    },
}

# The units a value of each kind takes, then some it does not.
UNITS = {
    "time": (["ps", "ns", "us", "ms", "s"], ["", "NS", "n s", "hz", "GB/s"]),
    "bandwidth": (["GB/s", "MB/s", "TB/s", "B/s"], ["", "GiB/s", "Gb/s", "ns", "GB"]),
    "size": (["B", "KiB", "MiB", "GiB", "TiB"], ["KB", "", "b", "EiB", "ns"]),
    "integer": ([""], ["k", "B", ".5"]),
    "bool": ([], []),
    "choice": ([], []),
    "string": ([], []),
}
# Values of the non-numeric kinds that are taken.
TAKEN = {"bool": ["true", "false"], "choice": ["read", "write", "random", "sequential"],
         "string": ["pool", "socket0", "socket1"]}
WORDS = ["read", "write", "random", "sequential", "pool", "socket0", "socket99", "true", "false", "yes",
         "no", "on", "off", "~", "null", "nan", "inf", "-inf", "NaN", ".inf", "0x10", "0b1", "1_000",
         "1,5", "", " ", "\t", "é", "\u2028", "a" * 300, "[1, 2]", "{a: 1}", "[]", "{}", "&a x", "*a",
         "!!binary aGk=", "!!int 3", "'quoted'", '"dq"', "- x", "? x", "|", ">", "#", "%", "@", "`"]


def number(rng):
    """A number as text, often at or past an edge."""
    choice = rng.randrange(10)
    if choice == 0:
        return str(rng.choice([0, -0, 1, -1, 63, 64, 65, 4095, 4096, 2**31 - 1, 2**31, 2**32, 2**53 + 1,
                               2**63 - 1, 2**63, 2**64, 10**30, -2**63]))
    if choice == 1:
        return rng.choice(["1e308", "1e-308", "1e309", "-1e309", "4.9e-324", "0.0", "-0.0", "1e3", ".5", "5.",
                           "0.1", "1e-3", "+7"])
    if choice == 2:
        return str(-rng.randrange(1, 10**rng.randrange(1, 20)))
    if choice == 3:
        return "%.*f" % (rng.randrange(0, 12), rng.uniform(0, 10**rng.randrange(0, 16)))
    return str(rng.randrange(0, 10**rng.randrange(1, 22)))


def value(rng, kind):
    """A hostile value for a parameter of `kind`."""
    r = rng.randrange(10)
    good, bad = UNITS[kind]
    if r < 5:
        return rng.choice(TAKEN[kind]) if kind in TAKEN else number(rng) + rng.choice(good)
    if r < 7:
        return number(rng) + rng.choice(good + bad + [""])
    if r < 9:
        return rng.choice(WORDS)
    return "".join(chr(rng.randrange(1, 0x250)) for _ in range(rng.randrange(1, 12)))


def yaml_scalar(text):
    """`text` as a double-quoted YAML scalar, so that every character reaches the parameter layer
    (a quarter of the cases write the values bare instead, as a user would, and YAML's own forms
    apply)."""
    escaped = "".join(c if c.isprintable() and c not in '"\\' else "\\u%04x" % ord(c) for c in text)
    return '"' + escaped + '"'


def platform(scenario, chosen, plugin_dir, platforms, bare):
    s = SCENARIOS[scenario]
    fields = dict((k, (v, True)) for k, v in s["fixed"].items())
    for k, v in chosen.items():
        fields[k] = (v, bare)
    body = ", ".join("%s: %s" % (k, v if raw else yaml_scalar(v)) for k, (v, raw) in fields.items())
    return ("plugins: [%s]\nextends: %s\n%s:\n  %s: {%s}\n" %
            (os.path.join(plugin_dir, s["library"]), os.path.join(platforms, s["extends"]), s["section"],
             s["name"], body))


def outcome(cmd, timeout):
    """(None if acceptable, else what was wrong; the command's output)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # and whatever it started
        stdout, stderr = p.communicate()
        return "no end within %d s" % timeout, (stdout + stderr).decode("utf-8", "replace")
    stderr = stderr.decode("utf-8", "replace")
    out = stdout.decode("utf-8", "replace") + stderr
    if p.returncode == 0:
        return None, out
    if p.returncode < 0:
        return "killed by signal %s" % signal.Signals(-p.returncode).name, out
    if p.returncode != 1:
        return "exit %d" % p.returncode, out
    if "error:" not in stderr:
        return "exit 1 with no 'error:' line", out
    if "internal error" in stderr:
        return "an internal error reported as exit 1", out
    return None, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("starnuma")
    ap.add_argument("plugin_dir", help="the folder holding the example plug-ins (build/examples)")
    ap.add_argument("platforms", help="the project's platforms/ folder")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=None, help="instead: as many cases as fit in this time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60, help="seconds each command may take")
    ap.add_argument("--out", default=None, help="where findings go (default: a temporary folder)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = args.out or tempfile.mkdtemp(prefix="starnuma-fuzz-plugin-")
    os.makedirs(os.path.join(out, "findings"), exist_ok=True)
    plugin_dir, platforms = os.path.abspath(args.plugin_dir), os.path.abspath(args.platforms)
    findings = refused = accepted = 0
    deadline = time.monotonic() + args.seconds if args.seconds else None
    cases = 0
    with tempfile.TemporaryDirectory() as work:
        for case in itertools.count():
            if (deadline and time.monotonic() >= deadline) or (not deadline and case >= args.cases):
                break
            cases += 1
            scenario = rng.choice(sorted(SCENARIOS))
            s = SCENARIOS[scenario]
            keys = rng.sample(sorted(s["params"]), rng.randrange(1, 4))
            chosen = {k: value(rng, s["params"][k]) for k in keys}
            bare = rng.randrange(4) == 0 and all("\n" not in v for v in chosen.values())
            path = os.path.join(work, "case.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(platform(scenario, chosen, plugin_dir, platforms, bare))
            commands = [[args.starnuma, "check", path]]
            if s["run"]:
                # A valid `requests` or `interval` can make a run last hours: bound its simulated time.
                commands.append([args.starnuma, "run", path, "--workload", "idle", "--no-progress",
                                 "--instructions", "1000", "--set", "platform.initiator_time_limit=100us"])
            for cmd in commands:
                problem, text = outcome(cmd, args.timeout)
                if problem is None:
                    if "error:" in text:
                        refused += 1
                        break  # the run would refuse it again
                    accepted += 1
                    continue
                findings += 1
                base = os.path.join(out, "findings", "case-%d-%s" % (case, cmd[1]))
                with open(base + ".yaml", "w", encoding="utf-8") as f:
                    f.write(open(path, encoding="utf-8").read())
                with open(base + ".txt", "w", encoding="utf-8") as f:
                    f.write("%s\n%s\n\n%s" % (" ".join(cmd), problem, text))
                print("finding: case %d, %s %s: %s (%s.yaml)" % (case, scenario, cmd[1], problem, base), flush=True)
                break
    print("%d cases: %d commands ended well, %d refused with a message, %d findings" %
          (cases, accepted, refused, findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
