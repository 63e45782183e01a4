"""Build small but real `starnuma sweep` output folders for the report tests.

Every run is a real ./build/starnuma command (a few thousand instructions each, a few seconds in
all); this file only plays the sweep's part of recording them: runs/NAME/{summary,stats}.json and
stderr.txt, platforms/KEY/{latency,describe}.json and sweep.db, filled per the documented schema
(docs/reports.md). It deliberately shares no code with tools/report, so that the tests compare the
report against an independent reading of the same files.

    python3 tests/report/make_fixture.py OUT      # builds OUT/main and OUT/parts

The binary is $STARNUMA, default build/starnuma (relative to the repository root).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
  name TEXT PRIMARY KEY, key TEXT NOT NULL, kind TEXT NOT NULL,
  platform TEXT, platform_name TEXT, platform_key TEXT,
  workload TEXT NOT NULL, placement TEXT,
  seed INTEGER, instructions INTEGER, warmup INTEGER, pool_fraction REAL,
  sets TEXT NOT NULL, params TEXT NOT NULL,
  status TEXT NOT NULL, attempts INTEGER NOT NULL, exit_code INTEGER, error TEXT,
  executor TEXT, host TEXT, started REAL, finished REAL, host_seconds REAL,
  ipc REAL, amat_ns REAL, amat_unloaded_ns REAL, amat_contention_ns REAL,
  access_local REAL, access_1hop REAL, access_2hop REAL, access_pool REAL,
  util_upi REAL, util_numalink REAL, util_cxl REAL,
  llc_misses INTEGER, sim_time_ns REAL, pages_moved INTEGER, to_pool INTEGER,
  stats_path TEXT
);
"""

BASELINE, STARNUMA = "platforms/baseline16-scaled.yaml", "platforms/starnuma16-scaled.yaml"
# The run the main sweep makes fail, as a spec with an out-of-range --set value would.
FAILING = "starnuma16-scaled-sharing-dynamic"


def binary() -> str:
    path = Path(os.environ.get("STARNUMA", "build/starnuma"))
    path = path if path.is_absolute() else ROOT / path
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{path}: no starnuma binary (build it, or set STARNUMA)")
    return str(path)


class Sweep:
    """One results folder: call run() per run, then close()."""

    def __init__(self, out: Path, name: str, axes: list[str], baseline: str):
        self.dir = out
        shutil.rmtree(out, ignore_errors=True)
        (out / "runs").mkdir(parents=True)
        self.db = sqlite3.connect(out / "sweep.db")
        self.db.executescript(SCHEMA)
        version = subprocess.run([binary(), "--version"], capture_output=True, text=True).stdout.strip()
        meta = {"schema_version": "1", "sweep": name, "spec": f"tests/report/{name}.yaml",
                "starnuma_version": version, "baseline": baseline, "axes": json.dumps(axes)}
        self.db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        self.version = version

    def platform_key(self, platform: str, sets: dict) -> str:
        digest = hashlib.sha256(json.dumps([platform, sorted(sets.items())]).encode()).hexdigest()[:10]
        key = f"{Path(platform).stem}-{digest}"
        folder = self.dir / "platforms" / key
        if not folder.exists():
            flags = [a for k, v in sets.items() for a in ("--set", f"{k}={v}")]
            outputs = {}
            for what in ("latency", "describe"):
                p = subprocess.run([binary(), what, platform, *flags, "--json"], cwd=ROOT,
                                   capture_output=True, text=True)
                if p.returncode != 0:  # a configuration the binary refuses has no folder
                    return key
                outputs[what] = p.stdout
            folder.mkdir(parents=True)
            for what, text in outputs.items():
                (folder / f"{what}.json").write_text(text)
        return key

    def run(self, name: str, kind: str, params: dict, workload: str, instructions: int, platform: str | None = None,
            placement: str | None = None, pool_fraction: str | None = None, sets: dict | None = None, **options):
        sets = dict(sets or {})
        folder = self.dir / "runs" / name
        work = folder / "work"
        work.mkdir(parents=True)
        flags = [a for k, v in sets.items() for a in ("--set", f"{k}={v}")]
        if kind == "run":
            commands = [[binary(), "run", platform, "--workload", workload, "--instructions", str(instructions),
                         *(["--placement", placement] if placement else []),
                         *(["--pool-fraction", pool_fraction] if pool_fraction else []), *flags,
                         "--out", str(work), "--json", "--no-progress"]]
            stats_file = work / "stats.json"
        elif kind == "sampled":
            commands = [[binary(), "checkpoint", platform, "--workload", workload, "--checkpoints",
                         str(options["checkpoints"]), *flags, "--out", str(work / "checkpoints"), "--no-progress"],
                        [binary(), "sample", platform, "--checkpoints", str(work / "checkpoints"), "--instructions",
                         str(instructions), "--warmup", str(options["warmup"]), "--jobs", "1", *flags,
                         "--out", str(work / "sampled"), "--json"]]
            stats_file = work / "sampled" / "sampled.json"
        else:
            commands = [[binary(), "profile", "--workload", workload, "--instructions", str(instructions), "--json"]]
            stats_file = None  # the summary is the statistics
        started = time.time()
        stdout, stderr, code = "", "", 0
        for argv in commands:
            p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
            stdout, stderr, code = p.stdout, stderr + p.stderr, p.returncode
            if code:
                break
        finished = time.time()
        (folder / "stderr.txt").write_text(stderr)
        summary = {}
        if code == 0:
            (folder / "summary.json").write_text(stdout)
            summary = json.loads(stdout)
            shutil.copyfile(stats_file or folder / "summary.json", folder / "stats.json")
        access, util = summary.get("access_breakdown", {}), summary.get("link_utilization", {})
        migration = summary.get("migration", {})
        row = {
            "name": name, "key": hashlib.sha256(json.dumps([self.version, commands]).encode()).hexdigest(),
            "kind": kind, "platform": platform, "platform_name": Path(platform).stem if platform else None,
            "platform_key": self.platform_key(platform, sets) if platform else None,
            "workload": workload, "placement": "sampled" if kind == "sampled" else placement,
            "seed": 1, "instructions": instructions, "warmup": options.get("warmup"),
            "pool_fraction": float(pool_fraction) if pool_fraction else None,
            "sets": json.dumps(sets), "params": json.dumps(params),
            "status": "done" if code == 0 else "failed", "attempts": 1,
            "exit_code": code, "error": stderr[-2000:] if code else None,
            "executor": "local", "host": socket.gethostname(), "started": started, "finished": finished,
            "host_seconds": summary.get("host_seconds", finished - started),
            "ipc": summary.get("ipc"), "amat_ns": summary.get("amat_ns"),
            "amat_unloaded_ns": summary.get("amat_unloaded_ns"),
            "amat_contention_ns": summary.get("amat_contention_ns"),
            "access_local": access.get("local"), "access_1hop": access.get("1-hop"),
            "access_2hop": access.get("2-hop"), "access_pool": access.get("pool"),
            "util_upi": util.get("upi"), "util_numalink": util.get("numalink"), "util_cxl": util.get("cxl"),
            "llc_misses": summary.get("llc_misses"), "sim_time_ns": summary.get("sim_time_ns"),
            "pages_moved": migration.get("pages_moved"), "to_pool": migration.get("to_pool"),
            "stats_path": f"runs/{name}/stats.json" if code == 0 else None,
        }
        self.db.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
        shutil.rmtree(work)  # checkpoints and windows are not part of the contract

    def close(self):
        self.db.commit()
        self.db.close()


