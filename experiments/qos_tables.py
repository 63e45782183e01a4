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


def percent(x):
    return f"{100 * x:.0f} %"


def findings(runs):
    """The figures the page's text states: what the streams cost the chase, how much of it the
    throttling gives back and at what cost to the streams, and how often the device was overloaded."""
    chase = {name: program(runs[name], "chase") for name, _ in CASES}
    alone, off = chase["alone"]["time_ns"], chase["shared-off"]["time_ns"]
    streams = {name: max(p["time_ns"] for n, p in runs[name]["programs"].items() if n.startswith("stream"))
               for name, _ in CASES[1:]}
    v = {"chase_cost": percent(off / alone - 1),
         "chase_amat.alone": f"{chase['alone']['amat_ns']:.0f}",
         "chase_amat.off": f"{chase['shared-off']['amat_ns']:.0f}",
         "telemetry_changes_nothing": "yes" if runs["shared-telemetry"]["sim_time_ns"] == runs["shared-off"][
             "sim_time_ns"] else "NO"}
    for step in ("1ns", "4ns"):
        name = f"shared-throttle-{step}"
        v[f"recovered.{step}"] = percent((off - chase[name]["time_ns"]) / (off - alone))
        v[f"streams_longer.{step}"] = percent(streams[name] / streams["shared-off"] - 1)
    for name, key in (("shared-telemetry", "off"), ("shared-throttle-1ns", "1ns"), ("shared-throttle-4ns", "4ns")):
        qos = runs[name]["stats"]["nodes"]["pool"]["qos"]
        v[f"moderate_share.{key}"] = percent(qos["moderate"] / sum(qos[k] for k in LOADS))
    return v


def values(finished):
    runs = by_name(finished)
    return {"table": table(runs), **findings(runs)}


if __name__ == "__main__":
    main(__doc__, values)
