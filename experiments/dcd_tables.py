#!/usr/bin/env python3
"""The table of experiments/dcd.yaml's sweep (issue 40): a pool's dynamic capacity released under a
running workload: how many pages the released extent held, who moved them out, how long the release
took, and what it cost the workload beside the run that kept its capacity; Markdown on stdout
(docs/cxl-device.md, "Dynamic capacity").

   python3 experiments/dcd_tables.py SWEEP_DIR
"""
from sweep_runs import grouped, main, span

RELEASES = ["2MiB", "4MiB", "6MiB", "8MiB"]


def table(runs):
    kept = runs["kept"]
    lines = ["| released of 8 MiB online | pages in the extent | moved out by the release | by the migration "
             "thread meanwhile | release took (us) | per page moved (us) | pool pages at the end | "
             "IPC against keeping it | AMAT (ns) |", "|---|---|---|---|---|---|---|---|---|",
             f"| none | - | - | - | - | - | {grouped(kept['dynamic_capacity']['pool']['pages_on_device'])} | "
             f"1.000 | {kept['amat_ns']:.0f} |"]
    for size in RELEASES:
        s = runs[f"released-{size}"]
        d = s["dynamic_capacity"]["pool"]
        e = d["events"][0]
        if e["status"] != "done":
            raise SystemExit(f"released-{size}: the release is {e['status']}: {e.get('reason', '')}")
        moved = e["pages_moved"]
        per_page = f"{e['duration_ns'] / moved / 1e3:.2f}" if moved else "-"
        lines.append(f"| {size} | {grouped(e['pages_in_extent'])} | {grouped(moved)} | "
                     f"{grouped(e['pages_moved_by_others'])} | {e['duration_ns'] / 1e3:.1f} | {per_page} | "
                     f"{grouped(d['pages_on_device'])} | {s['ipc'] / kept['ipc']:.3f} | {s['amat_ns']:.0f} |")
    return "\n".join(lines)


def findings(runs):
    """The figures the page's text states: the time per page the release thread moved, and what
    each release cost the workload."""
    kept = runs["kept"]
    v = {}
    per_page = []
    for size in RELEASES:
        s = runs[f"released-{size}"]
        e = s["dynamic_capacity"]["pool"]["events"][0]
        if e["pages_moved"]:
            per_page.append(e["duration_ns"] / e["pages_moved"] / 1e3)
        v[f"ipc.{size}"] = f"{s['ipc'] / kept['ipc']:.2f}"
        v[f"in_extent.{size}"] = grouped(e["pages_in_extent"])
        v[f"by_migration.{size}"] = grouped(e["pages_moved_by_others"])
        v[f"to_pool.{size}"] = grouped(s["migration"]["to_pool"])
    v["per_page"] = span(per_page, lambda x: f"{x:.2f}")
    v["to_pool.kept"] = grouped(kept["migration"]["to_pool"])
    v["dropped.kept"] = grouped(kept["migration"]["dropped"])
    return v


def values(finished):
    runs = {name: stats for name, _, _, stats in finished}
    return {"table": table(runs), **findings(runs)}


if __name__ == "__main__":
    main(__doc__, values)
