# Recorded streams (docs/sampling.md, "Recorded streams"): the pass reads a `trace record` of the
# workload (checkpoint --trace-in) and writes the very checkpoints the live pass writes, byte for
# byte; sample's windows read the recording (the manifest names it), seeking to their positions,
# and give the live windows' figures. The recording covers the pass but not every window: over a
# common span bfs's thread 55 runs alone to a barrier past it in the last windows, which go on from
# the generator, with the same figures, and say so; so do the pass's threads past a recording too
# short for it, its checkpoints the same. Then the recording's misuses, each refused by
# name.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOTHER_PLATFORM=yaml (fewer cores) -DOUT=folder
set(sets --set os.phase_instructions=100000 --set topology.socket.tracking.impl=model)
set(workload bfs:scale=16,trials=100)
set(pass --checkpoints 2 --unit-every 10000 --warm-llcs --no-progress)
set(windows --warmup 2000 --instructions 20000 --jobs 2 --common-span --warm-tlbs --warm-llcs --json)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

# The recording covers the pass: as far as its furthest thread went (the live pass's manifest says;
# the phases, 1-3 of 100 K, count the mean thread's work).
starnuma(0 checkpoint "${PLATFORM}" --workload ${workload} ${sets} ${pass} --out "${OUT}/live")
file(READ "${OUT}/live/manifest.json" manifest)
string(JSON furthest GET "${manifest}" furthest_instructions)
starnuma(0 trace record "${PLATFORM}" --workload ${workload} --instructions ${furthest} --out "${OUT}/bfs.snt")
starnuma(0 checkpoint "${PLATFORM}" --trace-in "${OUT}/bfs.snt" ${sets} ${pass} --out "${OUT}/recorded")

file(GLOB live_files RELATIVE "${OUT}/live" "${OUT}/live/*.ckpt")
list(LENGTH live_files n)
if(n LESS 5)
  message(FATAL_ERROR "${n} checkpoints; the case needs boundaries and units")
endif()
# Every checkpoint of the live pass, byte for byte in `folder` (a pass from `what`).
function(expect_live_checkpoints folder what)
  foreach(f ${live_files})
    file(SHA256 "${OUT}/live/${f}" a)
    file(SHA256 "${OUT}/${folder}/${f}" b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "${f}: the pass from ${what} wrote another checkpoint than the live pass")
    endif()
  endforeach()
endfunction()
expect_live_checkpoints(recorded "the recording")
file(READ "${OUT}/recorded/manifest.json" manifest)
string(JSON named GET "${manifest}" trace)
string(JSON recorded_workload GET "${manifest}" workload)
if(NOT named STREQUAL "${OUT}/bfs.snt" OR NOT recorded_workload STREQUAL "${workload}")
  message(FATAL_ERROR "the manifest names trace '${named}' and workload '${recorded_workload}'")
endif()

starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/live" ${windows})
set(live "${out}")
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/recorded" ${windows})
set(recorded "${out}")
string(JSON count LENGTH "${live}" per_window)
math(EXPR last "${count} - 1")
foreach(k RANGE ${last})
  foreach(figure ipc amat_ns copies_in_flight)
    string(JSON a GET "${live}" per_window ${k} ${figure})
    string(JSON b GET "${recorded}" per_window ${k} ${figure})
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "window ${k}: ${figure} ${b} from the recording, ${a} live")
    endif()
  endforeach()
endforeach()
string(JSON builds GET "${recorded}" host_workload_builds)
string(JSON named GET "${recorded}" trace)
string(JSON past GET "${recorded}" threads_generated_past_recording)
if(past LESS 1 OR NOT builds EQUAL past OR NOT named STREQUAL "${OUT}/bfs.snt")
  message(FATAL_ERROR "sampled.json from the recording: ${builds} workload builds, ${past} threads past the "
                      "recording, trace '${named}'; expected one build per thread past it, at least one, and the "
                      "recording")
endif()
if(NOT err MATCHES "warning: [^\n]*bfs.snt: thread 55 runs past the [0-9]+ ops recorded; it goes on from the workload's generator")
  message(FATAL_ERROR "no warning for the threads past the recording: ${err}")
endif()
message(STATUS "${count} windows, the same figures live and from the recording (${past} past it)")

# Misuses.
starnuma(1 checkpoint "${PLATFORM}" --trace-in "${OUT}/bfs.snt" --seed 9 ${sets} --out "${OUT}/bad")
if(NOT err MATCHES "--seed 9: [^\n]*bfs.snt was recorded with seed 1 \\(leave --seed out\\)")
  message(FATAL_ERROR "another seed: ${err}")
endif()
starnuma(1 checkpoint "${PLATFORM}" --trace-in "${OUT}/bfs.snt" --workload ${workload} --out "${OUT}/bad")
if(NOT err MATCHES "--workload excludes --trace-in")
  message(FATAL_ERROR "--workload too: ${err}")
endif()
starnuma(1 checkpoint "${OTHER_PLATFORM}" --trace-in "${OUT}/bfs.snt" --out "${OUT}/bad")
if(NOT err MATCHES "bfs.snt: recorded for 64 threads; this platform has [0-9]+ cores")
  message(FATAL_ERROR "another platform: ${err}")
endif()
# A recording too short for the pass: its threads go on from the generator, and the checkpoints are
# the live pass's still, byte for byte; the pass says so, on stderr and in its manifest.
starnuma(0 trace record "${PLATFORM}" --workload ${workload} --instructions 20000 --out "${OUT}/short.snt")
starnuma(0 checkpoint "${PLATFORM}" --trace-in "${OUT}/short.snt" ${sets} ${pass} --out "${OUT}/short")
if(NOT err MATCHES "warning: [^\n]*short.snt: thread [0-9]+ runs past the [0-9]+ ops recorded; it goes on from the workload's generator")
  message(FATAL_ERROR "a recording too short for the pass, no warning: ${err}")
endif()
file(READ "${OUT}/short/manifest.json" short_manifest)
string(JSON short_past GET "${short_manifest}" threads_generated_past_recording)
string(JSON full_past GET "${manifest}" threads_generated_past_recording)
if(NOT short_past EQUAL 64 OR NOT full_past EQUAL 0)
  message(FATAL_ERROR "threads past the recording: ${short_past} of the short one's (64 expected), ${full_past} of "
                      "the full one's (0 expected)")
endif()
expect_live_checkpoints(short "past a short recording")
starnuma(0 trace record "${PLATFORM}" --workload sharing:pages=64 --instructions 20000 --out "${OUT}/other.snt")
starnuma(1 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/live/checkpoint-1.ckpt" --trace-in "${OUT}/other.snt"
         --instructions 1000 --no-progress)
if(NOT err MATCHES "checkpoint-1.ckpt: made for workload ${workload}, not sharing:pages=64")
  message(FATAL_ERROR "another workload's recording for a window: ${err}")
endif()
if(EXISTS "${OUT}/bad")
  message(FATAL_ERROR "a refused pass left ${OUT}/bad")
endif()
