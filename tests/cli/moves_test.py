"""The moves, page by page (docs/os.md, "The moves, page by page"): `run --moves FILE` lists every
page a continuous run's phases decided, with what became of it and when, and its rows add up to the
run's own migration figures; `checkpoint --moves` lists the functional pass's, whose boundaries make
every move at once; experiments/moves_diff.py compares two lists page by page; `run --moves-from`
makes a list's moves instead of its policy's: a run given its own list is the same run to the last
digit, one given the pass's decides as the pass did; a run without migration phases refuses --moves
by name, and a malformed list is refused naming its file and line.

    python3 moves_test.py STARNUMA PLATFORMS MOVES_DIFF_PY
"""
import csv
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

starnuma, platforms, diff = sys.argv[1:4]
platform = f"{platforms}/starnuma16-scaled.yaml"
sets = ["--set", "topology.socket.tracking.impl=model", "--set", "os.phase_instructions=40000"]
workload = "sharing:pages=2048"


def call(*args, expect=0):
    done = subprocess.run([starnuma, *args], capture_output=True, text=True)
    if done.returncode != expect:
        sys.exit(f"FAIL: starnuma {' '.join(args)}: exit {done.returncode}, expected {expect}\n{done.stderr}")
    return done


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


with tempfile.TemporaryDirectory() as out:
    call("run", platform, "--workload", workload, *sets, "--placement", "dynamic", "--instructions", "130000",
         "--no-progress", "--out", f"{out}/run", "--moves", f"{out}/run-moves.csv")
    stats = json.load(open(f"{out}/run/stats.json"))["migration"]
    run = rows(f"{out}/run-moves.csv")
    outcomes = Counter(r["outcome"] for r in run)
    want = {"moved": stats["pages_moved"], "skipped": stats["skipped"], "dropped": stats["dropped"]}
    if {k: outcomes.get(k, 0) for k in want} != want or stats["pages_moved"] == 0 or stats["to_pool"] == 0:
        sys.exit(f"FAIL: the run's moves {dict(outcomes)} against its figures {want} (to the pool {stats['to_pool']})")
    per_phase = Counter(int(r["phase"]) for r in run)
    decided = {p["phase"]: p["pages_decided"] for p in stats["per_phase"] if p["pages_decided"]}
    if dict(per_phase) != decided:
        sys.exit(f"FAIL: rows per phase {dict(per_phase)}, the phases decided {decided}")
    for r in run:
        if r["outcome"] == "moved":
            decided_ns, started, landed = float(r["decided_ns"]), float(r["started_ns"]), float(r["landed_ns"])
            if not decided_ns <= started < landed or r["from"] in ("", r["to"]):
                sys.exit(f"FAIL: a move out of order or from nowhere: {r}")
        elif r["started_ns"] or r["landed_ns"] or r["from"]:
            sys.exit(f"FAIL: a move not made, with a start, an end or a source: {r}")
    pool = sum(r["to"] == "pool" for r in run if r["outcome"] == "moved")
    if pool != stats["to_pool"]:
        sys.exit(f"FAIL: {pool} rows moved to the node 'pool', the run's figures say {stats['to_pool']}")

    call("checkpoint", platform, "--workload", workload, *sets, "--checkpoints", "3", "--boundaries-only",
         "--moves", "--out", f"{out}/ck", "--no-progress")
    manifest = json.load(open(f"{out}/ck/manifest.json"))
    passed = rows(f"{out}/ck/moves.csv")
    moved = defaultdict(int)
    for r in passed:
        if r["decided_ns"] or r["started_ns"] or r["outcome"] == "dropped":
            sys.exit(f"FAIL: the pass's move with a time, or dropped: {r}")
        moved[int(r["phase"])] += r["outcome"] == "moved"
    if manifest.get("moves") != "moves.csv" or any(moved[p["phase"]] != p["pages_moved"] for p in manifest["phases"]) \
            or sum(moved.values()) == 0:
        sys.exit(f"FAIL: the pass's moves {dict(moved)} against its manifest {manifest['phases']}")

    table = subprocess.run([sys.executable, diff, f"{out}/ck/moves.csv", f"{out}/run-moves.csv"], capture_output=True,
                           text=True, check=True).stdout
    same = subprocess.run([sys.executable, diff, f"{out}/run-moves.csv", f"{out}/run-moves.csv"], capture_output=True,
                          text=True, check=True).stdout
    lines = same.splitlines()[2:]  # each phase's decided and moved, the list against itself
    if "| 2 | decided |" not in table or len(lines) < 4 or any(not l.endswith("| 0 | 0 | 0 | 100.0 % |") for l in lines):
        sys.exit(f"FAIL: moves_diff.py:\n{table}\n{same}")

    # A run given its own list is the same run; one given the pass's list decides the pass's moves.
    call("run", platform, "--workload", workload, *sets, "--placement", "dynamic", "--instructions", "130000",
         "--no-progress", "--out", f"{out}/again", "--moves-from", f"{out}/run-moves.csv", "--moves", f"{out}/again.csv")
    again = json.load(open(f"{out}/again/stats.json"))
    first = json.load(open(f"{out}/run/stats.json"))
    if rows(f"{out}/again.csv") != run or again["ipc"] != first["ipc"] or again["amat_ns"] != first["amat_ns"] \
            or not again["migration"]["policy"].endswith("its moves from " + f"{out}/run-moves.csv"):
        sys.exit(f"FAIL: the run given its own moves: IPC {again['ipc']} against {first['ipc']}, AMAT "
                 f"{again['amat_ns']} against {first['amat_ns']}, policy '{again['migration']['policy']}'")
    call("run", platform, "--workload", workload, *sets, "--placement", "dynamic", "--instructions", "130000",
         "--no-progress", "--moves-from", f"{out}/ck/moves.csv", "--moves", f"{out}/as-pass.csv")
    as_pass = {(r["phase"], r["page"], r["to"]) for r in rows(f"{out}/as-pass.csv") if int(r["phase"]) <= 3}
    if as_pass != {(r["phase"], r["page"], r["to"]) for r in passed}:
        sys.exit("FAIL: the run given the pass's moves decided others")
    for bad, said in (("phase,page,from,to,kind,outcome\n1,12,socket0,socket99,candidate,moved\n",
                       "bad.csv:2: no memory node 'socket99' on this platform"),
                      ("phase,page,from,to,kind,outcome\n1,12,socket0,socket1,candidate,moved\nx,3,,socket1,victim,\n",
                       "bad.csv:3: phase 'x' is not a whole number"),
                      ("phase,page,to\n1,12,socket1\n", "bad.csv:1: no column 'kind'")):
        with open(f"{out}/bad.csv", "w") as f:
            f.write(bad)
        refused = call("run", platform, "--workload", workload, *sets, "--placement", "dynamic", "--instructions",
                       "1000", "--no-progress", "--moves-from", f"{out}/bad.csv", expect=1)
        if said not in refused.stderr:
            sys.exit(f"FAIL: a malformed list of moves, not said ('{said}'): {refused.stderr}")
    refused = call("run", platform, "--workload", workload, *sets, "--instructions", "1000", "--no-progress",
                   "--moves-from", f"{out}/run-moves.csv", expect=1)
    if "only a continuous run's migration phases take their moves from a list" not in refused.stderr:
        sys.exit(f"FAIL: --moves-from without migration phases: {refused.stderr}")
    refused = call("run", platform, "--workload", workload, *sets, "--instructions", "1000", "--no-progress",
                   "--moves", f"{out}/none.csv", expect=1)
    if "--moves" not in refused.stderr or "only migration phases decide moves" not in refused.stderr:
        sys.exit(f"FAIL: --moves without migration phases: {refused.stderr}")
print("PASS:", dict(outcomes), "in", len(decided), "phases;", table.splitlines()[2])
