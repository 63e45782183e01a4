# starnuma(EXIT args...): runs ${STARNUMA} with the args, fails the test unless it exits EXIT, and
# leaves its standard output and error in `out` and `err`.
function(starnuma expect_exit)
  execute_process(COMMAND "${STARNUMA}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expect_exit}")
    message(FATAL_ERROR "starnuma ${ARGN}: exit ${rc}, expected ${expect_exit}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
