# One transaction-trace test: runs starnuma with --trace-transactions and checks the file with
# check_transactions.py.  -DSTARNUMA= -DPYTHON= -DCHECKER= -DDIR= -DPLATFORM= -DCASE=
set(run ${STARNUMA} run ${PLATFORM} --workload uniform:footprint=64MiB --instructions 500 --placement oracle
    --no-progress --json)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
function(run_into json)
  execute_process(COMMAND ${run} ${ARGN} RESULT_VARIABLE rc OUTPUT_FILE ${json} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "starnuma run ${ARGN}: exit ${rc}\n${err}")
  endif()
endfunction()

if(CASE STREQUAL "coherent" OR CASE STREQUAL "memory")
  # Every miss traced: each one's slices add up to its latency, and their mean is the run's AMAT.
  if(CASE STREQUAL "coherent")
    set(coherence true)
  else()
    set(coherence false)
  endif()
  run_into(${DIR}/run.json --set coherence.enabled=${coherence} --trace-transactions ${DIR}/t.json --trace-every 1)
  must(${PYTHON} ${CHECKER} ${DIR}/t.json --amat ${DIR}/run.json)
elseif(CASE STREQUAL "filters")
  run_into(${DIR}/run.json --set coherence.enabled=true --trace-transactions ${DIR}/t.json --trace-every 1
           --trace-sockets socket3 --trace-window 5us:15us --trace-addresses 0x0:0x1000000000)
  must(${PYTHON} ${CHECKER} ${DIR}/t.json --socket socket3 --window 5000 15000 --addresses 0x0 0x1000000000)
endif()
