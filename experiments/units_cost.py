"""What the sampled evaluation with units (issue 38) costs at the paper's lengths, priced from a
coverage study (experiments/coverage.sh, SHORT) and its passes again at a longer length
(experiments/units_cost.sh, LONG); docs/cluster.md, "Units at the paper's lengths".

    python3 experiments/units_cost.py SHORT LONG [--instructions N] [--target-error E] [--nodes K]
                                      [--generators FILE]

Per workload, both machines: the functional pass's host seconds as a fixed part plus a cost per
instruction (the two lengths' passes, `pass_seconds` and `instructions`, every thread's, in their
manifests), so its time at N instructions per thread; the units a comparison needs for a 95 %
interval of +-E on the speedup (the study's paired units' half-width scaled by the square root of
their count); each unit's window time (the study's windows' host seconds over their count). The
passes are serial, one per machine; the windows spread over the cores or nodes.

With --generators (`starnuma benchmark --generators SPEC... --json` of the study's workloads), the
floor under any pass that reads every operation: producing the streams once at that length (the
study's operations per instruction, at the generator's rate alone), whatever the pass does with
them.
"""
from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools" / "report"))
from intervals import paired_speedup  # noqa: E402

MACHINES = ("baseline16-scaled", "starnuma16-scaled")


def hours(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} h" if seconds >= 3600 else f"{seconds / 60:,.0f} min"


def pass_model(short: dict, long: dict) -> tuple[float, float]:
    """(fixed seconds, seconds per instruction of all threads) of one machine's pass."""
    per_instruction = (long["pass_seconds"] - short["pass_seconds"]) / (long["instructions"] - short["instructions"])
    return max(0.0, short["pass_seconds"] - per_instruction * short["instructions"]), per_instruction


def price(runs: dict, instructions: float, target: float, cores: int, nodes: int) -> dict | None:
    """One workload's price: `runs` maps each machine to (its study's manifest, the longer pass's
    manifest, its study's sampled.json). Seconds of one core, and wall seconds on `cores` cores and
    on `nodes` nodes for this workload alone; None without two paired units."""
    passes, unit_seconds, rates = [], [], []
    for m in MACHINES:
        short, long, s = runs[m]
        fixed, per_instruction = pass_model(short, long)
        rates.append(1 / per_instruction)
        passes.append(fixed + per_instruction * instructions * short["threads"])
        unit_seconds.append(s["host_seconds"] / (s["windows"] + s.get("windows_timing_copies", 0)))
    pair = paired_speedup(runs[MACHINES[1]][2], runs[MACHINES[0]][2])
    if not pair:
        return None
    speedup, low, high = pair
    n = min(runs[m][2]["windows"] for m in MACHINES)
    half = (high - low) / 2 / speedup
    needed = max(2, math.ceil(n * (half / target) ** 2))
    windows = needed * sum(unit_seconds)  # both machines' units
    return {"rate": min(rates), "pass": max(passes), "units": needed, "half": half, "paired": n,
            "unit_seconds": sum(unit_seconds) / 2, "one_core": sum(passes) + windows,
            "cores": max(max(passes), (sum(passes) + windows) / cores),
            "nodes": max(passes) + math.ceil(2 * needed / nodes) * max(unit_seconds)}


def case_name(spec: str) -> str:
    """A workload's folder name in a study (experiments/coverage.sh: ':', ',' and '=' as '_')."""
    return spec.translate(str.maketrans(":,=", "___"))


def streams_seconds(manifest: dict, instructions: float, generator: dict) -> float:
    """Seconds of one core producing the streams of `instructions` per thread, at the rate
    `generator` measured, the operations per instruction the pass `manifest` read."""
    operations = instructions * manifest["threads"] * manifest["accesses"] / manifest["instructions"]
    return operations / generator["operations_per_second"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("short")
    ap.add_argument("long")
    ap.add_argument("--instructions", type=float, default=1e10,
                    help="per thread (default: the paper's 10 phases of 1 B)")
    ap.add_argument("--target-error", type=float, default=0.03)
    ap.add_argument("--nodes", type=int, default=64)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--generators", help="starnuma benchmark --generators ... --json: the streams' floor")
    a = ap.parse_args()
    generators = {case_name(g["workload"]): g for g in json.loads(pathlib.Path(a.generators).read_text())} \
        if a.generators else {}
    short, long = pathlib.Path(a.short), pathlib.Path(a.long)
    workloads: dict[str, dict[str, pathlib.Path]] = {}
    for case in sorted(p for p in short.iterdir() if (p / "done").exists()):
        for m in MACHINES:
            if case.name.endswith("-" + m):
                workloads.setdefault(case.name[: -len(m) - 1], {})[m] = case
    print("| workload | the slower pass, M instructions/s | at the paper's length | units for +-"
          f"{100 * a.target_error:.0f} % on the speedup | a unit's window | {a.cores} cores | {a.nodes} nodes |"
          + (" its streams alone |" if generators else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if generators else ""))
    one_core, longest, streams = 0.0, 0.0, 0.0
    for name, cases in workloads.items():
        if set(cases) != set(MACHINES) or not all((long / c.name / "manifest.json").exists() for c in cases.values()):
            print(f"{name}: needs both machines in SHORT and LONG", file=sys.stderr)
            continue
        runs = {m: tuple(json.loads(f.read_text()) for f in (c / "manifest.json", long / c.name / "manifest.json",
                                                               c / "sampled.json")) for m, c in cases.items()}
        p = price(runs, a.instructions, a.target_error, a.cores, a.nodes)
        if not p:
            print(f"{name}: fewer than two paired units", file=sys.stderr)
            continue
        one_core += p["one_core"]
        longest = max(longest, p["nodes"])
        floor = ""
        if generators:
            if name not in generators:
                print(f"{name}: not in {a.generators}", file=sys.stderr)
                return 1
            seconds = streams_seconds(runs[MACHINES[0]][0], a.instructions, generators[name])
            streams += seconds
            floor = f" {hours(seconds)} |"
        print(f"| {name} | {p['rate'] / 1e6:.1f} | {hours(p['pass'])} | {p['units']} (+-{100 * p['half']:.1f} % "
              f"with {p['paired']}) | {p['unit_seconds']:.2f} s | {hours(p['cores'])} | {hours(p['nodes'])} |"
              + floor)
    print(f"\nAll of them: {hours(one_core)} of one core, {hours(one_core / a.cores)} on {a.cores} cores (at best), "
          f"{hours(max(longest, one_core / a.nodes))} on {a.nodes} nodes (at best: no study is shorter than its "
          "longest pass, which is serial).")
    if generators:
        print(f"Their streams alone, each produced once: {hours(streams)} of one core, {hours(streams / a.cores)} "
              f"on {a.cores} cores: the least any pass reading every operation costs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
