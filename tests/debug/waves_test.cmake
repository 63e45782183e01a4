# One waves test: runs starnuma with --waves, reads the file back (an FST through GTKWave's
# fst2vcd) and checks it with check_waves.py.
#   -DSTARNUMA= -DFST2VCD= -DPYTHON= -DCHECKER= -DDIR=(scratch) -DPLATFORM= -DPROJECT_PLATFORMS=(platforms/)
#   -DCASE=utilization|window|filter|rtl|migration
set(run ${STARNUMA} run ${PLATFORM} --workload uniform:footprint=64MiB --instructions 5000 --placement oracle
    --set coherence.enabled=true --no-progress)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
function(fst_to_vcd fst vcd)
  execute_process(COMMAND ${FST2VCD} ${fst} OUTPUT_FILE ${vcd} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fst2vcd could not read ${fst}")
  endif()
endfunction()

if(CASE STREQUAL "rtl")
  # The Verilated tracking RTL of socket0 in the same file, under its socket: its annexes hand the
  # tracker as many flushes as the run counts.
  must(${STARNUMA} run ${PLATFORM} --workload kv --instructions 20000 --set topology.socket.tracking.impl=rtl
       --no-progress --waves ${DIR}/rtl.fst --waves-filter nodes.socket0 --out ${DIR}/out)
  fst_to_vcd(${DIR}/rtl.fst ${DIR}/rtl.vcd)
  must(${PYTHON} ${CHECKER} ${DIR}/rtl.vcd --stats ${DIR}/out/stats.json --rtl-flushes socket0 --only nodes.socket0.)
  return()
endif()

if(CASE STREQUAL "migration")
  # Dynamic placement: the OS's copies in flight and its shootdowns, as the run reports them.
  execute_process(COMMAND ${STARNUMA} run ${PLATFORM} --workload kv --instructions 100000 --placement dynamic
                          --set topology.socket.tracking.impl=model --set os.phase_instructions=50000 --no-progress
                          --json --waves ${DIR}/migration.fst --waves-filter os.migration
                  OUTPUT_FILE ${DIR}/run.json RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the dynamic run failed")
  endif()
  fst_to_vcd(${DIR}/migration.fst ${DIR}/migration.vcd)
  must(${PYTHON} ${CHECKER} ${DIR}/migration.vcd --migration ${DIR}/run.json --only os.migration.)
  # AutoNUMA's scanner shoots down the translations it unmaps: the same signals.
  execute_process(COMMAND ${STARNUMA} run ${PROJECT_PLATFORMS}/lacx2-scaled.yaml --workload kv --instructions 100000
                          --placement dynamic --set os.migration=autonuma --no-progress --json
                          --waves ${DIR}/autonuma.vcd --waves-filter os.migration
                  OUTPUT_FILE ${DIR}/autonuma.json RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the AutoNUMA run failed")
  endif()
  must(${PYTHON} ${CHECKER} ${DIR}/autonuma.vcd --migration ${DIR}/autonuma.json --only os.migration.)
  return()
endif()

# The whole run in FST: every link direction's busy time equals its utilization in stats.json.
must(${run} --waves ${DIR}/all.fst --out ${DIR}/out)
fst_to_vcd(${DIR}/all.fst ${DIR}/all.vcd)
execute_process(COMMAND ${STARNUMA} describe --json ${PLATFORM} OUTPUT_FILE ${DIR}/describe.json)
if(CASE STREQUAL "utilization")
  must(${PYTHON} ${CHECKER} ${DIR}/all.vcd --describe ${DIR}/describe.json --stats ${DIR}/out/stats.json)
elseif(CASE STREQUAL "window")
  # A window, written as VCD by our own writer: nothing outside it, and inside it the links are
  # busy exactly as in the whole run's file.
  must(${run} --waves ${DIR}/window.vcd --waves-window 20us:60us)
  must(${PYTHON} ${CHECKER} ${DIR}/window.vcd --window 20000000 60000000
       --busy-of ${DIR}/all.vcd 20000000 60000000)
  file(SIZE ${DIR}/window.vcd window_size)
  file(SIZE ${DIR}/all.vcd all_size)
  math(EXPR limit "${all_size} / 2")
  if(window_size GREATER limit)
    message(FATAL_ERROR "the window's file takes ${window_size} bytes, over half the whole run's ${all_size}")
  endif()
  # A window from the start: a bare 0 needs no unit.
  must(${run} --waves ${DIR}/start.vcd --waves-window 0:20us)
  must(${PYTHON} ${CHECKER} ${DIR}/start.vcd --window 0 20000000 --busy-of ${DIR}/all.vcd 0 20000000)
elseif(CASE STREQUAL "filter")
  must(${run} --waves ${DIR}/cxl.fst --waves-filter links.cxl_*,nodes.socket0.core0)
  fst_to_vcd(${DIR}/cxl.fst ${DIR}/cxl.vcd)
  must(${PYTHON} ${CHECKER} ${DIR}/cxl.vcd --only links.cxl_ nodes.socket0.core0.)
  must(${PYTHON} ${CHECKER} ${DIR}/cxl.vcd --busy-of ${DIR}/all.vcd 0 1000000000000)
endif()
