"""The table of experiments/tracking_cost.sh: per workload, from its two runs (the trackers' metadata
through the coherent LLCs, CASE-llc, and through a metadata cache of their own, CASE-cache), the
flushes per 1 000 instructions, the share of them that found their tracker's queue full, the
share of the cores' cycles the trackers held them, the share of the metadata requests the LLC
served, the phase marks, and each run's IPC, pages moved and share of them to the pool.

    python3 experiments/tracking_cost_table.py OUT
"""
import json
import pathlib
import sys

TRACKING = ("flushes", "stalled_flushes", "core_stall_cycles", "metadata_llc_hits", "tracker_reads", "tracker_writes",
            "phase_marks")


def totals(stats_file: pathlib.Path) -> dict:
    """The run's summary figures and its sockets' tracking counters and cores' cycles, summed."""
    run = json.loads(stats_file.read_text())
    sums = dict.fromkeys(TRACKING + ("cycles",), 0)
    for node in run["stats"]["nodes"].values():
        for key in TRACKING:
            sums[key] += node.get("tracking", {}).get(key, 0)
        sums["cycles"] += sum(c["cycles"] for k, c in node.items() if k.startswith("core") and "cycles" in c)
    migration = run.get("migration", {})
    return {**sums, "instructions": run["instructions"], "ipc": run["ipc"],
            "moved": migration.get("pages_moved", 0), "to_pool": migration.get("to_pool_fraction", 0.0)}


def share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def row(name: str, llc: dict, cache: dict) -> str:
    requests = llc["tracker_reads"] + llc["tracker_writes"]
    cells = [name, f"{1000 * llc['flushes'] / llc['instructions']:.2f}", share(llc["stalled_flushes"], llc["flushes"]),
             share(llc["core_stall_cycles"], llc["cycles"]), share(llc["metadata_llc_hits"], requests),
             str(llc["phase_marks"]), f"{llc['ipc']:.4f}", f"{cache['ipc']:.4f}", f"{llc['ipc'] / cache['ipc']:.2f}x",
             f"{llc['moved']} ({100 * llc['to_pool']:.0f} %)", f"{cache['moved']} ({100 * cache['to_pool']:.0f} %)"]
    return "| " + " | ".join(cells) + " |"


def main(out: str) -> int:
    root = pathlib.Path(out)
    cases = sorted(p.name[:-len("-llc")] for p in root.glob("*-llc") if (p / "stats.json").exists())
    if not cases:
        sys.exit(f"{out}: no runs (CASE-llc/stats.json) to tabulate")
    print("| workload | flushes per 1 000 instructions | found the queue full | cores' cycles held | metadata "
          "requests the LLC served | phase marks | IPC, through the LLCs | IPC, own metadata cache | ratio | pages "
          "moved (to the pool), LLCs | the same, own cache |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in cases:
        cache = root / f"{name}-cache" / "stats.json"
        if not cache.exists():
            sys.exit(f"{out}: {name} has no run with its own metadata cache ({cache})")
        print(row(name, totals(root / f"{name}-llc" / "stats.json"), totals(cache)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
