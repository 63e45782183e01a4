"""A coverage study's units against its continuous runs, phase by phase (docs/sampling.md, "The
phases' starts, sampled on the grid": poa's -2 % the same in every phase). For each case of a study
(experiments/coverage.sh OUT) and each phase both cover whole: the units' pooled IPC over the
windows measuring inside the phase's body (from its boundary on, the window measuring its start
left out: boundary_strata.phase_starts), and the continuous runs' IPC over the phase (its mean-thread
instructions over its time, between the run's `migration.per_phase` starts, at the run's own clock
rate), the mean over the references; then the units' difference.

    python3 experiments/phase_ipc.py OUT [--reference continuous|as-pass] [CASE...]
"""
import json
import pathlib
import statistics
import sys

import boundary_strata
import coverage_table


def run_phases(run: dict, threads: int) -> dict[int, float]:
    """A continuous run's IPC in each phase with a next one: {phase: IPC}."""
    cycles_per_ns = run["instructions"] / threads / run["sim_time_ns"] / run["ipc"]
    phases = sorted(run["migration"]["per_phase"], key=lambda p: p["phase"])
    return {p["phase"]: (q["mean_instructions"] - p["mean_instructions"]) / ((q["start_ns"] - p["start_ns"]) * cycles_per_ns)
            for p, q in zip(phases, phases[1:])}


def unit_phases(case: pathlib.Path) -> dict[int, float]:
    """The units' pooled IPC in each phase's body: {phase: IPC}, by where each window measures."""
    sampled = json.loads((case / "sampled.json").read_text())
    manifest = json.loads((case / "manifest.json").read_text())
    warmup, window = sampled["warmup_per_window"], sampled["instructions_per_window"]
    starts = boundary_strata.phase_starts(manifest, warmup, window)
    clock = {(u["phase"], u["unit"]): u["clock_instructions"] for u in manifest["units"]}
    boundaries = sorted((p["clock_instructions"], p["phase"]) for p in manifest["phases"])
    sums: dict[int, list[float]] = {}
    for w in boundary_strata.windows(case, sampled):
        key = (w["checkpoint_phase"], w["checkpoint_unit"])
        if key in starts:
            continue
        measures = clock[key] + warmup
        phase = max((p for b, p in boundaries if b <= measures), default=None)
        if phase is None:
            continue
        s = sums.setdefault(phase, [0.0, 0.0])
        s[0] += w["instructions"]
        s[1] += w["instructions"] / w["ipc"]
    return {p: i / c for p, (i, c) in sums.items()}


def main(out: str, kind: str = "continuous", only: list[str] | None = None) -> int:
    print("| case | phase | units' IPC | reference IPC | units |")
    print("|---|---|---|---|---|")
    for case in coverage_table.cases(out, only):
        threads = json.loads((case / "manifest.json").read_text())["threads"]
        per_run = [run_phases(r, threads) for r in coverage_table.reference(case, kind)]
        units = unit_phases(case)
        for phase in sorted(units):
            refs = [r[phase] for r in per_run if phase in r]
            if not refs:
                continue  # the runs' last phase: no start after it to end it
            ref = statistics.mean(refs)
            print(f"| {case.name} | {phase} | {units[phase]:.5g} | {ref:.5g} | {100 * (units[phase] / ref - 1):+.1f} % |")
    return 0


if __name__ == "__main__":
    args = coverage_table.study_arguments(__doc__).parse_args()
    sys.exit(main(args.out, args.reference, args.cases))
