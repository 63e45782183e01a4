# Lints every rtl/*.sv with `verilator --lint-only -Wall`, as its own top (the other files found
# through -y), with and without assertions, and at the counter widths' extremes where the module
# has a COUNTER_BITS parameter. Any warning fails the test.
file(GLOB sources "${RTL_DIR}/*.sv")
if(NOT sources)
  message(FATAL_ERROR "no RTL in ${RTL_DIR}")
endif()
set(failed "")
foreach(src ${sources})
  get_filename_component(top "${src}" NAME_WE)
  set(variants "-" "--assert")
  file(STRINGS "${src}" counter REGEX "parameter int COUNTER_BITS")
  if(counter)
    list(APPEND variants "--assert -GCOUNTER_BITS=0" "--assert -GCOUNTER_BITS=16"
                         "--assert -GCOUNTER_BITS=4 -DSTARNUMA_INJECT_WRAP_BUG")
  endif()
  foreach(variant ${variants})
    separate_arguments(extra UNIX_COMMAND "${variant}")
    list(REMOVE_ITEM extra "-")
    execute_process(COMMAND "${VERILATOR}" --lint-only -Wall -y "${RTL_DIR}" --top-module ${top}
                            ${extra} "${src}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      message("${top} (${variant}):\n${out}")
      list(APPEND failed "${top} (${variant})")
    else()
      message(STATUS "clean: ${top} ${variant}")
    endif()
  endforeach()
endforeach()
if(failed)
  message(FATAL_ERROR "lint warnings in: ${failed}")
endif()
