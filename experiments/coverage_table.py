"""The coverage study's table (experiments/coverage.sh): per case, the units' IPC and AMAT with their
95 % intervals, the reference (the mean of the continuous runs, one per draw of the start's races
and quantum, with its own 95 % interval), whether each sampled interval holds the reference, and the threads' drift the
sampled run reported (`thread_drift.relative_drift`); then the fraction held, over all cases and
over those whose drift stays within what `sample` accepts without a warning (its
`thread_drift.warning_above`). A miss is also marked "within the spread" when the estimate's
distance from the reference is within the sampled interval's half-width and the references' 95 %
prediction interval for one more run combined (root of the sum of squares): the sampled run is one
execution of a chaotic system, which the units' interval alone does not describe.
`--reference as-pass` takes the continuous runs made with the functional pass's moves instead
(`run --moves-from`; experiments/coverage.sh makes both), where only the sampling differs; `--both`
prints one table against both, each verdict and each reference's mean side by side.

    python3 experiments/coverage_table.py OUT [--reference continuous|as-pass | --both]
"""
import argparse
import json
import math
import pathlib
import statistics
import sys

def t95(dof: int) -> float:
    """Student's two-sided 95 % quantile (a table; the study has 2 to 60 degrees of freedom)."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
             10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000}
    return next((table[k] for k in sorted(table) if dof <= k), 1.96)


REFERENCES = {"continuous": "the continuous runs", "as-pass": "the continuous runs with the pass's moves"}


def reference(case: pathlib.Path, kind: str = "continuous") -> list[dict]:
    runs = sorted(case.glob(f"{kind}-*.json"))
    if not runs and kind == "continuous":
        runs = [case / "continuous.json"]  # studies before several references
    if not runs:
        sys.exit(f"{case}: no {kind}-*.json ({REFERENCES[kind]}; a study made before them?)")
    return [json.loads(p.read_text()) for p in runs]


def within_spread(estimate: float, low: float, high: float, values: list[float]) -> bool:
    """Whether a missed estimate is within its own interval and the runs' spread combined."""
    if len(values) < 2:
        return False
    n = len(values)
    chaos = t95(n - 1) * statistics.stdev(values) * math.sqrt(1 + 1 / n)
    return abs(estimate - statistics.mean(values)) <= math.hypot((high - low) / 2, chaos)


def judge(case: pathlib.Path, kind: str = "continuous") -> dict:
    """One case against one reference: for IPC and AMAT the estimate with its interval, the
    reference (the runs' mean and its own interval), the verdict, whether it held (None without an
    interval) and whether a miss is within the spread; the drift and whether `sample` warned of it."""
    sampled = json.loads((case / "sampled.json").read_text())
    runs = reference(case, kind)
    d = sampled.get("thread_drift", {})
    drift = d.get("relative_drift", math.nan)
    judged = {"units": sampled["windows"], "drift": drift, "warned": drift > d.get("warning_above", math.inf)}
    for key, digits in (("ipc", 4), ("amat_ns", 0)):
        values = [r[key] for r in runs]
        mean = statistics.mean(values)
        spread = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
        m = {"mean": f"{mean:.{digits}f}", "estimate": "-", "verdict": "-", "held": None, "near": False,
             "reference": f"{mean:.{digits}f}" + (f" (+-{100 * spread / mean:.1f} %)" if len(values) > 1 else "")}
        if c := sampled["confidence"].get(key):
            m["held"] = c["low"] <= mean <= c["high"]
            m["estimate"] = f"{sampled[key]:.{digits}f} ({c['low']:.{digits}f}-{c['high']:.{digits}f})"
            m["verdict"] = "yes"
            if not m["held"]:
                m["near"] = within_spread(sampled[key], c["low"], c["high"], values)
                m["verdict"] = f"no ({100 * (sampled[key] / mean - 1):+.0f} %{'; within the spread' if m['near'] else ''})"
        judged[key] = m
    return judged


