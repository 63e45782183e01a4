"""Two lists of moves page by page (`run --moves FILE`, `checkpoint --moves`'s moves.csv; docs/os.md,
"The moves, page by page"): per phase, the pages each decided, how many both decided and to the same
node, both to different nodes, one only; then the same over the pages each moved (outcome "moved").

    python3 experiments/moves_diff.py A.csv B.csv [--phases N]     # prints a Markdown table
"""
import argparse
import csv
import sys
from collections import defaultdict


def read(path):
    """{phase: {page: (to, outcome)}}, the last decision of a page in a phase kept (a phase decides a page once)."""
    phases = defaultdict(dict)
    try:
        with open(path, newline="") as f:
            rows = csv.DictReader(f)
            missing = {"phase", "page", "to", "outcome"} - set(rows.fieldnames or ())
            if missing:
                sys.exit(f"{path}: not a list of moves (no column {', '.join(sorted(missing))})")
            for line, r in enumerate(rows, start=2):
                try:
                    phases[int(r["phase"])][int(r["page"])] = (r["to"], r["outcome"])
                except ValueError:
                    sys.exit(f"{path}:{line}: phase and page must be whole numbers")
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    return phases


def compare(a, b):
    """(only a, only b, both to the same node, both to different nodes) of two {page: to}."""
    both = a.keys() & b.keys()
    same = sum(a[p] == b[p] for p in both)
    return len(a.keys() - b.keys()), len(b.keys() - a.keys()), same, len(both) - same


def table(a_path, b_path, phases=None):
    a, b = read(a_path), read(b_path)
    keys = sorted(a.keys() | b.keys())
    if phases:
        keys = [k for k in keys if k <= phases]
    lines = ["| phase | which | A | B | both, same node | both, other node | A only | B only | same of A |",
             "|---|---|---|---|---|---|---|---|---|"]
    for k in keys:
        for which, keep in (("decided", lambda o: True), ("moved", lambda o: o == "moved")):
            pa = {p: to for p, (to, o) in a.get(k, {}).items() if keep(o)}
            pb = {p: to for p, (to, o) in b.get(k, {}).items() if keep(o)}
            only_a, only_b, same, other = compare(pa, pb)
            share = f"{100 * same / len(pa):.1f} %" if pa else "-"
            lines.append(f"| {k} | {which} | {len(pa)} | {len(pb)} | {same} | {other} | {only_a} | {only_b} | {share} |")
    return "\n".join(lines)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--phases", type=int, help="only phases 1 to N")
    args = ap.parse_args()
    print(table(args.a, args.b, args.phases))
