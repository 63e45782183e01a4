# must(COMMAND ARGS...): runs a command, failing the test with its output if it fails.
function(must)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: exit ${rc}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
