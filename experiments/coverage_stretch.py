"""The stretch a coverage study's units stand for (experiments/coverage.sh): from the multiple of
EVERY where the first unit's window starts measuring (its place plus the manifest's `unit_lead`,
checkpoint --unit-lead, the windows' warm-up; where its stretch starts, for units at random points of
their stretches) to one past the last's, as a continuous run's
`--warmup FROM --instructions SPAN`. A timed run counts its warm-up from the end of the workload's
initialisation, the pass from its start.

    python3 experiments/coverage_stretch.py MANIFEST EVERY     # prints FROM SPAN
"""
import json
import sys

m = json.load(open(sys.argv[1]))
units, k = m["units"], int(sys.argv[2])
lead = m.get("unit_lead", 0)
# Units at random points of their stretches (checkpoint --unit-jitter) say where each stretch starts.
first, last = [(u.get("stretch_from", u["mean_instructions"]) + lead + k // 2) // k * k for u in (units[0], units[-1])]
init = m["initialised_at_mean_instructions"]
if init is None or init > first:
    sys.exit(f"{sys.argv[1]}: the initialisation ends at {init}, after the first unit ({first}): a longer PHASE")
print(first - init, last + k - first)
