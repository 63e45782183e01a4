# Runs the same `starnuma run` twice and requires bit-identical results: stats.json equal except
# for host_seconds (wall-clock time). EXTRA: more arguments separated by |, e.g. dynamic placement.
# EXTRA2 (optional): the second run's instead, for a feature that must change nothing else; then
# IGNORE, a regex of the stats.json lines that feature adds.
string(REPLACE "|" ";" extra1 "${EXTRA}")
if(DEFINED EXTRA2)
  string(REPLACE "|" ";" extra2 "${EXTRA2}")
else()
  set(extra2 ${extra1})
endif()
foreach(i 1 2)
  execute_process(COMMAND "${STARNUMA}" run "${PLATFORM}" --workload "${WORKLOAD}" --instructions "${INSTRUCTIONS}"
                          --seed 7 --out "${OUT}/run${i}" --no-progress ${extra${i}}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed (${rc}): ${err}")
  endif()
  file(STRINGS "${OUT}/run${i}/stats.json" lines${i} REGEX "^.*$")
  list(FILTER lines${i} EXCLUDE REGEX "\"host_seconds\"")
  if(IGNORE)
    list(FILTER lines${i} EXCLUDE REGEX "${IGNORE}")
  endif()
endforeach()
if(NOT lines1 STREQUAL lines2)
  message(FATAL_ERROR "two runs with the same inputs and seed differ")
endif()
list(LENGTH lines1 n)
message(STATUS "${n} lines identical")
