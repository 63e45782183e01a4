"""What the experiments' table scripts share: a sweep folder's finished runs, their command line,
and writing a figure atomically."""
import json
import os
import sqlite3
import sys


def finished_runs(sweep):
    """[(name, workload, sets, stats)] of every run in the database's order, `sets` and `stats`
    parsed; exits naming the first run that is not done."""
    db = sqlite3.connect(os.path.join(sweep, "sweep.db"))
    runs = []
    for name, status, workload, sets, stats_path in db.execute(
            "SELECT name, status, workload, sets, stats_path FROM runs ORDER BY rowid"):
        if status != "done":
            sys.exit(f"{sweep}: run {name} is {status}; run the sweep again")
        with open(os.path.join(sweep, stats_path)) as f:
            runs.append((name, workload, json.loads(sets), json.load(f)))
    return runs


def save_figure(fig, path):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)


def main(doc, tables, figure=None):
    """SWEEP_DIR [--figure FILE]: prints tables(runs), and draws figure(runs, FILE) when asked."""
    args = sys.argv[1:]
    if not (len(args) == 1 or (figure and len(args) == 3 and args[1] == "--figure")):
        sys.exit(doc)
    runs = finished_runs(args[0])
    print(tables(runs))
    if len(args) == 3:
        figure(runs, args[2])
