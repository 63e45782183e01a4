"""README's main-job numbers are the main job's output: runs experiments/sampled.sh as
`bash tools/setup.sh run` does and checks that every line README's example shows (but the host
times) is a line of the output, in the same order, and that no thread ran past the recorded streams.

    python3 main_job_test.py STARNUMA README SAMPLED_SH
"""
import os
import re
import subprocess
import sys
import tempfile

starnuma, readme, script = sys.argv[1:4]

# The block after "The main job is": its first fenced block.
text = open(readme).read()
start = text.index("The main job is")
block = text[start:].split("```", 2)[1].strip("\n").splitlines()
shown = [line for line in block if line.strip() and line.strip() != "..."]

# The arguments setup.sh gives it.
setup = open(os.path.join(os.path.dirname(script), "..", "tools", "setup.sh")).read()
args = re.search(r'sampled\.sh" "\$build/main-job" "([^"]+)" (\d+)', setup)
if not args:
    sys.exit("FAIL: tools/setup.sh does not run experiments/sampled.sh as expected")

with tempfile.TemporaryDirectory() as out:
    done = subprocess.run(["bash", script, out, args.group(1), args.group(2)], capture_output=True, text=True,
                          env={**os.environ, "STARNUMA": starnuma})
    if done.returncode != 0:
        sys.exit(f"FAIL: the main job failed ({done.returncode}):\n{done.stderr}")
    got = done.stdout.splitlines()
    # The recording covers every thread the passes and windows run (experiments/sampled.sh's quarter).
    if "runs past the" in done.stderr:
        sys.exit(f"FAIL: a thread ran past the main job's recorded streams:\n{done.stderr}")


def same(want, line):
    # A machine's header line carries host times: compare what precedes them.
    if want.startswith("== "):
        return line.split(":")[0] == want.split(":")[0]
    return line.rstrip() == want.rstrip()


at = 0
for want in shown:
    while at < len(got) and not same(want, got[at]):
        at += 1
    if at == len(got):
        sys.exit(f"FAIL: README shows a line the main job does not print (in this order):\n  {want}\n"
                 f"The main job printed:\n" + "\n".join(got))
    at += 1
print(f"README's {len(shown)} lines are the main job's output")
