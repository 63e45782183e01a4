# Runs the same `starnuma run` twice and requires bit-identical results: stats.json equal except
# for host_seconds (wall-clock time). EXTRA: more arguments separated by |, e.g. dynamic placement.
string(REPLACE "|" ";" extra "${EXTRA}")
foreach(i 1 2)
  execute_process(COMMAND "${STARNUMA}" run "${PLATFORM}" --workload "${WORKLOAD}" --instructions "${INSTRUCTIONS}"
                          --seed 7 --out "${OUT}/run${i}" --no-progress ${extra}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed (${rc}): ${err}")
  endif()
  file(STRINGS "${OUT}/run${i}/stats.json" lines${i} REGEX "^.*$")
  list(FILTER lines${i} EXCLUDE REGEX "\"host_seconds\"")
endforeach()
if(NOT lines1 STREQUAL lines2)
  message(FATAL_ERROR "two runs with the same inputs and seed differ")
endif()
list(LENGTH lines1 n)
message(STATUS "${n} lines identical")
