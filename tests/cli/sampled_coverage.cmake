# Coverage (docs/sampling.md, "Do the units' intervals cover a continuous run?"): 3 boundaries with
# 7 units each tile the execution; their windows, each over a common span and with the TLBs,
# annexes, LLCs and coherence directories the pass left, give IPC and AMAT intervals that must hold
# the IPC and AMAT of one continuous run of the same phases, measured over a span from boundary 1
# on. Without the span and the warm TLBs the windows ran 30 % too fast and their IPC interval missed
# it; with cold LLCs their AMAT interval missed it, 20 % short.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set topology.socket.tracking.impl=model --set os.phase_instructions=40000)
set(workload sharing:pages=2048)
file(REMOVE_RECURSE "${OUT}")

include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

starnuma(0 checkpoint "${PLATFORM}" --workload ${workload} ${sets} --checkpoints 3 --units-per-phase 7 --out "${OUT}/ck"
         --no-progress --warm-llcs --timed-start 0)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck" --warmup 2000 --instructions 5000 --jobs 2
         --common-span --warm-tlbs --warm-llcs --json)
set(sampled "${out}")
starnuma(0 run "${PLATFORM}" --workload ${workload} ${sets} --placement dynamic --warmup 40000 --instructions 120000
         --common-span --no-progress --json)
set(continuous "${out}")

string(JSON windows GET "${sampled}" windows)
string(JSON low GET "${sampled}" confidence ipc low)
string(JSON high GET "${sampled}" confidence ipc high)
string(JSON ipc GET "${sampled}" ipc)
string(JSON truth GET "${continuous}" ipc)
string(JSON amat_low GET "${sampled}" confidence amat_ns low)
string(JSON amat_high GET "${sampled}" confidence amat_ns high)
string(JSON amat GET "${sampled}" amat_ns)
string(JSON amat_truth GET "${continuous}" amat_ns)
message(STATUS "${windows} windows: IPC ${ipc} (95 %: ${low}-${high}), AMAT ${amat} ns (${amat_low}-${amat_high}); "
               "continuous ${truth}, ${amat_truth} ns")
if(NOT windows EQUAL 24)
  message(FATAL_ERROR "sampled over ${windows} windows, expected 24")
endif()
if(truth LESS low OR truth GREATER high)
  message(FATAL_ERROR "the continuous run's IPC ${truth} is outside the windows' 95 % interval ${low}-${high}")
endif()
if(amat_truth LESS amat_low OR amat_truth GREATER amat_high)
  message(FATAL_ERROR "the continuous run's AMAT ${amat_truth} ns is outside the windows' 95 % interval "
                      "${amat_low}-${amat_high}")
endif()
