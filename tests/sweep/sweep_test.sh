#!/usr/bin/env bash
# starnuma sweep as a user meets it, one case per ctest entry:
#   bash sweep_test.sh STARNUMA CASE
set -euo pipefail
starnuma=$1
case_name=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
query() { python3 -c 'import sqlite3, sys; print("\n".join("|".join(map(str, r)) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])))' "$@"; }

case "$case_name" in
  runs_and_resumes)
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" --jobs 2 > "$work/first.txt" 2> "$work/first.err"
    grep -q "sweep tiny: 4 of 4 runs done, 0 failed" "$work/first.txt" || fail "first sweep: $(cat "$work/first.txt")"
    [ "$(query "$work/s/sweep.db" "select count(*) from runs where status = 'done' and ipc > 0 and stats_path is not null")" = 4 ] \
      || fail "database: $(query "$work/s/sweep.db" 'select name, status, ipc from runs')"
    for r in "$work"/s/runs/*; do [ -s "$r/stats.json" ] && [ -s "$r/result.json" ] || fail "$r: no stats.json or result.json"; done
    ls "$work"/s/platforms/*/latency.json > /dev/null || fail "no latency matrix kept"
    # Again: nothing runs, nothing changes.
    before=$(query "$work/s/sweep.db" "select name, finished from runs order by name")
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" 2> "$work/second.err" > /dev/null
    grep -q "4 done already, 0 failed 3 times (not retried), 0 to run" "$work/second.err" || fail "second sweep: $(cat "$work/second.err")"
    [ "$before" = "$(query "$work/s/sweep.db" "select name, finished from runs order by name")" ] || fail "a done run ran again"
    # An edited platform file invalidates the runs on it, and only those.
    mkdir -p "$work/platforms" "$work/tests/sweep"  # tiny.yaml names ../../platforms
    cp -r "$here/../../platforms/." "$work/platforms/"
    cp "$here/tiny.yaml" "$work/tests/sweep/"
    # The same files in another folder are the same runs: a moved checkout resumes its results.
    "$starnuma" sweep "$work/tests/sweep/tiny.yaml" --out "$work/s" 2> "$work/moved.err" > /dev/null
    grep -q "4 done already, 0 failed 3 times (not retried), 0 to run" "$work/moved.err" || fail "moved: $(cat "$work/moved.err")"
    # Another executable built from the same sources (here: different bytes, as a build in another
    # folder has) resumes them too: runs are keyed by the sources.
    cp "$starnuma" "$work/starnuma-other" && printf 'another build' >> "$work/starnuma-other"
    "$work/starnuma-other" sweep "$work/tests/sweep/tiny.yaml" --out "$work/s" 2> "$work/rebuilt.err" > /dev/null
    grep -q "4 done already, 0 failed 3 times (not retried), 0 to run" "$work/rebuilt.err" || fail "rebuilt: $(cat "$work/rebuilt.err")"
    [ "$(query "$work/s/sweep.db" "select value from meta where key = 'starnuma_sources'")" ] || fail "no sources digest in meta"
    "$starnuma" sweep "$work/tests/sweep/tiny.yaml" --out "$work/p" > /dev/null 2>&1
    echo "# edited" >> "$work/platforms/starnuma16-scaled.yaml"
    "$starnuma" sweep "$work/tests/sweep/tiny.yaml" --out "$work/p" 2> "$work/third.err" > /dev/null
    grep -q "2 done already, 0 failed 3 times (not retried), 2 to run" "$work/third.err" || fail "after an edit: $(cat "$work/third.err")"
    ;;
  dry_run)
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" --dry-run > "$work/out.txt"
    [ "$(grep -c ' to run ' "$work/out.txt")" = 4 ] || fail "$(cat "$work/out.txt")"
    grep -q "starnuma16-scaled-uniform-footprint64MiB .*starnuma run .*starnuma16-scaled.yaml --workload uniform:footprint=64MiB" "$work/out.txt" \
      || fail "$(cat "$work/out.txt")"
    [ ! -e "$work/s/sweep.db" ] || fail "a dry run wrote the database"
    # A label names runs and becomes no option.
    cat > "$work/labels.yaml" <<EOF
sweep: labels
fixed: {instructions: 20000, workload: local, platform: $here/../../platforms/starnuma16-scaled.yaml}
axes:
  variant:
    label:variant: [plain, t0]
    set:topology.socket.tracking.counter_bits: [16, 0]
