"""A coverage study's windows aggregated again with the phases' starts as a stratum
(docs/sampling.md, "The phases' starts, a stratum"), for studies made before `sample` stratified
them. When a phase is a multiple of the units' spacing and each unit is led by its window's warm-up
(the coverage study's placement), the unit before each boundary measures exactly the first stretch
of the next phase: the scan, the annexes' marks and the first copies. Pooled, each such window
stands for a whole spacing of work, where in the execution the start lasts one window's stretch.

Since 2026-11-29 (eighth) `sample` stratifies itself (tools/starnuma/sampled_aggregate.cpp): the windows
measuring a phase's start (a boundary at most kPlacementSlack before their measurement, or within
it, by the manifest's clocks) stand for their own stretch, the others share the rest of the units'
work, and the interval is the stratified ratio estimator's (tools/report/intervals.py). This script
applies the same rules to a study's windows (their stats.json) and prints, for each case and for IPC
and AMAT, the pooled estimate as the study's sampled.json gave it and the stratified one, each with
its interval and whether it holds the mean of the references; then how many held each way.

    python3 experiments/boundary_strata.py OUT [--reference continuous|as-pass]
"""
import argparse
import json
import pathlib
import statistics
import sys

import coverage_table

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools" / "report"))
import intervals  # noqa: E402

PLACEMENT_SLACK = 1000  # kPlacementSlack in tools/starnuma/sampled_aggregate.cpp


def phase_starts(manifest: dict, warmup: int, instructions: int) -> set[tuple[int, int]]:
    """The units (phase, unit) whose windows measure a phase's start, as `sample` finds them."""
    every = manifest.get("unit_every", 0)
    reach = min(instructions, every)
    boundaries = [p["clock_instructions"] for p in manifest.get("phases", [])]
    found = set()
    for u in manifest.get("units", []):
        measures = u["clock_instructions"] + warmup
        if any(b + PLACEMENT_SLACK >= measures and b < measures + reach for b in boundaries):
            found.add((u["phase"], u["unit"]))
    return found


def windows(case: pathlib.Path, sampled: dict) -> list[dict]:
    """The units' windows in the estimate (a boundary's times the copies), each its stats.json."""
    found = []
    for stats in sorted((case / "windows").glob("window-*/stats.json")):
        w = json.loads(stats.read_text())
        if w.get("checkpoint_unit"):
            found.append(w)
    if len(found) != sampled["windows"]:
        sys.exit(f"{case}: {len(found)} units' windows under windows/, sampled.json says {sampled['windows']}")
    return found


def stratified(case: pathlib.Path) -> tuple[dict, int]:
    """The case's IPC and AMAT as (estimate, low, high), stratified as `sample` does; and the
    windows measuring a phase's start. Without a gap between the windows, or without a start among
    them, the pooled estimator's (the strata are not used)."""
    sampled = json.loads((case / "sampled.json").read_text())
    manifest = json.loads((case / "manifest.json").read_text())
    units = windows(case, sampled)
    every, window = manifest["unit_every"], sampled["instructions_per_window"]
    starts = phase_starts(manifest, sampled["warmup_per_window"], window)
    is_start = [(w["checkpoint_phase"], w["checkpoint_unit"]) in starts for w in units]
    n_starts, rest = sum(is_start), len(units) - sum(is_start)
    work, stretch = len(manifest["units"]) * every, min(window, every)
    if window < every and n_starts and rest and work > n_starts * stretch:
        rest_weight = (work - n_starts * stretch) / (rest * every)
        weight = [stretch / every if s else rest_weight for s in is_start]
    else:
        weight = [1.0] * len(units)
    stratum = [int(s) for s in is_start]
    accesses = [sum(w["memory_accesses"].values()) for w in units]
    ipc = intervals.stratified_ratio([w["instructions"] for w in units],
                                     [w["instructions"] / w["ipc"] for w in units], weight, stratum)
    amat = intervals.stratified_ratio([a * w["amat_ns"] for a, w in zip(accesses, units)], accesses, weight, stratum)
    return {"ipc": ipc, "amat_ns": amat}, n_starts


def main(out: str, kind: str = "continuous") -> int:
    cases = coverage_table.cases(out)
    print("| case | units | starting a phase | pooled IPC (95 %) | stratified IPC (95 %) | reference IPC | held "
          "(pooled, stratified) | pooled AMAT | stratified AMAT | reference AMAT | held |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    held = {"pooled": [], "stratified": []}
    for case in cases:
        sampled = json.loads((case / "sampled.json").read_text())
        strata, n_starts = stratified(case)
        cells = [case.name, str(sampled["windows"]), str(n_starts)]
        for key, digits in (("ipc", 4), ("amat_ns", 0)):
            ref = statistics.mean(r[key] for r in coverage_table.reference(case, kind))
            c = sampled["confidence"].get(key)
            pooled = (sampled[key], c["low"], c["high"]) if c else None
            verdicts = []
            for name, e in (("pooled", pooled), ("stratified", strata[key])):
                if e is None:
                    cells.append("-")
                    verdicts.append("-")
                    continue
                ok = e[1] <= ref <= e[2]
                held[name].append(ok)
                cells.append(f"{e[0]:.{digits}f} ({e[1]:.{digits}f}-{e[2]:.{digits}f})")
                verdicts.append("yes" if ok else f"no ({100 * (e[0] / ref - 1):+.1f} %)")
            cells += [f"{ref:.{digits}f}", ", ".join(verdicts)]
        print("| " + " | ".join(cells) + " |")
    for name, ok in held.items():
        print(f"\n{name}: {sum(ok)} of {len(ok)} intervals hold the mean of {coverage_table.REFERENCES[kind]}", end="")
    print()
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--reference", choices=sorted(coverage_table.REFERENCES), default="continuous")
    args = ap.parse_args()
    sys.exit(main(args.out, args.reference))
