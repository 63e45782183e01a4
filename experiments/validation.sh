#!/usr/bin/env bash
# The paper's evaluation as one study (docs/validation.md): for each workload, the scaled 16-socket
# baseline against StarNUMA (Fig. 8), against StarNUMA with a 190 ns pool overhead (Fig. 10), and
# the bandwidth variants (Fig. 11: baseline ISO-BW and 2x BW, StarNUMA half BW); oracle placement,
# coherence on (the platforms'). Runs go to OUT/<study>/<workload>/ and are skipped when done;
# prints the Markdown tables of docs/validation.md.
#
#   bash experiments/validation.sh [OUT] [INSTRUCTIONS]
#
# Environment: STARNUMA, WORKLOADS (default below), STUDIES (default: all five).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-validation-results}
instructions=${2:-500000}
workloads=${WORKLOADS:-"bfs:scale=20 cc:scale=20 sssp:scale=20 tc:scale=20 kv sharing"}
studies=${STUDIES:-"fig8 fig10 isobw 2xbw halfbw"}
for study in $studies; do
  case $study in
    fig8) base=baseline16-scaled other=starnuma16-scaled ;;
    fig10) base=baseline16-scaled other=starnuma16-190ns-scaled ;;
    isobw) base=baseline16-scaled other=baseline16-isobw-scaled ;;
    2xbw) base=baseline16-scaled other=baseline16-2xbw-scaled ;;
    halfbw) base=baseline16-scaled other=starnuma16-halfbw-scaled ;;
    *) echo "unknown study $study" >&2; exit 1 ;;
  esac
  echo "== $study: $base against $other" >&2
  BASE=$base OTHER=$other bash "$root/experiments/compare_all.sh" "$out/$study" "$instructions" $workloads >&2
done
python3 - "$out" "$studies" $workloads <<'PY'
import json, math, os, sys
out, studies, names = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
def load(study, w):
    return json.load(open(os.path.join(out, study, w.split(":")[0], "compare.json")))
def stats(study, w, side):
    return json.load(open(os.path.join(out, study, w.split(":")[0], side, "stats.json")))["stats"]
def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))
label = {"fig8": "StarNUMA", "fig10": "StarNUMA, 190 ns pool", "isobw": "baseline ISO-BW",
         "2xbw": "baseline 2x BW", "halfbw": "StarNUMA half BW"}
print("| workload | " + " | ".join(label[s] + " speedup" for s in studies) + " | StarNUMA AMAT reduction | StarNUMA pool accesses |")
print("|---|" + "---|" * len(studies) + "---|---|")
speedups = {s: [] for s in studies}
reductions = []
for w in names:
    cells = []
    for s in studies:
        c = load(s, w)
        speedups[s].append(c["speedup"])
        cells.append(f'{c["speedup"]:.2f}x')
    c = load("fig8", w) if "fig8" in studies else None
    red = f'{100 * c["amat_reduction"]:.0f} %' if c else "-"
    if c:
        reductions.append(c["amat_reduction"])
    pool = f'{100 * c["other"]["access_breakdown"]["pool"]:.0f} %' if c else "-"
    print(f'| `{w}` | ' + " | ".join(cells) + f" | {red} | {pool} |")
print("| geomean | " + " | ".join(f"{geomean(speedups[s]):.2f}x" for s in studies) +
      (f" | {100 * sum(reductions) / len(reductions):.0f} % (mean) | |" if reductions else " | | |"))
if "fig8" in studies:
    print()
    print("| workload | BT share of accesses (StarNUMA) | BT via pool / 3-hop BT latency | pool directory transaction every (ns) |")
    print("|---|---|---|---|")
    for w in names:
        st = stats("fig8", w, "other")
        c = st.get("coherence", {})
        bt = c.get("bt_pool", 0) + c.get("bt_socket", 0)
        total = load("fig8", w)["other"]["llc_misses"]
        pool_lat = c.get("bt_pool_latency", {}).get("mean", 0)
        sock_lat = c.get("bt_socket_latency", {}).get("mean", 0)
        ratio = f"{pool_lat / sock_lat:.2f}" if pool_lat and sock_lat else "-"
        rate = c.get("pool_directory_rate", 0)  # transactions per us
        every = f"{1000 / rate:.0f}" if rate else "-"
        print(f'| `{w}` | {100 * bt / total:.1f} % | {ratio} | {every} |' if total else f"| `{w}` | - | - | - |")
PY
