"""Does the units' grid over-weight the phases' starts? (docs/sampling.md, "The phases' starts,
sampled on the grid"). When a phase is a multiple of the units' spacing and each unit is led by its
window's warm-up (the coverage study's placement), the unit before each boundary measures exactly
the first stretch of the next phase: the scan, the annexes' marks and the first copies. Every
boundary's start is then measured, each standing for a whole spacing of work as every unit does,
where in the execution it lasts one window's stretch at most.

For each case of a coverage study (experiments/coverage.sh OUT) this prints the units' pooled IPC
and the same windows stratified: the units that start a phase in their window (their stats.json's
`checkpoint_next_boundary.crossed`) stand for their own measured stretch, the others share the rest
of the units' work (units x spacing); each against the mean of the references.

    python3 experiments/boundary_strata.py OUT [--reference continuous|as-pass]
"""
import argparse
import json
import pathlib
import statistics
import sys

import coverage_table


def windows(case: pathlib.Path) -> list[dict]:
    """The windows in the estimate, each with its instructions, IPC and whether it started a phase."""
    sampled = json.loads((case / "sampled.json").read_text())
    found = []
    for stats in sorted((case / "windows").glob("window-*/stats.json")):
        w = json.loads(stats.read_text())
        if not w.get("checkpoint_unit"):
            continue  # a boundary's window: it times the copies, not in the estimate
        crossed = w.get("checkpoint_next_boundary", {}).get("crossed", False)
        found.append({"instructions": w["instructions"], "ipc": w["ipc"], "starts_a_phase": crossed})
    if len(found) != sampled["windows"]:
        sys.exit(f"{case}: {len(found)} units' windows under windows/, sampled.json says {sampled['windows']}")
    return found


def pooled(weighted: list[tuple[float, dict]]) -> float:
    """Instructions over cycles, each window's counted `weight` times."""
    return sum(k * w["instructions"] for k, w in weighted) / sum(k * w["instructions"] / w["ipc"] for k, w in weighted)


def stratified(units: list[dict], spacing: float, window: float) -> float:
    """The phases' starts at their own weight: one window's stretch each; the rest share the others."""
    starts = [w for w in units if w["starts_a_phase"]]
    rest = [w for w in units if not w["starts_a_phase"]]
    if not starts or not rest:
        return pooled([(1.0, w) for w in units])
    share = (len(units) * spacing - len(starts) * window) / (len(rest) * window)
    return pooled([(1.0, w) for w in starts] + [(share, w) for w in rest])


def main(out: str, kind: str = "continuous") -> int:
    cases = sorted(p for p in pathlib.Path(out).iterdir() if (p / "done").exists())
    if not cases:
        sys.exit(f"{out}: no finished case (experiments/coverage.sh)")
    print("| case | units | starting a phase | pooled IPC | stratified IPC | reference IPC | pooled | stratified "
          "| interval's half-width |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in cases:
        sampled = json.loads((case / "sampled.json").read_text())
        manifest = json.loads((case / "manifest.json").read_text())
        units = windows(case)
        spacing, window = manifest["unit_every"], sampled["instructions_per_window"]
        ref = statistics.mean(r["ipc"] for r in coverage_table.reference(case, kind))
        flat, strat = pooled([(1.0, w) for w in units]), stratified(units, spacing, window)
        half = sampled["confidence"].get("ipc", {}).get("relative_half_width", float("nan"))
        print(f"| {case.name} | {len(units)} | {sum(w['starts_a_phase'] for w in units)} | {flat:.4f} | {strat:.4f} "
              f"| {ref:.4f} | {100 * (flat / ref - 1):+.1f} % | {100 * (strat / ref - 1):+.1f} % | +-{100 * half:.1f} % |")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--reference", choices=sorted(coverage_table.REFERENCES), default="continuous")
    args = ap.parse_args()
    sys.exit(main(args.out, args.reference))
