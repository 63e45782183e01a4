"""The main job's summary (README): the two machines' sampled aggregates side by side, then the
speedup. One formatter for experiments/sampled.sh, which prints it, and for validation_doc.py, which
writes README's copy from the validation sweep's database, so the two cannot differ.

    python3 tools/report/main_job.py OUT    # OUT/{baseline16-scaled,starnuma16-scaled}/sampled/sampled.json
    python3 tools/report/main_job.py --continuous OUT    # OUT/{...}/continuous.json, the same work run continuously
"""
import json
import sys

from intervals import paired_speedup

MACHINES = ("baseline16-scaled", "starnuma16-scaled")
KNOWLEDGE = {"baseline16-scaled": "perfect per-page knowledge", "starnuma16-scaled": "T16 trackers, Algorithm 1"}


def window_lines(result: dict) -> list:
    """The window table `starnuma sample` prints (tools/starnuma/sampled.cpp)."""
    lines = ["window  IPC     AMAT (ns)  pages moved  to pool  in flight"]
    for w in result["per_window"]:
        name = f"{w['phase']}" + (f".{w['unit']}" if w.get("unit") else "")
        aside = "" if w.get("in_estimate", True) else "  (times the copies; not in the estimate)"
        lines.append(f"{name:<8}{w['ipc']:<8.3f}{w['amat_ns']:<11.1f}{w['pages_moved']:<13}{w['to_pool']:<9}"
                     f"{w.get('copies_in_flight', 0)}{aside}")
    return lines


def summary_lines(base: dict, star: dict) -> list:
    def row(what, f):
        return f"  {what:<24}{f(base):<44}{f(star)}".rstrip()

    def accesses(x):
        return " ".join(f"{k} {100 * v:.0f}%" for k, v in x["access_breakdown"].items() if not k.startswith("bt-"))

    def moved(x):
        return f"{x['migration']['pages_moved']} ({100 * x['migration']['to_pool_fraction']:.0f} % to the pool)"

    return [
        f"  {'':<24}{MACHINES[0]:<44}{MACHINES[1]}",
        row("IPC per core", lambda x: f"{x['ipc']:.3f}"),
        row("AMAT (unloaded + cont.)",
            lambda x: f"{x['amat_ns']:.1f} ns ({x['amat_unloaded_ns']:.0f} + {x['amat_contention_ns']:.0f})"),
        row("accesses", accesses),
        row("pages moved", moved),
        "",
        headline(base, star),
        *interval_line(base, star),
    ]


def headline(base: dict, star: dict) -> str:
    return f"speedup {star['ipc'] / base['ipc']:.2f}x, AMAT reduction {100 * (1 - star['amat_ns'] / base['amat_ns']):.1f} %"


def interval_line(base: dict, star: dict) -> list:
    """The speedup's 95 % interval over the windows paired by phase (docs/sampling.md, "Intervals")."""
    ci = paired_speedup(star, base)
    if not ci:
        return []
    paired = sum(1 for w in star["per_window"] if w.get("in_estimate", True))
    return [f"speedup's 95 % interval, the {paired} windows paired by phase: "
            f"{ci[1]:.2f}-{ci[2]:.2f}x"]


def continuous_lines(base: dict, star: dict) -> list:
    """The same work by continuous runs (`run --json`, every phase timed), against which the sampled
    answer is an estimate (experiments/sampled.sh with CONTINUOUS=1)."""
    def machine(name, x):
        return (f"  {name:<20} IPC {x['ipc']:.4f}, AMAT {x['amat_ns']:.1f} ns ({x['amat_unloaded_ns']:.0f} + "
                f"{x['amat_contention_ns']:.0f}), {x['migration']['pages_moved']} pages moved in "
                f"{x['migration']['phases']} phases")
    return ["continuous runs of the same work, every phase timed:", machine(MACHINES[0], base),
            machine(MACHINES[1], star), headline(base, star)]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--continuous":
        results = [json.load(open(f"{sys.argv[2]}/{m}/continuous.json")) for m in MACHINES]
        print("\n".join(continuous_lines(*results)))
        sys.exit(0)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = [json.load(open(f"{sys.argv[1]}/{m}/sampled/sampled.json")) for m in MACHINES]
    print("\n".join(summary_lines(*results)))