name: "{label:variant}-run"
EOF
    "$starnuma" sweep "$work/labels.yaml" --out "$work/l" --dry-run > "$work/labels.txt" || fail "$(cat "$work/labels.txt")"
    grep -q "^plain-run .*--set topology.socket.tracking.counter_bits=16 " "$work/labels.txt" || fail "$(cat "$work/labels.txt")"
    grep -q "^t0-run .*counter_bits=0 " "$work/labels.txt" || fail "$(cat "$work/labels.txt")"
    ! grep -q -- "--set label\\|variant=" "$work/labels.txt" || fail "a label became an option: $(cat "$work/labels.txt")"
    # The units' method's options: the pass's and the windows' flags (docs/sweeps.md).
    cat > "$work/units.yaml" <<EOF
sweep: units
fixed: {kind: sampled, checkpoints: 2, warmup: 2000, instructions: 4000, unit_every: 10000, timed_start: 5000,
        pace: turns, unit_jitter: false, warm_llcs: true, common_span: true, warm_tlbs: false, workload: "bfs:scale=14,trials=100",
        set: {os.phase_instructions: 20000}}
axes: {platform: [$here/../../platforms/starnuma16-scaled.yaml]}
name: "units"
EOF
    "$starnuma" sweep "$work/units.yaml" --out "$work/u" --dry-run > "$work/units.txt" || fail "$(cat "$work/units.txt")"
    grep -q "starnuma checkpoint .*--unit-every 10000 --timed-start 5000 --pace turns .*--no-unit-jitter --warm-llcs && starnuma sample .*--warm-llcs --common-span" \
      "$work/units.txt" || fail "units: $(cat "$work/units.txt")"
    grep -q -- "--common-span --no-warm-tlbs" "$work/units.txt" || fail "warm_tlbs: false: $(cat "$work/units.txt")"
    # Absent, the commands' defaults (the units' method): no flag either way.
    sed 's/unit_every: 10000, timed_start: 5000,//; s/pace: turns, //; s/unit_jitter: false, warm_llcs: true, common_span: true, warm_tlbs: false,//' \
      "$work/units.yaml" > "$work/units-default.yaml"
    "$starnuma" sweep "$work/units-default.yaml" --out "$work/ud" --dry-run > "$work/units-default.txt" \
      || fail "$(cat "$work/units-default.txt")"
    ! grep -q -- "--unit-every\|--timed-start\|--pace\|unit-jitter\|warm-\|--common-span\|--per-thread" "$work/units-default.txt" \
      || fail "defaults became flags: $(cat "$work/units-default.txt")"
    sed 's/timed_start: 5000,/timed_start: 5000, boundaries_only: true,/' "$work/units.yaml" > "$work/units-both.yaml"
    ! "$starnuma" sweep "$work/units-both.yaml" --out "$work/ub" --dry-run > /dev/null 2> "$work/units-both.err" \
      || fail "boundaries_only with unit_every was taken"
    grep -q "units-both.yaml:2:[0-9]*: error: .*boundaries_only: a run with 'boundaries_only' has no units: drop 'unit_every'" \
      "$work/units-both.err" || fail "units-both: $(cat "$work/units-both.err")"
    sed 's/checkpoints: 2,/checkpoints: 2, boundaries_only: true, unit_jitter: true,/' "$work/units-default.yaml" \
      > "$work/units-jitter.yaml"
    ! "$starnuma" sweep "$work/units-jitter.yaml" --out "$work/uj" --dry-run > /dev/null 2> "$work/units-jitter.err" \
      || fail "boundaries_only with unit_jitter was taken"
    grep -q "units-jitter.yaml:2:[0-9]*: error: .*unit_jitter: a run with 'boundaries_only' has no units to place" \
      "$work/units-jitter.err" || fail "units-jitter: $(cat "$work/units-jitter.err")"
    sed 's/pace: turns/pace: wall/' "$work/units.yaml" > "$work/units-pace.yaml"
    ! "$starnuma" sweep "$work/units-pace.yaml" --out "$work/up" --dry-run > /dev/null 2> "$work/units-pace.err" \
      || fail "a pace that is not time or turns was taken"
    grep -q "units-pace.yaml:3:[0-9]*: error: fixed.pace: 'wall' is not one of time, turns" "$work/units-pace.err" \
      || fail "units-pace: $(cat "$work/units-pace.err")"
    sed 's/warm_tlbs: false/warm_tlbs: yes please/' "$work/units.yaml" > "$work/units-bad.yaml"
    ! "$starnuma" sweep "$work/units-bad.yaml" --out "$work/ub" --dry-run > /dev/null 2> "$work/units-bad.err" \
      || fail "a switch that is not true or false was taken"
    grep -q "units-bad.yaml:3:[0-9]*: error: fixed.warm_tlbs: 'yes please' is not true or false" "$work/units-bad.err" \
      || fail "units-bad: $(cat "$work/units-bad.err")"
    # The same command without --dry-run takes the folder the dry run left.
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" --jobs 2 > "$work/real.txt" 2> "$work/real.err" \
      || fail "after a dry run: $(cat "$work/real.err")"
    grep -q "sweep tiny: 4 of 4 runs done, 0 failed" "$work/real.txt" || fail "after a dry run: $(cat "$work/real.txt")"
    # A folder holding anything else is still refused.
    mkdir -p "$work/o" && touch "$work/o/notes.txt"
    ! "$starnuma" sweep "$here/tiny.yaml" --out "$work/o" --dry-run > /dev/null 2> "$work/o.err" || fail "a foreign folder was taken"
    grep -q "a folder of other files" "$work/o.err" || fail "foreign folder: $(cat "$work/o.err")"
    ;;
  failure_reported_and_retried)
    set +e
    "$starnuma" sweep "$here/failing.yaml" --out "$work/s" --attempts 2 > "$work/out.txt" 2>&1
    rc=$?
    set -e
    [ "$rc" = 1 ] || fail "exit code $rc, expected 1"
    grep -q "FAILED ways64 (attempt 1 of 2): exit code 1:" "$work/out.txt" || fail "$(cat "$work/out.txt")"
    grep -q "beyond the 8.0 TiB of virtual address space" "$work/out.txt" || fail "no stderr tail: $(cat "$work/out.txt")"
    [ "$(query "$work/s/sweep.db" "select status from runs where name = 'ways4'")" = done ] || fail "the good run did not stand"
    "$starnuma" sweep "$here/failing.yaml" --out "$work/s" --attempts 2 > /dev/null 2>&1 || true
    "$starnuma" sweep "$here/failing.yaml" --out "$work/s" --attempts 2 > /dev/null 2> "$work/third.err" || true
    grep -q "1 failed 2 times (not retried), 0 to run" "$work/third.err" || fail "retry limit: $(cat "$work/third.err")"
    [ "$(query "$work/s/sweep.db" "select attempts from runs where name = 'ways64'")" = 2 ] || fail "attempts not counted"
    ;;
  spec_errors)
    set +e
    "$starnuma" sweep "$here/bad.yaml" --out "$work/s" 2> "$work/err.txt"
    rc=$?
    set -e
    [ "$rc" = 1 ] || fail "exit code $rc"
    for expected in \
      "bad.yaml:2:8: error: sweep: 'bad sweep' is not a name" \
      "bad.yaml:3:1: error: fixd: unknown key 'fixd' (did you mean 'fixed'?)" \
      "bad.yaml:5:17: error: fixed.instructions: 'many' is not a count" \
      "bad.yaml:6:3: error: fixed.placment: unknown option 'placment' (did you mean 'placement'?)" \
      "bad.yaml:7:13: error: fixed.platform: no file" \
      "bad.yaml:9:14: error: axes.workload: --workload bfs:scal=3: error: bfs.scal: unknown key 'scal'" \
      "bad.yaml:12:13: error: axes.zipped.warmup: a zipped group's lists vary together and need the same length" \
      "bad.yaml:13:3: error: axes.label:: 'label:' needs a name"; do
      grep -qF "$expected" "$work/err.txt" || fail "missing: $expected
