# A sampled run says when its threads would drift apart in a continuous run (docs/sampling.md,
# "Threads that drift apart"): tc's threads, which meet at no barrier, run at rates up to three times
# apart in the windows, so the pass's equal turns put them where a timed run does not; kv's run
# within 5 % of each other; bfs's meet at a barrier every thousand instructions or so, which keeps
# them together whatever their rates. The pass takes equal turns here (--pace turns, the default,
# given explicitly); paced by time follows.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
file(REMOVE_RECURSE "${OUT}")
include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

set(sets --set os.phase_instructions=50000)
foreach(workload "tc:scale=16" kv "bfs:scale=14,trials=100")
  string(REGEX REPLACE "[:,=]" "_" name "${workload}")
  starnuma(0 checkpoint "${PLATFORM}" --workload ${workload} ${sets} --checkpoints 2 --unit-every 10000
           --pace turns --out "${OUT}/${name}" --no-progress)
  starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/${name}" --warmup 2000 --instructions 4000
           --jobs 2 --common-span --json)
  foreach(key rate_cv fastest_over_mean slowest_over_mean instructions_at_end relative_drift)
    string(JSON ${key} GET "${out}" thread_drift ${key})
  endforeach()
  string(JSON threads GET "${out}" thread_drift threads)
  string(JSON per_barrier GET "${out}" thread_drift instructions_per_barrier)
  string(JSON barrier_kind TYPE "${out}" thread_drift instructions_per_barrier)
  if(barrier_kind STREQUAL "NULL")  # no barrier passed in the windows
    set(per_barrier "none")
  endif()
  string(JSON shortfalls GET "${out}" shortfalls)
  # The drift is the rates' CV, scaled down by the share of the work between two barriers (without
  # any, the CV itself).
  if(NOT threads EQUAL 64 OR fastest_over_mean LESS 1 OR slowest_over_mean GREATER 1
     OR NOT instructions_at_end GREATER 25000 OR relative_drift GREATER rate_cv
     OR (per_barrier STREQUAL "none" AND NOT relative_drift EQUAL rate_cv))
    message(FATAL_ERROR "${workload}: an inconsistent thread_drift: ${out}")
  endif()
  set(warned FALSE)
  if(shortfalls MATCHES "the threads ran at different rates in the windows" AND err MATCHES "warning: the threads ran")
    set(warned TRUE)
  endif()
  if(workload STREQUAL "tc:scale=16")
    if(NOT per_barrier STREQUAL "none" OR NOT relative_drift GREATER 0.3 OR NOT fastest_over_mean GREATER 2 OR NOT warned
       OR NOT shortfalls MATCHES "passed no barrier: by the [0-9]+ instructions of the mean thread where the windows end"
       OR NOT shortfalls MATCHES "checkpoint --pace time lets the pass's threads drift")
      message(FATAL_ERROR "tc: its threads drift (CV ${rate_cv}, no barrier) and the run should say so: ${out}\n${err}")
    endif()
  elseif(workload STREQUAL "kv")
    if(NOT relative_drift LESS 0.1 OR warned)
      message(FATAL_ERROR "kv: its threads keep together (drift ${relative_drift}), no warning expected: ${out}\n${err}")
    endif()
  elseif(per_barrier STREQUAL "none" OR per_barrier GREATER 5000 OR NOT rate_cv GREATER 0.1
         OR NOT relative_drift LESS 0.1 OR warned)
    message(FATAL_ERROR "bfs: its threads differ (CV ${rate_cv}) but meet every ${per_barrier} instructions: "
                        "no warning expected: ${out}\n${err}")
  endif()
endforeach()

# Paced by time (checkpoint --pace time), tc's threads ran in the pass at the rates their clocks gave
# them: the drift left is the windows' rates over those, less than the rates' own spread.
starnuma(0 checkpoint "${PLATFORM}" --workload tc:scale=16 ${sets} --checkpoints 2 --unit-every 10000 --pace time
         --out "${OUT}/tc-paced" --no-progress)
starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/tc-paced" --warmup 2000 --instructions 4000 --jobs 2
         --common-span --json)
string(JSON paced_by GET "${out}" thread_drift paced_by)
string(JSON rate_cv GET "${out}" thread_drift rate_cv)
string(JSON over_paced GET "${out}" thread_drift rate_over_paced_cv)
string(JSON relative_drift GET "${out}" thread_drift relative_drift)
if(NOT paced_by STREQUAL "time" OR NOT over_paced LESS rate_cv OR NOT relative_drift EQUAL over_paced)
  message(FATAL_ERROR "tc paced by time: the drift should be the windows' rates over the pace's: ${out}")
endif()
