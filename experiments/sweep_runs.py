"""What the experiments' table scripts share: a sweep folder's finished runs, the docs' number
formats, printing a study's values and writing a figure atomically."""
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


def grouped(n):
    """1184 -> "1 184" (the docs' thousands separator)."""
    return f"{round(n):,}".replace(",", " ")


def span(xs, show=grouped, unit=""):
    """'a to b' for the smallest and largest of xs, each written by show ('a' when they print alike)."""
    lo, hi = show(min(xs)), show(max(xs))
    return f"{lo}{unit}" if lo == hi else f"{lo} to {hi}{unit}"


def print_values(values):
    """The values of a study as a reader wants them on a terminal: tables under their name."""
    for key, text in values.items():
        print(f"\n{key}:\n{text}\n" if "\n" in text else f"{key}: {text}")


def main(doc, values, figure=None):
    """SWEEP_DIR [--figure FILE]: prints values(runs), the numbers docs/validation.md quotes from
    this study (tools/report/validation_data.py reads the same function), and draws
    figure(runs, FILE) when asked."""
    args = sys.argv[1:]
    if not (len(args) == 1 or (figure and len(args) == 3 and args[1] == "--figure")):
        sys.exit(doc)
    runs = finished_runs(args[0])
    print_values(values(runs))
    if len(args) == 3:
        figure(runs, args[2])