def row(case: pathlib.Path, kind: str = "continuous") -> tuple[str, list[bool], bool, int]:
    j = judge(case, kind)
    cells = [case.name, str(j["units"])]
    for key in ("ipc", "amat_ns"):
        cells += [j[key]["estimate"], j[key]["reference"], j[key]["verdict"]]
    cells.append(f"{j['drift']:.2f}")
    held = [j[k]["held"] for k in ("ipc", "amat_ns") if j[k]["held"] is not None]
    return "| " + " | ".join(cells) + " |", held, j["warned"], sum(j[k]["near"] for k in ("ipc", "amat_ns"))


def cases(out: str, only: list[str] | None = None) -> list[pathlib.Path]:
    """A study's finished cases (experiments/coverage.sh marks each `done`), those whose names start
    with one of `only` when given, or an error naming OUT."""
    found = sorted(p for p in pathlib.Path(out).iterdir() if (p / "done").exists())
    if not found:
        sys.exit(f"{out}: no finished case (experiments/coverage.sh)")
    return [p for p in found if not only or any(p.name.startswith(name) for name in only)]


def study_arguments(doc: str) -> argparse.ArgumentParser:
    """The command line of a script over a study's cases: OUT, CASE... (name prefixes), --reference."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("cases", nargs="*", help="only the cases whose names start so")
    ap.add_argument("--reference", choices=sorted(REFERENCES), default="continuous")
    return ap


def main(out: str, kind: str = "continuous") -> int:
    finished = cases(out)
    runs = len(reference(finished[0], kind))
    name = "continuous" if kind == "continuous" else "with the pass's moves,"
    print(f"| case | units | sampled IPC (95 %) | {name} IPC (mean of {runs}) | held | sampled AMAT ns (95 %) "
          f"| {name} AMAT | held | drift |")
    print("|---|---|---|---|---|---|---|---|---|")
    held, calm, spread = [], [], 0
    for case in finished:
        line, ok, warned, near = row(case, kind)
        print(line)
        held += ok
        spread += near
        if not warned:
            calm += ok
    print(f"\n{sum(held)} of {len(held)} intervals ({100 * sum(held) / len(held):.0f} %) hold the mean of {REFERENCES[kind]}")
    if spread:
        print(f"{spread} of the {len(held) - sum(held)} misses are within the spread (the interval and the runs' "
              "spread combined)")
    if calm:
        print(f"{sum(calm)} of {len(calm)} ({100 * sum(calm) / len(calm):.0f} %) where the threads' drift is "
              "within what `sample` accepts (no warning)")
    return 0


def main_both(out: str) -> int:
    """One table against both references: each verdict and each reference's mean side by side."""
    finished = cases(out)
    print("| case | units | IPC (95 %) | held (own, pass's moves) | runs' IPC: own, pass's moves | AMAT ns (95 %) "
          "| held (own, pass's moves) | runs' AMAT: own, pass's moves | drift |")
    print("|---|---|---|---|---|---|---|---|---|")
    held = {kind: [] for kind in REFERENCES}
    calm = {kind: [] for kind in REFERENCES}
    for case in finished:
        own, moves = judge(case, "continuous"), judge(case, "as-pass")
        cells = [case.name, str(own["units"])]
        for key in ("ipc", "amat_ns"):
            cells += [own[key]["estimate"], f"{own[key]['verdict']}, {moves[key]['verdict']}",
                      f"{own[key]['mean']}, {moves[key]['mean']}"]
        print("| " + " | ".join(cells + [f"{own['drift']:.2f}"]) + " |")
        for kind, j in (("continuous", own), ("as-pass", moves)):
            ok = [j[k]["held"] for k in ("ipc", "amat_ns") if j[k]["held"] is not None]
            held[kind] += ok
            if not j["warned"]:
                calm[kind] += ok
    print()
    for kind in REFERENCES:
        print(f"{sum(held[kind])} of {len(held[kind])} intervals hold the mean of {REFERENCES[kind]}, "
              f"{sum(calm[kind])} of the {len(calm[kind])} where the threads' drift is within what `sample` accepts")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--reference", choices=sorted(REFERENCES), default="continuous")
    ap.add_argument("--both", action="store_true", help="one table against both references (a study made with both)")
    args = ap.parse_args()
    sys.exit(main_both(args.out) if args.both else main(args.out, args.reference))
