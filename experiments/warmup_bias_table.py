"""The warm-up study's table (experiments/warmup_bias.sh): per case and warm-up, the units' IPC and
AMAT against those with the longest warm-up, as the pooled estimate's relative difference and a
95 % interval of the per-unit differences. The units are paired by the stretch they measure: a
unit's place in the mean thread's work (its manifest's `mean_instructions`) plus its warm-up,
to the nearest multiple of the spacing (`unit_every`). Then, per warm-up, how many cases stay
within 1 % of the longest warm-up's IPC and AMAT.

    python3 experiments/warmup_bias_table.py OUT
"""
import json
import math
import pathlib
import statistics
import sys

from coverage_table import t95  # the same Student quantiles


def units(case: pathlib.Path, warmup: int) -> dict:
    """The units' windows by the stretch they measure (the multiple of the spacing it starts at)."""
    sampled = json.loads((case / f"warmup-{warmup}.json").read_text())
    manifest = json.loads((case / f"manifest-{warmup}.json").read_text())
    every = manifest["unit_every"]
    at = {(u["phase"], u["unit"]): u["mean_instructions"] for u in manifest["units"]}
    return {(at[(w["phase"], w["unit"])] + warmup + every // 2) // every: w
            for w in sampled["per_window"] if w["unit"] > 0}


def paired(short: dict, long: dict, key: str) -> tuple[float, float]:
    """Mean and 95 % half-width of the per-unit relative differences of `key` over the common units."""
    d = [short[u][key] / long[u][key] - 1 for u in long.keys() & short.keys() if long[u][key]]
    if len(d) < 2:
        return float("nan"), float("nan")
    return statistics.fmean(d), t95(len(d) - 1) * statistics.stdev(d) / math.sqrt(len(d))


def pooled_ipc(windows: dict, common: set) -> float:
    """The ratio estimator `sample` reports, over the common units: instructions over cycles."""
    return sum(windows[u]["instructions"] for u in common) / sum(
        windows[u]["instructions"] / windows[u]["ipc"] for u in common)


def percent(x: float) -> str:
    return f"{x:+.1%}".replace("%", " %")


def main(folder: str) -> int:
    out = pathlib.Path(folder)
    cases = sorted(c for c in out.iterdir() if (c / "done").exists())
    if not cases:
        print(f"{out}: no finished case", file=sys.stderr)
        return 1
    warmups = sorted({int(p.stem.split("-")[1]) for c in cases for p in c.glob("warmup-*.json")})
    longest = warmups[-1]
    print(f"Against the same stretches measured after a warm-up of {longest} instructions: the pooled IPC's "
          "difference, then the per-unit differences' mean +- their 95 % interval\n")
    print("| case | units | warm-up | IPC pooled | IPC per unit | AMAT per unit |")
    print("|---|---|---|---|---|---|")
    within = {w: [0, 0] for w in warmups[:-1]}
    for case in cases:
        long = units(case, longest)
        for w in warmups[:-1]:
            if not (case / f"warmup-{w}.json").exists():
                continue
            short = units(case, w)
            common = short.keys() & long.keys()
            ipc = pooled_ipc(short, common) / pooled_ipc(long, common) - 1
            (i_mean, i_half), (a_mean, a_half) = paired(short, long, "ipc"), paired(short, long, "amat_ns")
            print(f"| {case.name} | {len(common)} | {w} | {percent(ipc)} | {percent(i_mean)} +-{percent(i_half)[1:]} | "
                  f"{percent(a_mean)} +-{percent(a_half)[1:]} |")
            within[w][0] += abs(ipc) <= 0.01
            within[w][1] += abs(a_mean) <= 0.01
    print()
    for w in warmups[:-1]:
        print(f"warm-up {w}: the pooled IPC within 1 % of the {longest}'s in {within[w][0]} of {len(cases)} cases, "
              f"the AMAT in {within[w][1]}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