def build_main(out: Path):
    """platform x workload x placement, kind run; one run fails."""
    s = Sweep(out, "fixture-main", ["platform", "workload", "placement"], "baseline16-scaled")
    fixed = {"os.phase_instructions": "1000"}
    for platform, workload, placement in itertools.product([BASELINE, STARNUMA], ["sharing", "bfs:scale=12"],
                                                           ["oracle", "dynamic"]):
        name = f"{Path(platform).stem}-{workload.split(':')[0]}-{placement}"
        params = {"platform": platform, "workload": workload, "placement": placement}
        sets = dict(fixed, **({"os.migration_limit": "9999999"} if name == FAILING else {}))
        s.run(name, "run", params, workload, 5000, platform=platform, placement=placement, sets=sets)
    s.close()


def build_parts(out: Path):
    """A sweep of parts, like experiments/quick.yaml: `pool` (platform x pool_fraction, kind run),
    `sampled` (the tracking --set zipped with the platform, as in experiments/sampled.sh) and
    `profile` (Fig. 2). A run's params hold only its own part's axes."""
    axes = ["part", "platform", "pool_fraction", "set:topology.socket.tracking.impl", "workload"]
    s = Sweep(out, "fixture-parts", axes, "baseline16-scaled")
    for platform, fraction in itertools.product([BASELINE, STARNUMA], ["0.05", "0.2"]):
        params = {"part": "pool", "platform": platform, "pool_fraction": fraction}
        s.run(f"pool-{Path(platform).stem}-{fraction}", "run", params, "sharing", 5000, platform=platform,
              placement="oracle", pool_fraction=fraction)
    for platform, impl in [(BASELINE, "none"), (STARNUMA, "model")]:
        sets = {"os.phase_instructions": "2000", "topology.socket.tracking.impl": impl}
        params = {"part": "sampled", "platform": platform, "set:topology.socket.tracking.impl": impl}
        s.run(f"sampled-{Path(platform).stem}", "sampled", params, "sharing", 2000, platform=platform, sets=sets,
              checkpoints=2, warmup=500)
    for workload in ["bfs:scale=12", "sharing"]:
        params = {"part": "profile", "workload": workload}
        s.run(f"profile-{workload.split(':')[0]}", "profile", params, workload, 20000)
    s.close()


def build(out: Path) -> dict[str, Path]:
    """Builds the sweeps under OUT; returns their folders by name."""
    dirs = {"main": out / "main", "parts": out / "parts"}
    build_main(dirs["main"])
    build_parts(dirs["parts"])
    return dirs


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_fixture.py OUT")
    for name, path in build(Path(sys.argv[1])).items():
        print(name, path)
