#!/usr/bin/env bash
# The Slurm executor for real: starts a single-node Slurm cluster (tools/slurm/local_cluster.sh:
# munged, slurmctld, slurmd), runs a small sweep through sbatch, checks every run's statistics equal
# the local executor's bit for bit apart from host fields, runs a sampled evaluation's windows as
# job arrays against the same windows run here, and tears the cluster down.
#   bash slurm_test.sh STARNUMA
set -euo pipefail
starnuma=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
chmod 755 "$work"  # munged refuses a socket under a folder others cannot search
cleanup() {
  bash "$root/tools/slurm/local_cluster.sh" stop "$work/cluster" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for log in "$work"/cluster/log/*; do [ -f "$log" ] && { echo "== $log" >&2; tail -n 20 "$log" >&2; }; done
  exit 1
}

exports=$(bash "$root/tools/slurm/local_cluster.sh" start "$work/cluster") || fail "the cluster did not start"
eval "$exports"
"$starnuma" sweep "$here/tiny.yaml" --out "$work/slurm" --executor slurm --poll 0.5 --time 10 > "$work/slurm.txt" 2> "$work/slurm.err" \
  || fail "slurm sweep: $(cat "$work/slurm.txt" "$work/slurm.err")"
grep -q "sweep tiny: 4 of 4 runs done, 0 failed" "$work/slurm.txt" || fail "$(cat "$work/slurm.txt")"
grep -q "Slurm job [0-9]*, 4 array tasks" "$work/slurm.err" || fail "not through sbatch: $(cat "$work/slurm.err")"
ls "$work"/slurm/slurm/*.sh > /dev/null || fail "no job script"
"$starnuma" sweep "$here/tiny.yaml" --out "$work/local" --jobs 2 > /dev/null 2>&1 || fail "local sweep"

python3 - "$work/slurm" "$work/local" <<'PY' || fail "the executors disagree"
import json, sqlite3, sys
slurm, local = sys.argv[1], sys.argv[2]
HOST_FIELDS = {"host_seconds"}
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in HOST_FIELDS}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
rows = {d: dict(sqlite3.connect(f"{d}/sweep.db").execute("select name, executor from runs").fetchall()) for d in (slurm, local)}
assert sorted(rows[slurm]) == sorted(rows[local]) and len(rows[slurm]) == 4, rows
assert all(e.startswith("slurm:") for e in rows[slurm].values()), rows[slurm]
assert all(e == "local" for e in rows[local].values()), rows[local]
for name in rows[slurm]:
    a, b = (strip(json.load(open(f"{d}/runs/{name}/stats.json"))) for d in (slurm, local))
    if a != b:
        sys.exit(f"{name}: statistics differ")
    if json.load(open(f"{slurm}/runs/{name}/result.json")).get("slurm_job") is None:
        sys.exit(f"{name}: not run by a Slurm task")
print("4 runs, statistics equal")
PY
# A sampled evaluation's windows as job arrays (sample --executor slurm): the boundaries' array, then
# the units' (which need the boundaries' copies), the same figures as the local windows.
platform="$root/platforms/starnuma16-scaled.yaml"
sets=(--set os.phase_instructions=40000 --set topology.socket.tracking.impl=model)
"$starnuma" checkpoint "$platform" --workload sharing:pages=2048 "${sets[@]}" --checkpoints 2 --units-per-phase 2 \
  --out "$work/ck" --no-progress > /dev/null || fail "checkpoint"
"$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$work/ck" --warmup 2000 --instructions 5000 \
  --executor slurm --poll 0.5 --time 10 --out "$work/sample-slurm" --json > "$work/sample-slurm.json" 2> "$work/sample-slurm.err" \
  || fail "sample on slurm: $(cat "$work/sample-slurm.err")"
[ "$(grep -c "sample: Slurm job [0-9]*, [0-9]* windows" "$work/sample-slurm.err")" = 2 ] \
  || fail "not two arrays (boundaries, then units): $(cat "$work/sample-slurm.err")"
"$starnuma" sample "$platform" "${sets[@]}" --checkpoints "$work/ck" --warmup 2000 --instructions 5000 --jobs 2 \
  --json > "$work/sample-local.json" 2> /dev/null || fail "sample locally"
python3 - "$work/sample-slurm.json" "$work/sample-local.json" <<'PY' || fail "the windows on Slurm and here disagree"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert len(a["per_window"]) == len(b["per_window"]) == 6, (len(a["per_window"]), len(b["per_window"]))
for x, y in zip(a["per_window"], b["per_window"]):
    for k in ("phase", "unit", "ipc", "amat_ns", "copies_in_flight"):
        if x[k] != y[k]:
            sys.exit(f"window {x['phase']}.{x['unit']}: {k} {x[k]} on Slurm, {y[k]} here")
assert a["confidence"] == b["confidence"]
print("6 windows, the same figures")
PY
# A window that fails on a node fails the sample, naming its log.
"$starnuma" sample "$platform" --set os.phase_instructions=40000 --set topology.socket.tracking.impl=none \
  --checkpoints "$work/ck" --warmup 2000 --instructions 5000 --executor slurm --poll 0.5 --time 10 \
  --out "$work/sample-bad" > /dev/null 2> "$work/sample-bad.err" && fail "a sample whose windows fail succeeded"
grep -q "ended without results; its log: .*\.out" "$work/sample-bad.err" || fail "$(cat "$work/sample-bad.err")"
[ ! -e "$work/sample-bad" ] || fail "a failed sample left its folder"

bash "$root/tools/slurm/local_cluster.sh" stop "$work/cluster" > /dev/null
# Nothing of the cluster is left running (defunct entries are the container's init reaping late).
sleep 1
if ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$work/cluster" | grep -v grep; then fail "daemons left running"; fi
echo "ok: slurm executor"
