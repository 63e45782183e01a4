#!/usr/bin/env python3
"""One link direction's load over time, from a run's waves (`run --waves FILE.vcd --waves-filter
'links.NAME'`; docs/debugging.md): per bin of simulated time, the fraction of it the direction was
busy and its queue's mean depth (messages waiting or in service), from when the direction first
carries anything. Several VCDs side by side (a unit's window and a continuous run) show whether a
queue a window measures has built as the run's has (docs/sampling.md, "What socket 0's link
carries").

    python3 experiments/link_queue.py LINK FROM VCD [VCD...] [--bin-us 5] [--last-us N]

LINK is the link's name (upi_socket0_flex0), FROM the node its direction leaves (socket0).
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from vcd_reader import parse, time_integral  # noqa: E402

PS_PER_US = 1_000_000


def bins(path: str, link: str, end_node: str, bin_ps: int) -> list[tuple[float, float, float]]:
    """(start in us, busy fraction, mean queue depth) per bin, from the first bin the direction is
    busy in to the waves' last change (the last bin as long as what is left)."""
    signals, _, last = parse(path)
    prefix = f"links.{link}.from_{end_node}."
    busy, queue = signals.get(prefix + "busy"), signals.get(prefix + "queue")
    if busy is None or queue is None:
        sys.exit(f"{path}: no waves of {prefix}busy and {prefix}queue (record them with --waves-filter 'links.{link}')")
    active = [t for t, v in busy if v]
    if not active:
        return []
    start = active[0] // bin_ps * bin_ps
    rows = []
    for at in range(start, last, bin_ps):
        end = min(at + bin_ps, last)
        rows.append((at / PS_PER_US, time_integral(busy, at, end) / (end - at), time_integral(queue, at, end) / (end - at)))
    return rows


def main(link: str, end_node: str, vcds: list[str], bin_us: float, last_us: float) -> int:
    bin_ps = int(bin_us * PS_PER_US)
    files = [(path, bins(path, link, end_node, bin_ps)) for path in vcds]  # every file read before printing
    print(f"| {link} from {end_node}: file | bin start, us | busy | mean queue |")
    print("|---|---|---|---|")
    for path, rows in files:
        if last_us:
            rows = rows[-max(1, int(round(last_us / bin_us))):]
        for at, busy, queue in rows:
            print(f"| {pathlib.Path(path).name} | {at:.1f} | {busy:.2f} | {queue:.1f} |")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("link")
    ap.add_argument("end_node", metavar="from")
    ap.add_argument("vcds", nargs="+")
    ap.add_argument("--bin-us", type=float, default=5.0, help="the bins' width in simulated us (5)")
    ap.add_argument("--last-us", type=float, default=0.0, help="only the last N us of each file")
    a = ap.parse_args()
    sys.exit(main(a.link, a.end_node, a.vcds, a.bin_us, a.last_us))
