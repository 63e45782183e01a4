#!/usr/bin/env python3
"""The table of experiments/qos.yaml's sweep (issue 40): a latency-sensitive host's pointer chase
alone and beside two streaming hosts on one CXL pool, without QoS, with the device's DevLoad only,
and with the hosts throttling by it; Markdown on stdout (docs/cxl-device.md, "QoS telemetry").

   python3 experiments/qos_tables.py SWEEP_DIR
"""
from sweep_runs import grouped, main

CASES = [("alone", "the chase alone"), ("shared-off", "beside two streams, no QoS"),
         ("shared-telemetry", "beside them, DevLoad reported, no throttling"),
         ("shared-throttle-1ns", "beside them, hosts throttle (qos_step 1 ns)"),
         ("shared-throttle-4ns", "beside them, hosts throttle (qos_step 4 ns)")]
LOADS = ["light", "optimal", "moderate", "severe"]


def by_name(finished):
    return {name: stats for name, _, _, stats in finished}


def program(stats, name):
    return stats["programs"].get(name)


def table(runs):
    lines = ["| case | chase: time (us) | chase: AMAT (ns) | streams: time (us) | streams: AMAT (ns) | "
             "DevLoad reported (light / optimal / moderate / severe) |", "|---|---|---|---|---|---|"]
    for name, label in CASES:
        s = runs[name]
        chase = program(s, "chase")
        streams = [p for n, p in s["programs"].items() if n.startswith("stream")]
        qos = s["stats"]["nodes"]["pool"].get("qos")
        loads = " / ".join(grouped(qos[k]) for k in LOADS) if qos else "-"
        st = (f"{grouped(max(p['time_ns'] for p in streams) / 1e3)} | "
              f"{max(p['amat_ns'] for p in streams):.0f}") if streams else "- | -"
        lines.append(f"| {label} | {grouped(chase['time_ns'] / 1e3)} | {chase['amat_ns']:.1f} | {st} | {loads} |")
    return "\n".join(lines)


def values(finished):
    runs = by_name(finished)
    return {"table": table(runs)}


if __name__ == "__main__":
    main(__doc__, values)
