"""experiments/sampled.sh with CONTINUOUS=1 (docs/sampling.md, "The main job against continuous
runs"): on a small case it also runs the same work continuously on both machines, from boundary 1
to the end of the last boundary's phase of the mean thread, and prints them beside the sampled
answer, the speedup and AMAT reduction computed from the runs' own figures.

    python3 sampled_continuous_test.py STARNUMA SAMPLED_SH
"""
import json
import os
import re
import subprocess
import sys
import tempfile

starnuma, script = sys.argv[1:3]
phase, checkpoints = 20000, 2
with tempfile.TemporaryDirectory() as out:
    done = subprocess.run(["bash", script, out, "bfs:scale=14,trials=100", str(checkpoints)], capture_output=True,
                          text=True, env={**os.environ, "STARNUMA": starnuma, "CONTINUOUS": "1", "PHASE": str(phase),
                                          "WARMUP": "2000", "WINDOW": "4000"})
    if done.returncode != 0:
        sys.exit(f"FAIL: sampled.sh with CONTINUOUS=1 failed ({done.returncode}):\n{done.stderr}")
    runs = [json.load(open(f"{out}/{m}/continuous.json")) for m in ("baseline16-scaled", "starnuma16-scaled")]
text = done.stdout
if "continuous runs of the same work, every phase timed:" not in text:
    sys.exit(f"FAIL: no continuous runs in the output:\n{text}")
for r in runs:
    # The common span: the mean thread's instructions from boundary 1 to the end of the last phase.
    if abs(r["instructions"] / 64 - checkpoints * phase) > 0.02 * checkpoints * phase:
        sys.exit(f"FAIL: a continuous run of {r['instructions']} instructions, not 64 threads' {checkpoints * phase}")
    if r["placement"] != "dynamic" or r["measured_over"] != "common span" or r["migration"]["phases"] < checkpoints:
        sys.exit(f"FAIL: a continuous run that is not the main job's work: {r['placement']}, {r['measured_over']}, "
                 f"{r['migration']['phases']} phases")
base, star = runs
want = f"speedup {star['ipc'] / base['ipc']:.2f}x, AMAT reduction {100 * (1 - star['amat_ns'] / base['amat_ns']):.1f} %"
tail = text.split("continuous runs of the same work")[1]
if want not in tail or not re.search(r"starnuma16-scaled +IPC [0-9.]+, AMAT [0-9.]+ ns", tail):
    sys.exit(f"FAIL: expected '{want}' and each machine's line after the continuous runs' header:\n{tail}")
print("PASS:", want)
