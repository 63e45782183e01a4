# Records a workload with `starnuma trace record`, runs it live and from the trace, and requires
# bit-identical results: stats.json equal except for host_seconds (wall-clock time). The run from
# the trace gives neither --seed nor --instructions: the trace supplies the ones it was recorded with.
#   -DSTARNUMA -DPLATFORM -DWORKLOAD -DINSTRUCTIONS -DPLACEMENT -DOUT
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
foreach(run live replay)
  file(STRINGS "${OUT}/${run}/stats.json" lines_${run} REGEX "^.*$")
  list(FILTER lines_${run} EXCLUDE REGEX "\"host_seconds\"")
endforeach()
if(NOT lines_live STREQUAL lines_replay)
  foreach(line IN LISTS lines_live)
    list(FIND lines_replay "${line}" found)
    if(found EQUAL -1)
      message(STATUS "only live: ${line}")
    endif()
  endforeach()
  message(FATAL_ERROR "the run from the trace differs from the live run")
endif()
list(LENGTH lines_live n)
message(STATUS "${n} lines identical")
