# Files that are not regular files, and interrupted commands (issue 18).
#   -DSTARNUMA=exe -DPLATFORMS=folder -DOUT=folder
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(platform "${PLATFORMS}/starnuma16-scaled.yaml")

function(expect_refusal pattern)
  # A FIFO read would block for ever: the timeout turns a hang into a failure.
  execute_process(COMMAND "${STARNUMA}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
  if(NOT rc STREQUAL "1" OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "starnuma ${ARGN}: exit ${rc}, expected 1 matching '${pattern}'\n${err}")
  endif()
endfunction()

execute_process(COMMAND mkfifo "${OUT}/fifo.yaml" "${OUT}/fifo.snt" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
file(MAKE_DIRECTORY "${OUT}/folder.yaml")
expect_refusal("fifo.yaml: error: not a regular file" check "${OUT}/fifo.yaml")
expect_refusal("fifo.yaml: error: not a regular file" run "${platform}" --workload "${OUT}/fifo.yaml")
expect_refusal("folder.yaml: error: not a regular file" run "${platform}" --workload "${OUT}/folder.yaml")
expect_refusal("fifo.snt: not a regular file" run "${platform}" --trace-in "${OUT}/fifo.snt" --no-progress)
expect_refusal("fifo.snt: exists and is not a regular file" trace record "${platform}" --out "${OUT}/fifo.snt")
# The FIFO is still a FIFO.
execute_process(COMMAND test -p "${OUT}/fifo.snt" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "trace record replaced the FIFO")
endif()

# An interrupted trace record removes its temporary file.
execute_process(COMMAND timeout -s TERM 2 "${STARNUMA}" trace record "${platform}" --workload uniform:footprint=64MiB
                        --instructions 100000000 --out "${OUT}/big.snt" RESULT_VARIABLE rc)
file(GLOB left "${OUT}/big.snt*")
if(left)
  message(FATAL_ERROR "an interrupted trace record left ${left} (exit ${rc})")
endif()

# An interrupted compare takes its two runs with it and leaves no --out folder.
execute_process(COMMAND timeout -s TERM 3 "${STARNUMA}" compare "${PLATFORMS}/baseline16-scaled.yaml" "${platform}"
                        --workload uniform:footprint=64MiB --instructions 100000000 --out "${OUT}/cmp"
                RESULT_VARIABLE rc)
# Its runs get SIGTERM as it stops; give them up to 10 s to go on a loaded machine (ASan under -j2).
foreach(attempt RANGE 100)
  execute_process(COMMAND pgrep -f "${OUT}/cmp" OUTPUT_VARIABLE running)
  if(NOT running)
    break()
  endif()
  execute_process(COMMAND sleep 0.1)
endforeach()
if(running)
  execute_process(COMMAND pkill -f "${OUT}/cmp")
  message(FATAL_ERROR "an interrupted compare left its runs running: ${running}")
endif()
file(GLOB left "${OUT}/cmp*")
if(left)
  message(FATAL_ERROR "an interrupted compare left ${left}")
endif()

# Nesting beyond the YAML parser's depth: said so, with the place.
string(REPEAT "[" 2000 open)
string(REPEAT "]" 2000 close)
file(WRITE "${OUT}/deep.yaml" "nodes: ${open}${close}\n")
expect_refusal("deep.yaml:1:[0-9]+: error: maps and lists nested deeper than the YAML parser allows" check "${OUT}/deep.yaml")

# A chain of 400 sockets (which forward nothing): one error, at once, whatever the length.
set(chain "nodes:\n")
foreach(i RANGE 399)
  string(APPEND chain "  s${i}: {type: socket, cores: 1, memory: {channels: 1, channel_capacity: 1GiB}}\n")
endforeach()
string(APPEND chain "links:\n")
foreach(i RANGE 398)
  math(EXPR j "${i} + 1")
  string(APPEND chain "  l${i}: {type: upi, a: s${i}, b: s${j}}\n")
endforeach()
file(WRITE "${OUT}/chain.yaml" "${chain}")
execute_process(COMMAND "${STARNUMA}" check "${OUT}/chain.yaml" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 20)
string(REGEX MATCHALL "error:" errors "${err}")
list(LENGTH errors n)
if(NOT rc EQUAL 1 OR NOT n EQUAL 1 OR NOT err MATCHES "158802 socket-to-memory pairs have no route")
  message(FATAL_ERROR "a chain of 400 sockets: exit ${rc}, ${n} errors:\n${err}")
endif()
