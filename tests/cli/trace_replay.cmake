# Records a workload with `starnuma trace record`, runs it live and from the trace, and requires
# bit-identical results: stats.json equal except for host_seconds (wall-clock time). The run from
# the trace gives neither --seed nor --instructions: the trace supplies the ones it was recorded with.
# With -DARTIFACT=ON the trace is also written as the StarNUMA artifact's trace set (`trace artifact`)
# and run from that set, socket0 detailed, its pages where the set's page-owner file says, against
# the trace run the same way: equal too, but for the workload's description (what the set's
# formats cannot hold, the low 4 address bits and dependence on a load, the workload must not use).
#   -DSTARNUMA -DPLATFORM -DWORKLOAD -DINSTRUCTIONS -DPLACEMENT -DOUT [-DARTIFACT=ON]
function(starnuma_run what)
  execute_process(COMMAND "${STARNUMA}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${out}${err}")
  endif()
  message(STATUS "${what}: ${out}")
endfunction()

file(REMOVE_RECURSE "${OUT}")
starnuma_run("record" trace record "${PLATFORM}" --workload "${WORKLOAD}" --instructions "${INSTRUCTIONS}" --seed 7
             --out "${OUT}/trace.snt")
starnuma_run("live run" run "${PLATFORM}" --workload "${WORKLOAD}" --instructions "${INSTRUCTIONS}" --seed 7
             --placement "${PLACEMENT}" --out "${OUT}/live" --no-progress)
starnuma_run("run from the trace" run "${PLATFORM}" --trace-in "${OUT}/trace.snt" --placement "${PLACEMENT}"
             --out "${OUT}/replay" --no-progress)
# The stats.json lines of runs `a` and `b`, equal but for host_seconds (and `skip`'s lines).
function(require_same a b what skip)
  foreach(run ${a} ${b})
    file(STRINGS "${OUT}/${run}/stats.json" lines_${run} REGEX "^.*$")
    list(FILTER lines_${run} EXCLUDE REGEX "\"host_seconds\"${skip}")
  endforeach()
  if(NOT lines_${a} STREQUAL lines_${b})
    foreach(line IN LISTS lines_${a})
      list(FIND lines_${b} "${line}" found)
      if(found EQUAL -1)
        message(STATUS "only ${a}: ${line}")
      endif()
    endforeach()
    message(FATAL_ERROR "${what}")
  endif()
  list(LENGTH lines_${a} n)
  message(STATUS "${a} and ${b}: ${n} lines identical")
endfunction()
require_same(live replay "the run from the trace differs from the live run" "")

if(ARTIFACT)
  starnuma_run("the artifact's set" trace artifact "${OUT}/trace.snt" --out "${OUT}/set" --phase 3)
  set(owners "${OUT}/set/pagemaps/phase3_pagemaps/page_owner_pre.txt")
  starnuma_run("the trace, socket0 detailed" run "${PLATFORM}" --trace-in "${OUT}/trace.snt" --placement first-touch
               --initial-placement "${owners}" --detailed-sockets 1 --out "${OUT}/trace_placed" --no-progress)
  starnuma_run("the set, socket0 detailed" run "${PLATFORM}" --trace-in "${OUT}/set" --instructions "${INSTRUCTIONS}"
               --seed 7 --placement first-touch --initial-placement "${owners}" --detailed-sockets 1
               --out "${OUT}/set_placed" --no-progress)
  require_same(trace_placed set_placed "the run from the artifact's set differs from the run from the trace"
               "|\"workload\"")
endif()
