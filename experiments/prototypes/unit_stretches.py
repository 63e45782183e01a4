"""Each unit of a coverage case against a continuous run of the same stretch (docs/sampling.md,
"Spans add up"): a unit's window measures WINDOW instructions of the mean thread after WARMUP from
its checkpoint; the same stretch of a continuous run is `run --warmup (unit - initialisation +
WARMUP) --instructions WINDOW --common-span`. Where the two agree unit by unit but not in total,
the measurement is at fault (how spans start and end); where they part unit by unit, the units'
state is (what the pass carries). The last line adds the cores' cycles: the units' against the
stretches', and what the stretches come to beside one continuous run over all of them is the
coverage study's own reference.

    python3 experiments/prototypes/unit_stretches.py CASE [--every N] [--set K=V ...] [--jobs J]
        [--moves-from CASE/pass-moves.csv]

CASE: one case of `experiments/coverage.sh OUT` (its manifest.json and sampled.json); --set: the
study's SETS, which the case does not record (a draw of the start skew: --set
platform.start_skew_draw=N); every N-th unit (default 1); --moves-from: the stretches given the
pass's moves (run --moves-from) instead of their own decisions, what sampling alone measures.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", type=pathlib.Path)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--moves-from", type=pathlib.Path)
    a = ap.parse_args()
    manifest = json.loads((a.case / "manifest.json").read_text())
    sampled = json.loads((a.case / "sampled.json").read_text())
    starnuma = os.environ.get("STARNUMA", str(ROOT / "build" / "starnuma"))
    at = {(u["phase"], u["unit"]): u["mean_instructions"] for u in manifest["units"]}
    units = [w for w in sampled["per_window"] if w["unit"] > 0][:: a.every]
    init, warmup, window = (manifest["initialised_at_mean_instructions"], sampled["warmup_per_window"],
                            sampled["instructions_per_window"])
    sets = [f"os.phase_instructions={manifest['phase_instructions']}", *a.set]

    def stretch(w):
        start = at[(w["phase"], w["unit"])] - init + warmup
        cmd = [starnuma, "run", manifest["platform"], "--workload", manifest["workload"], "--seed",
               str(manifest["seed"]), "--placement", "dynamic", "--warmup", str(start), "--instructions",
               str(window), "--common-span", "--no-progress", "--json"]
        for s in sets:
            cmd += ["--set", s]
        if a.moves_from:
            cmd += ["--moves-from", str(a.moves_from)]
        return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        runs = list(pool.map(stretch, units))
    print(f"{'unit':>6s} {'at':>8s} {'IPC unit':>9s} {'stretch':>9s} {'AMAT unit':>10s} {'stretch':>9s}")
    cycles_units = cycles_runs = instructions_units = instructions_runs = 0.0
    for w, r in zip(units, runs):
        print(f"{w['phase']}.{w['unit']:<4d} {at[(w['phase'], w['unit'])]:8d} {w['ipc']:9.4f} {r['ipc']:9.4f} "
              f"{w['amat_ns']:10.0f} {r['amat_ns']:9.0f}")
        cycles_units += w["instructions"] / w["ipc"]
        cycles_runs += r["instructions"] / r["ipc"]
        instructions_units += w["instructions"]
        instructions_runs += r["instructions"]
    print(f"cycles over these units: the units' {cycles_units:.4g}, the stretches' {cycles_runs:.4g} "
          f"({cycles_units / cycles_runs:.3f}x)")
    print(f"pooled IPC: the units' {instructions_units / cycles_units:.4f}, the stretches' "
          f"{instructions_runs / cycles_runs:.4f}")


if __name__ == "__main__":
    main()
