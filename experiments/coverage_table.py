"""The coverage study's table (experiments/coverage.sh): per case, the units' IPC and AMAT with their
95 % intervals, the continuous run's, and whether each interval holds it; then the fraction held.

    python3 experiments/coverage_table.py OUT
"""
import json
import pathlib
import sys


def row(case: pathlib.Path) -> tuple[str, list[bool]]:
    sampled = json.loads((case / "sampled.json").read_text())
    truth = json.loads((case / "continuous.json").read_text())
    cells, held = [case.name, str(sampled["windows"])], []
    for key, digits in (("ipc", 4), ("amat_ns", 0)):
        c = sampled["confidence"].get(key)
        if not c:
            cells += ["-", f"{truth[key]:.{digits}f}", "-"]
            continue
        ok = c["low"] <= truth[key] <= c["high"]
        held.append(ok)
        cells += [f"{sampled[key]:.{digits}f} ({c['low']:.{digits}f}-{c['high']:.{digits}f})", f"{truth[key]:.{digits}f}",
                  "yes" if ok else f"no ({100 * (sampled[key] / truth[key] - 1):+.0f} %)"]
    return "| " + " | ".join(cells) + " |", held


def main(out: str) -> int:
    cases = sorted(p for p in pathlib.Path(out).iterdir() if (p / "done").exists())
    if not cases:
        sys.exit(f"{out}: no finished case (experiments/coverage.sh)")
    print("| case | units | sampled IPC (95 %) | continuous IPC | held | sampled AMAT ns (95 %) | continuous AMAT | held |")
    print("|---|---|---|---|---|---|---|---|")
    held = []
    for case in cases:
        line, ok = row(case)
        print(line)
        held += ok
    print(f"\n{sum(held)} of {len(held)} intervals ({100 * sum(held) / len(held):.0f} %) hold the continuous run's value")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
