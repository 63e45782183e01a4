# Runs the starnuma CLI once and checks what it did.
#   -DCMD="starnuma|arg|arg"   the command, arguments separated by |
#   -DEXIT=N                   the exit code it must return
#   -DSTDOUT=regex -DSTDERR=regex   patterns its outputs must match
#   -DJSON=ON                  stdout must be one valid JSON document
#   -DSAME_AS=file             stdout must equal the file (generated documentation)
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match '${STDOUT}':\n${out}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}':\n${err}")
endif()
if(JSON)
  string(JSON type ERROR_VARIABLE json_error TYPE "${out}")
  if(json_error)
    message(FATAL_ERROR "stdout is not valid JSON: ${json_error}")
  endif()
endif()
if(DEFINED SAME_AS)
  file(READ "${SAME_AS}" expected)
  if(NOT expected STREQUAL out)
    message(FATAL_ERROR "${SAME_AS} is out of date; regenerate it with: ${CMD} > ${SAME_AS}")
  endif()
endif()
