# Sampling units carry the copies still in flight (docs/sampling.md, "Units"): `sample` runs the
# boundaries' windows first, reads how far each phase's copies had got by each unit's distance
# from its boundary, and starts the unit's window with the rest in flight; then --copies-done's
# bad inputs (exit 1, the reason named).
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set topology.socket.tracking.impl=model --set os.phase_instructions=40000)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

starnuma(0 checkpoint "${PLATFORM}" --workload sharing:pages=2048 ${sets} --checkpoints 3 --units-per-phase 7
         --out "${OUT}/ck" --no-progress)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 2000 --instructions 10000 --jobs 2
         --out "${OUT}/sampled" --json)
set(sampled "${out}")
# Windows 1, 1.1-1.7, 2, 2.1-2.7, 3, 3.1-3.7 (the last boundary's phase has its units too): phase 1
# decides nothing; phase 2's copies are in flight early in the phase and fewer later, never more.
foreach(k RANGE 0 23)
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
    message(FATAL_ERROR "window 2.1: ${in_flight} copies in flight 5 K instructions into a phase of 400")
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

# The copies a unit carries in flight are those a continuous run has not started by the unit
# itself, and its window copies them from its start, through its warm-up (since 2026-11-30: its
# measurement meets their traffic as a continuous run's does): how many it carries does not depend
# on the warm-up (a few apart at most, the boundary's window timing them over its own warm-up),
# while the longer warm-up has made more of them by its measurement. Measured (2026-11-30): 2.1
# carries 196 after 2 K and 197 after 8 K; counted at the measurement instead (2026-11-29 to then)
# it carried 165 and 30.
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 8000 --instructions 10000 --jobs 2 --json)
foreach(k RANGE 9 15)
  string(JSON unit GET "${sampled}" per_window ${k} unit)
  string(JSON short GET "${sampled}" per_window ${k} copies_in_flight)
  string(JSON long GET "${out}" per_window ${k} copies_in_flight)
  math(EXPR apart "${long} - ${short}")
  math(EXPR slack "${short} / 20 + 3")
  if(apart GREATER slack OR apart LESS -${slack} OR (unit EQUAL 1 AND short LESS 100))
    message(FATAL_ERROR "window 2.${unit}: ${long} copies in flight after 8 K of warm-up, ${short} after 2 K")
  endif()
endforeach()

# --target-error: a coarse stride first, finer ones until met (docs/sampling.md, "Choosing the number
# of units"). 24 windows on a grid of 8 per phase: a pilot of every second (12), then all of them.
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 2000 --instructions 10000 --jobs 2
         --target-error 0.9 --json)
string(JSON strides GET "${out}" strides)
string(JSON windows GET "${out}" windows)
if(NOT strides MATCHES "^\\[ *2 *\\]$" OR NOT windows EQUAL 12)
  message(FATAL_ERROR "a loose target: strides ${strides}, ${windows} windows; expected the pilot of 12 alone")
endif()
string(JSON pilot_ipc GET "${out}" per_window 1 ipc)
string(JSON all_ipc GET "${sampled}" per_window 2 ipc)
if(NOT pilot_ipc STREQUAL all_ipc)
  message(FATAL_ERROR "the pilot's window 1.2 gave IPC ${pilot_ipc}, the same window in the full run ${all_ipc}")
endif()
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 2000 --instructions 10000 --jobs 2
         --target-error 0.001 --confidence 0.99 --json)
string(JSON strides GET "${out}" strides)
string(JSON windows GET "${out}" windows)
string(JSON level GET "${out}" confidence level)
string(JSON shortfall GET "${out}" shortfalls 0)
if(NOT strides MATCHES "^\\[ *2, *1 *\\]$" OR NOT windows EQUAL 24 OR NOT level EQUAL 0.99
   OR NOT shortfall MATCHES "the 99 % interval of IPC is \\+-[0-9.]+ %, wider than --target-error 0.1 % with all 24 windows the checkpoints hold: about [0-9]+ are needed")
  message(FATAL_ERROR "an unmet target: strides ${strides}, ${windows} windows, level ${level}: '${shortfall}'")
endif()
string(JSON width99 GET "${out}" confidence ipc relative_half_width)
string(JSON width95 GET "${sampled}" confidence ipc relative_half_width)
if(NOT width99 GREATER width95)
  message(FATAL_ERROR "the 99 % interval (+-${width99}) is not wider than the 95 % one (+-${width95})")
endif()
starnuma(1 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --confidence 1.5)
if(NOT err MATCHES "--confidence: Value 1.5 not in range")
  message(FATAL_ERROR "--confidence 1.5: ${err}")
endif()

# A boundary's window timed to its last copy (run --time-copies-to, what sample gives the
# boundaries of units over the work): it measures on past --instructions until its OS has started
# every copy of its phase, and stops soon after; without it, 2 K instructions start only some.
# Of a window's phase: the copies started, the phase's copies, the instructions it saw, the last start.
function(boundary_copies out_dir prefix)
  file(READ "${out_dir}/stats.json" w)
  string(JSON started LENGTH "${w}" migration per_phase 0 copies_started_at_instructions)
  math(EXPR last_index "${started} - 1")
  string(JSON last GET "${w}" migration per_phase 0 copies_started_at_instructions ${last_index})
  string(JSON to_copy GET "${w}" migration per_phase 0 pages_to_copy)
  string(JSON observed GET "${w}" migration per_phase 0 instructions_observed)
  foreach(v started last to_copy observed)
    set(${prefix}${v} ${${v}} PARENT_SCOPE)
  endforeach()
endfunction()
starnuma(0 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/checkpoint-2.ckpt" --instructions 2000 --warmup 2000
         --no-progress --out "${OUT}/short")
boundary_copies("${OUT}/short" short_)
starnuma(0 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/checkpoint-2.ckpt" --instructions 2000 --warmup 2000
         --time-copies-to 40000 --no-progress --out "${OUT}/timed")
boundary_copies("${OUT}/timed" timed_)
math(EXPR after_last "${timed_observed} - ${timed_last}")
message(STATUS "boundary 2: ${short_started} of ${short_to_copy} copies started over 2 K; all by ${timed_last}, "
               "the window ended at ${timed_observed}")
if(NOT short_started LESS short_to_copy OR NOT timed_started EQUAL timed_to_copy OR NOT timed_to_copy EQUAL short_to_copy
   OR NOT timed_observed GREATER 2000 OR after_last GREATER 2000 OR NOT timed_observed LESS 40000)
  message(FATAL_ERROR "boundary 2 timed to its copies: ${timed_started} of ${timed_to_copy} started, the last at "
                      "${timed_last}, the window ended at ${timed_observed} (over 2 K alone: ${short_started} of "
                      "${short_to_copy})")
endif()
starnuma(1 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/unit-2-1.ckpt" --time-copies-to 9000 --instructions 100)
if(NOT err MATCHES "--time-copies-to: [^ ]*unit-2-1.ckpt is a unit's checkpoint")
  message(FATAL_ERROR "--time-copies-to with a unit: ${err}")
endif()
starnuma(1 run "${PLATFORM}" ${sets} --checkpoint "${OUT}/ck/checkpoint-2.ckpt" --time-copies-to 9000 --instructions 100
         --per-thread-budgets)
if(NOT err MATCHES "--time-copies-to needs --common-span")
  message(FATAL_ERROR "--time-copies-to over per-thread budgets: ${err}")
endif()

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
