#!/usr/bin/env bash
# The worked examples of docs/debugging.md, from real runs: a saturated CXL link (waves in GTKWave,
# a pool read's transaction) and a coherence 4-hop transfer through the pool (its transaction).
# Writes the runs' files to OUT (default /tmp/starnuma-debugging) and the figures to docs/images/.
# Needs GTKWave under a virtual display for the screenshot: apt-get install gtkwave xvfb imagemagick.
#
#   bash experiments/debugging_example.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-/tmp/starnuma-debugging}
sn=$root/build/starnuma
mkdir -p "$out" "$root/docs/images"

# 1. Every socket's pool traffic on starnuma16 with half the CXL bandwidth: all of uniform's
#    pages in the pool (oracle placement, pool fraction 1). Waves of socket0's CXL link, one of
#    its cores and the pool's first channels over 2 us; socket0's misses of those 2 us traced.
"$sn" run "$root/platforms/starnuma16-halfbw-scaled.yaml" --workload uniform:footprint=64MiB \
  --instructions 50000 --placement oracle --pool-fraction 1 --no-progress --out "$out/cxl" \
  --waves "$out/cxl.fst" --waves-window 300us:302us \
  --waves-filter 'links.cxl_socket0_pool,nodes.socket0.core0,nodes.pool.memory.channel0' \
  --trace-transactions "$out/cxl.json" --trace-sockets socket0 --trace-window 300us:302us --trace-every 1

cat > "$out/view.tcl" <<'TCL'
gtkwave::addSignalsFromList [list \
  "links.cxl_socket0_pool.from_socket0.busy" "links.cxl_socket0_pool.from_socket0.queue\[15:0\]" \
  "links.cxl_socket0_pool.from_pool.busy" "links.cxl_socket0_pool.from_pool.queue\[15:0\]" \
  "nodes.pool.memory.channel0.queue\[15:0\]" "nodes.pool.memory.channel0.subchannel0.bus" \
  "nodes.socket0.core0.outstanding_misses\[7:0\]"]
gtkwave::/Edit/Highlight_All
gtkwave::/Edit/Data_Format/Decimal
gtkwave::/Edit/UnHighlight_All
gtkwave::setZoomRangeTimes 300000000 300600000
TCL
xvfb-run -a -s "-screen 0 1500x330x24" sh -c "
  gtkwave --rcvar 'hide_sst 1' --rcvar 'hier_max_level 3' --rcvar 'initial_window_x 1500' \
    --rcvar 'initial_window_y 330' --rcvar 'initial_signal_window_width 380' \
    -S '$out/view.tcl' '$out/cxl.fst' > '$out/gtkwave.log' 2>&1 &
  sleep 8; import -window root '$root/docs/images/debug-cxl-waves.png'"
/usr/bin/python3 "$root/tools/plot_transaction.py" "$out/cxl.json" "$root/docs/images/debug-cxl-transaction.png" \
  --path pool --index 5

# 2. Coherence on starnuma16: uniform with oracle placement; one miss in 50 traced over 100 us.
"$sn" run "$root/platforms/starnuma16-scaled.yaml" --workload uniform:footprint=64MiB --instructions 20000 \
  --placement oracle --set coherence.enabled=true --no-progress \
  --trace-transactions "$out/coherence.json" --trace-every 50 --trace-window 100us:200us
/usr/bin/python3 "$root/tools/plot_transaction.py" "$out/coherence.json" \
  "$root/docs/images/debug-bt-pool-transaction.png" --path bt-pool

# The same run with the full CXL bandwidth, for comparison.
"$sn" run "$root/platforms/starnuma16-scaled.yaml" --workload uniform:footprint=64MiB --instructions 50000 \
  --placement oracle --pool-fraction 1 --no-progress --json > "$out/full-bandwidth.json"
/usr/bin/python3 "$root/experiments/debugging_figures.py" "$out"   # the figures docs/debugging.md quotes
