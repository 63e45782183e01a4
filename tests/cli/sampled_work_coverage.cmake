# Coverage over the work (docs/sampling.md, "Units over the work"): bfs, whose threads progress
# unevenly, sampled by units every 10 K instructions of the mean thread between boundary 1 and the
# end of phase 3 (checkpoint --unit-every), each checkpoint 10 K before the stretch its window
# measures (--unit-lead, the windows' warm-up), each window over a common span with the TLBs, LLCs
# and directories the pass left; the boundaries' windows time the copies and stay out of the
# estimate. Its IPC and AMAT intervals must hold those of a continuous run over the same stretch of
# the mean thread's work given the pass's moves (run --moves-from): what sampling alone measures.
# The continuous run's own decisions differ in one hot page (docs/os.md, "The moves, page by page"),
# which makes its AMAT 7 % higher; the units' AMAT must come within 10 % of it. Units placed by the
# furthest thread put most windows in the serial start and missed it (IPC 0.034 against 0.021). The
# units whose stretch crosses the next boundary start that phase in their windows, boundary 1's in the
# window of a unit written in phase 0, the lead before the stretch boundary 1 starts.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set os.phase_instructions=200000)
set(workload bfs:scale=16,trials=100)
set(every 10000)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/units_stretch.cmake")

starnuma(0 checkpoint "${PLATFORM}" --workload ${workload} ${sets} --checkpoints 3 --unit-every ${every}
         --unit-lead 10000 --moves --out "${OUT}/ck" --no-progress --warm-llcs)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 10000 --instructions 20000 --jobs 2
         --common-span --warm-tlbs --warm-llcs --json)
set(sampled "${out}")

# The stretch the units measure: from the first unit's multiple of 10 K to one past the last's.
file(READ "${OUT}/ck/manifest.json" manifest)
units_stretch("${manifest}" ${every} from span)
string(JSON units LENGTH "${manifest}" units)
set(stretch --placement dynamic --warmup ${from} --instructions ${span} --common-span --no-progress --json)
starnuma(0 run "${PLATFORM}" --workload ${workload} ${sets} ${stretch} --moves-from "${OUT}/ck/moves.csv")
set(as_pass "${out}")
starnuma(0 run "${PLATFORM}" --workload ${workload} ${sets} ${stretch})
set(continuous "${out}")

string(JSON windows GET "${sampled}" windows)
string(JSON timing GET "${sampled}" windows_timing_copies)
if(NOT windows EQUAL units OR NOT timing EQUAL 3)
  message(FATAL_ERROR "${windows} windows in the estimate and ${timing} timing copies; expected ${units} and 3")
endif()
# The units whose stretch crosses the next boundary start its phase in their windows (run
# --next-boundary): each such window reports the next phase's decision, and no other unit's does.
string(JSON crossing GET "${sampled}" method units_crossing_a_boundary)
string(JSON entries LENGTH "${sampled}" per_window)
set(deciding 0)
math(EXPR last "${entries} - 1")
foreach(k RANGE ${last})
  string(JSON unit GET "${sampled}" per_window ${k} unit)
  string(JSON decided GET "${sampled}" per_window ${k} pages_decided)
  if(unit GREATER 0 AND decided GREATER 0)
    math(EXPR deciding "${deciding} + 1")
  endif()
endforeach()
string(JSON short_of_it GET "${sampled}" method units_ending_before_their_boundary)
if(crossing LESS 5 OR NOT deciding EQUAL crossing OR NOT short_of_it EQUAL 0)
  message(FATAL_ERROR "${crossing} units given their next boundary, ${deciding} started its phase, ${short_of_it} "
                      "said they ended before it; expected the phase-0 unit for boundary 1 and at least 2 for each "
                      "of boundaries 2 and 3, all of them starting it")
endif()
# The stretch boundary 1 starts is measured: its unit, led 10 K, was written in phase 0 and its
# window started phase 1 (the pass's decision) in its warm-up.
set(first_phase_0 "")
foreach(k RANGE ${last})
  string(JSON phase GET "${sampled}" per_window ${k} phase)
  string(JSON unit GET "${sampled}" per_window ${k} unit)
  if(phase EQUAL 0 AND unit EQUAL 1)
    string(JSON first_phase_0 GET "${sampled}" per_window ${k} pages_decided)
  endif()
endforeach()
if(first_phase_0 STREQUAL "" OR first_phase_0 EQUAL 0)
  message(FATAL_ERROR "no window of unit 0.1 deciding phase 1's moves ('${first_phase_0}'): the stretch boundary "
                      "1 starts has no unit")
endif()
foreach(figure ipc amat_ns)
  string(JSON low GET "${sampled}" confidence ${figure} low)
  string(JSON high GET "${sampled}" confidence ${figure} high)
  string(JSON value GET "${sampled}" ${figure})
  string(JSON truth GET "${as_pass}" ${figure})
  string(JSON own GET "${continuous}" ${figure})
  message(STATUS "${figure}: ${value} (95 %: ${low}-${high}) over ${windows} units; continuous with the pass's "
                 "moves ${truth}, with its own ${own}")
  if(truth LESS low OR truth GREATER high)
    message(FATAL_ERROR "the continuous run with the pass's moves, ${figure} ${truth}, is outside the units' "
                        "95 % interval ${low}-${high}")
  endif()
endforeach()
# Against the run's own decisions: IPC held, AMAT within 10 % (the hot page's 7 %).
string(JSON low GET "${sampled}" confidence ipc low)
string(JSON high GET "${sampled}" confidence ipc high)
string(JSON own GET "${continuous}" ipc)
if(own LESS low OR own GREATER high)
  message(FATAL_ERROR "the continuous run's own IPC ${own} is outside the units' 95 % interval ${low}-${high}")
endif()
string(JSON value GET "${sampled}" amat_ns)
string(JSON own GET "${continuous}" amat_ns)
string(REGEX REPLACE "\\..*" "" value_ns "${value}")
string(REGEX REPLACE "\\..*" "" own_ns "${own}")
math(EXPR least "${own_ns} * 90 / 100")
math(EXPR most "${own_ns} * 110 / 100")
if(value_ns LESS least OR value_ns GREATER most)
  message(FATAL_ERROR "the units' AMAT ${value} is more than 10 % from the continuous run's own ${own}")
endif()
