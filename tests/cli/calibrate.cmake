# starnuma calibrate recovers known parameters: MLC output of the model with two parameters
# perturbed (the expander's internal latency 52.5 -> 70 ns, its link 48 -> 40 GB/s), calibrated
# from the unperturbed platform, gives them back within 2 %, and the written platform loads.
#   -DSTARNUMA=... -DPLATFORM=platforms/hardware/spr-cxl-asic.yaml -DOUT=dir
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(common --from s0 --to cxl --requests 10000 --jobs 2)
execute_process(COMMAND "${STARNUMA}" mlc "${PLATFORM}" ${common} --loads 0.2,0.4,0.6,0.8
                        --set nodes.cxl.internal_latency=70ns --set links.s0_cxl.bandwidth=40GB/s
                OUTPUT_FILE "${OUT}/perturbed.txt" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mlc failed: ${err}")
endif()
execute_process(COMMAND "${STARNUMA}" calibrate "${PLATFORM}" --mlc "${OUT}/perturbed.txt" ${common}
                        --fit nodes.cxl.internal_latency --fit links.s0_cxl.bandwidth --out "${OUT}/calibrated.yaml" --json
                OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "calibrate failed: ${err}")
endif()
# Each key with the perturbed value's 2 % bounds (70 ns; 40 GB/s in B/s).
foreach(bounds "nodes.cxl.internal_latency;68.6;71.4" "links.s0_cxl.bandwidth;39200000000;40800000000")
  list(GET bounds 0 key)
  list(GET bounds 1 low)
  list(GET bounds 2 high)
  string(JSON got GET "${out}" fitted ${key} value)
  if(got LESS low OR got GREATER high)
    message(FATAL_ERROR "${key}: fitted ${got}, outside [${low}, ${high}]\n${out}")
  endif()
endforeach()
string(JSON after GET "${out}" rms_error_after)
if(after GREATER 0.02)
  message(FATAL_ERROR "RMS error after the fit ${after}\n${out}")
endif()
execute_process(COMMAND "${STARNUMA}" check "${OUT}/calibrated.yaml" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the calibrated platform does not load: ${out}${err}")
endif()
