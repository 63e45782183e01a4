# Sampling units carry the copies still in flight (docs/sampling.md, "Units"): `sample` runs the
# boundaries' windows first, reads how far each phase's copies had got by each unit's distance
# from its boundary, and starts the unit's window with the rest in flight; then --copies-done's
# bad inputs (exit 1, the reason named).
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set topology.socket.tracking.impl=model --set os.phase_instructions=40000)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

starnuma(0 checkpoint "${PLATFORM}" --workload sharing:pages=2048 ${sets} --checkpoints 3 --units-per-phase 3
         --out "${OUT}/ck" --no-progress)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 4000 --instructions 20000 --jobs 2
         --out "${OUT}/sampled" --json)
set(sampled "${out}")
# Windows 1, 1.1-1.3, 2, 2.1-2.3, 3: phase 1 decides nothing; phase 2's copies are in flight early in
# the phase and fewer later, never more.
set(expected_names 1 1.1 1.2 1.3 2 2.1 2.2 2.3 3)
set(previous 0)
foreach(k RANGE 0 8)
  string(JSON phase GET "${sampled}" per_window ${k} phase)
  string(JSON unit GET "${sampled}" per_window ${k} unit)
  string(JSON in_flight GET "${sampled}" per_window ${k} copies_in_flight)
  if(phase EQUAL 1 AND NOT in_flight EQUAL 0)
    message(FATAL_ERROR "window ${phase}.${unit}: ${in_flight} copies in flight in a phase that decided none")
  endif()
  if(phase EQUAL 2 AND unit GREATER 1 AND in_flight GREATER previous)
    message(FATAL_ERROR "window 2.${unit}: ${in_flight} copies in flight, more than the unit before (${previous})")
  endif()
  if(phase EQUAL 2 AND unit EQUAL 1 AND in_flight LESS 50)
    message(FATAL_ERROR "window 2.1: ${in_flight} copies in flight 10 K instructions into a phase of 400")
  endif()
  set(previous ${in_flight})
  # The window's own results agree with the aggregate's entry.
  math(EXPR n "${k} + 1")
  file(READ "${OUT}/sampled/window-${n}/stats.json" w)
  if(unit GREATER 0)
    string(JSON own GET "${w}" checkpoint_copies_in_flight)
    if(NOT own EQUAL in_flight)
      message(FATAL_ERROR "window ${phase}.${unit}: ${own} copies in flight in its stats.json, ${in_flight} in sampled.json")
    endif()
  endif()
endforeach()

# --copies-done: only with a unit's checkpoint, never more than its phase's copies.
starnuma(1 run "${PLATFORM}" ${sets} --copies-done 3)
if(NOT err MATCHES "--copies-done requires --checkpoint")
  message(FATAL_ERROR "--copies-done without a checkpoint: ${err}")
endif()
starnuma(1 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/checkpoint-2.ckpt" --copies-done 3 --instructions 100)
if(NOT err MATCHES "checkpoint-2.ckpt is a boundary's checkpoint, whose window makes all its copies")
  message(FATAL_ERROR "--copies-done with a boundary: ${err}")
endif()
starnuma(1 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/unit-2-1.ckpt" --copies-done 100000 --instructions 100)
if(NOT err MATCHES "--copies-done 100000: the phase of [^ ]*unit-2-1.ckpt has [0-9]+ copies")
  message(FATAL_ERROR "--copies-done beyond the phase: ${err}")
endif()
file(REMOVE_RECURSE "${OUT}")