$(cat "$work/err.txt")"
    done
    [ ! -e "$work/s" ] || fail "a refused sweep made its folder"
    ;;
  platform_refused_before_any_run)
    set +e
    "$starnuma" sweep "$here/bad_platform.yaml" --out "$work/s" > "$work/out.txt" 2> "$work/err.txt"
    rc=$?
    set -e
    [ "$rc" = 1 ] || fail "exit code $rc"
    grep -q "nothing was run" "$work/err.txt" || fail "$(cat "$work/err.txt")"
    grep -q "bad_platform.yaml:8:36: error: run -3ns: its platform is refused" "$work/err.txt" || fail "$(cat "$work/err.txt")"
    [ ! -e "$work/s/sweep.db" ] && [ -z "$(ls "$work/s/runs")" ] || fail "something ran"
    ;;
  refusals)
    # Each a sweep file a user could write, refused at its line before anything is built or run.
    refused() {  # NAME EXPECTED: the spec in $work/NAME.yaml is refused with EXPECTED
      set +e
      "$starnuma" sweep "$work/$1.yaml" --out "$work/out-$1" --dry-run > /dev/null 2> "$work/$1.err"
      local rc=$?
      set -e
      [ "$rc" = 1 ] || fail "$1: exit code $rc: $(cat "$work/$1.err")"
      grep -qF "$2" "$work/$1.err" || fail "$1: missing: $2
$(cat "$work/$1.err")"
    }
    platform="$here/../../platforms/baseline16-scaled.yaml"
    printf 'sweep: ""\nfixed: {instructions: 1000, workload: local, platform: %s}\n' "$platform" > "$work/empty_name.yaml"
    refused empty_name "empty_name.yaml:1:8: error: sweep: '' is not a name"
    printf 'sweep: s\nbaseline: nowhere\nfixed: {instructions: 1000, workload: local, platform: %s}\n' "$platform" \
      > "$work/baseline.yaml"
    refused baseline "baseline.yaml:2:11: error: baseline: no run is on a platform named 'nowhere'"
    printf 'sweep: s\nfixed: {instructions: 1000, workload: local, platform: %s}\nparts:\n  - part: a\n  - part: a\n' \
      "$platform" > "$work/parts.yaml"
    refused parts "parts.yaml:5:11: error: parts[1].part: two parts are both named 'a'"
    printf 'sweep: s\nfixed: {instructions: 1000, workload: local, platform: %s}\naxes:\n  group: {}\n' "$platform" \
      > "$work/zipped.yaml"
    refused zipped "zipped.yaml:4:10: error: axes.group: an empty zipped group"
    printf 'sweep: s\nfixed: {instructions: 1000, workload: local, platform: %s}\nname: "==="\n' "$platform" \
      > "$work/run_name.yaml"
    refused run_name "run_name.yaml:3:7: error: name: a run named ''"
    values=$(seq -s, 1 100)
    printf 'sweep: s\nfixed: {instructions: 1000, workload: local, platform: %s}\naxes:\n  seed: [%s]\n  warmup: [%s]\n  set:a.b: [%s]\n' \
      "$platform" "$values" "$values" "$values" > "$work/huge.yaml"
    refused huge "error: axes: the axes make 1000000 runs, more than the 100000 a sweep may have"
    # Values every run would fail on are refused before any runs.
    printf 'sweep: s\nfixed: {workload: local, platform: %s}\naxes:\n  instructions: [0, 10]\n  oracle_region: [3KiB]\n  timeline: [-1us]\n  trace_space: [mixed]\n' \
      "$platform" > "$work/values.yaml"
    refused values "values.yaml:4:18: error: axes.instructions: '0' is not from 1 to"
    grep -qF "values.yaml:5:19: error: axes.oracle_region: '3KiB' is not a power of two from 4KiB to 512KiB" "$work/values.err" \
      || fail "$(cat "$work/values.err")"
    grep -qF "axes.timeline: '-1us' is not a positive time" "$work/values.err" || fail "$(cat "$work/values.err")"
    grep -qF "axes.trace_space: 'mixed' is not one of separate, shared" "$work/values.err" || fail "$(cat "$work/values.err")"
    printf 'sweep: s\nfixed: {instructions: 1000, workload: local, platform: %s, detailed_sockets: 99}\n' "$platform" \
      > "$work/detailed.yaml"
    refused detailed "run run: detailed_sockets 99: its platform has 16 sockets"
    printf 'sweep: s\nfixed: {instructions: 1000, platform: %s}\naxes:\n  workload: ["kv@socket0-7,uniform@socket5-9", "kv@socket20"]\n' \
      "$platform" > "$work/mixes.yaml"
    refused mixes "programs 'kv' and 'uniform' both use core 0 of socket 5"
    grep -qF "program 'kv': socket 20: the platform has 16 sockets" "$work/mixes.err" || fail "$(cat "$work/mixes.err")"
    # An --out the system cannot make is an input error, not an internal one.
    bad_out() {  # DIR EXPECTED
      set +e
      "$starnuma" sweep "$here/tiny.yaml" --out "$1" > /dev/null 2> "$work/out.err"
      local rc=$?
      set -e
      [ "$rc" = 1 ] && grep -qF "$2" "$work/out.err" || fail "--out $1: exit $rc: $(cat "$work/out.err")"
    }
    mkdir -p "$work/blocked" && touch "$work/blocked/runs"
    bad_out "$work/blocked" "cannot make its folder $work/blocked/runs: Not a directory"
    touch "$work/plain"
    bad_out "$work/plain/sub" "Not a directory"
    bad_out "$work/$(printf 'x%.0s' $(seq 300))" "File name too long"
    # A task file of the wrong shape, or one that would move a file into the run's folder.
    mkdir -p "$work/task"
    for bad in '{"commands": 5, "key": "k"}|is not a list of commands' \
               '{"commands": [[1]], "key": "k"}|a command'"'"'s word is not a string' \
               '{"commands": [["starnuma"]], "key": "k", "stats": "../x"}|leaves the run'"'"'s folder'; do
      echo "${bad%%|*}" > "$work/task/task.json"
      set +e
      "$starnuma" sweep-task "$work/task" 2> "$work/task.err"
      rc=$?
      set -e
      [ "$rc" = 1 ] && grep -qF "${bad##*|}" "$work/task.err" || fail "task ${bad%%|*}: exit $rc: $(cat "$work/task.err")"
    done
    ;;
  results_kept)
    # A folder belongs to one sweep: another sweep file is refused and the results stand.
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" --jobs 2 > /dev/null 2>&1
    sed 's/^sweep: tiny/sweep: other/' "$here/tiny.yaml" > "$work/other.yaml"
    sed -i "s#\.\./\.\./platforms#$here/../../platforms#g" "$work/other.yaml"
    set +e
    "$starnuma" sweep "$work/other.yaml" --out "$work/s" > /dev/null 2> "$work/other.err"
    rc=$?
    set -e
    [ "$rc" = 1 ] || fail "another sweep took the folder: exit $rc"
    grep -q "holds the results of sweep 'tiny'.*a folder belongs to one sweep" "$work/other.err" || fail "$(cat "$work/other.err")"
    [ "$(query "$work/s/sweep.db" "select count(*) from runs where status = 'done'")" = 4 ] || fail "results lost"
    # A run a killed sweep left 'running', and a done run whose folder was deleted, run again.
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("update runs set status = ? where name = ?", ("running", sys.argv[2])); c.commit()' \
      "$work/s/sweep.db" baseline16-scaled-local
    rm "$work/s/runs/baseline16-scaled-local/result.json"  # killed before it finished
    rm -rf "$work/s/runs/starnuma16-scaled-local"
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" > "$work/again.txt" 2> "$work/again.err"
    grep -q "2 done already, 0 failed 3 times (not retried), 2 to run" "$work/again.err" || fail "$(cat "$work/again.err")"
    [ "$(query "$work/s/sweep.db" "select count(*) from runs where status = 'done'")" = 4 ] || fail "not all done again"
    [ -s "$work/s/runs/starnuma16-scaled-local/stats.json" ] || fail "the deleted run was not rerun"
    ;;
  one_sweep_per_folder)
    mkdir -p "$work/s"
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" --dry-run > /dev/null  # makes it a sweep folder
    touch "$work/s/sweep.db"
    flock "$work/s/.lock" sleep 30 &  # another sweep holding the folder
    holder=$!
    # Until the holder has the lock (a fixed sleep is not enough on a loaded machine).
    while flock -n "$work/s/.lock" true; do
      kill -0 "$holder" 2> /dev/null || fail "the lock holder did not start"
      sleep 0.05
    done
    set +e
    "$starnuma" sweep "$here/tiny.yaml" --out "$work/s" > /dev/null 2> "$work/err.txt"
    rc=$?
    set -e
    pkill -P "$holder" sleep 2> /dev/null || true  # the sleep holds the lock, not flock
    kill "$holder" 2> /dev/null || true
    [ "$rc" = 1 ] || fail "exit code $rc"
    grep -q "another starnuma sweep is running in this folder" "$work/err.txt" || fail "$(cat "$work/err.txt")"
    ;;
  shipped_sweeps)
    # Every sweep the project ships lists its runs; and experiments/paper.yaml is the paper's
    # evaluation by its own method (issue 37): its eight workloads (cc as Afforest), placement
    # dynamic on both machines (sampled runs), the static oracle only in its labelled part.
    for spec in "$here"/../../experiments/*.yaml; do
      name=$(basename "$spec" .yaml)
      "$starnuma" sweep "$spec" --out "$work/$name" --dry-run > "$work/$name.txt" 2> "$work/err.txt" \
        || fail "$spec: $(cat "$work/err.txt")"
      grep -q " to run " "$work/$name.txt" || fail "$spec lists no run"
    done
    for w in bfs:scale= cc:scale=.*algorithm=afforest sssp:scale= tc:scale= masstree tpcc fmi poa; do
      grep -q "^dynamic-.*--workload $w" "$work/paper.txt" || fail "paper.yaml: no dynamic run of $w"
    done
    ! grep -q "algorithm=sv" "$work/paper.txt" || fail "paper.yaml runs Shiloach-Vishkin"
    ! grep -v "^oracle-" "$work/paper.txt" | grep -q -- "--placement oracle" \
      || fail "paper.yaml: an oracle placement outside part oracle: $(grep -- '--placement oracle' "$work/paper.txt" | grep -v '^oracle-' | head -1)"
    for part in dynamic t0 pool light; do
      n=$(grep -c "^$part-" "$work/paper.txt")
      [ "$n" = "$(grep "^$part-" "$work/paper.txt" | grep -c "starnuma checkpoint .*&& starnuma sample ")" ] \
        || fail "paper.yaml: part $part is not all sampled runs with migration"
    done
    [ "$(grep "^dynamic-" "$work/paper.txt" | grep -c "baseline16")" -ge 30 ] || fail "paper.yaml: too few dynamic baseline runs"
    # Each machine at several migration limits, from none (the report takes each one's best).
    for limit in 0 8192; do
      grep -q "^dynamic-bfs.*-starnuma16-halfbw-scaled-$limit .*os.migration_limit=$limit" "$work/paper.txt" \
        || fail "paper.yaml: no dynamic run of bfs on starnuma16-halfbw-scaled at migration limit $limit"
    done
    ;;
  graphs_built_once)
    # The runs of a sweep share each Kronecker graph through DIR/graphs (or the user's folder), and
    # a run from the shared graph is the run from a fresh one.
    cat > "$work/graphs.yaml" <<SPEC
sweep: graphs
fixed: {instructions: 5000, placement: oracle, platform: $here/../../platforms/baseline16-scaled.yaml}
axes:
  workload: ["bfs:scale=12,degree=8", "cc:scale=12,degree=8"]
SPEC
    "$starnuma" sweep "$work/graphs.yaml" --out "$work/g" > /dev/null 2>&1 || fail "sweep: $(cat "$work"/g/runs/*/stderr.txt)"
    [ "$(ls "$work/g/graphs")" = "kronecker-v1-scale12-degree8-seed1.graph" ] || fail "graphs: $(ls "$work/g/graphs")"
    ipc=$(query "$work/g/sweep.db" "select ipc from runs where workload like 'bfs%'")
    "$starnuma" run "$here/../../platforms/baseline16-scaled.yaml" --workload bfs:scale=12,degree=8 --instructions 5000 \
      --placement oracle --json --no-progress > "$work/fresh.json" 2> /dev/null
    python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["ipc"] != float(sys.argv[2]))' "$work/fresh.json" "$ipc" \
      || fail "the sweep's bfs IPC $ipc is not a fresh run's: $(cat "$work/fresh.json")"
    STARNUMA_GRAPH_CACHE="$work/mine" "$starnuma" sweep "$work/graphs.yaml" --out "$work/h" > /dev/null 2>&1
    [ -e "$work/mine/kronecker-v1-scale12-degree8-seed1.graph" ] && [ ! -e "$work/h/graphs" ] \
      || fail "the user's STARNUMA_GRAPH_CACHE was not the sweep's"
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"
