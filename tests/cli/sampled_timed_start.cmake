# A timed start (docs/sampling.md, "A timed start"): the functional pass's threads take turns, so
# they share out sharing's first touches evenly, where a timed run's chassis-0 sockets win most of
# the races and home the widely shared pages; the units then run on another machine's placement,
# and their IPC is more than 15 % above a continuous run's (20 % measured; 38 % while the cores
# started in step and SystemC's process order decided the races). With `checkpoint --timed-start` the
# pass places the pages a timed run's start placed where it did, and the units' IPC is within 8 %
# of the continuous run's. Nothing migrates (os.migration_limit=0): the placement is first touch's.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
set(sets --set os.phase_instructions=100000 --set os.migration_limit=0)
set(every 20000)
file(REMOVE_RECURSE "${OUT}")
include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/units_stretch.cmake")

foreach(start none 20000)
  set(options --timed-start 0)  # the pass's own first touches (the default is a timed start)
  if(NOT start STREQUAL "none")
    set(options --timed-start ${start})
  endif()
  starnuma(0 checkpoint "${PLATFORM}" --workload sharing ${sets} --checkpoints 1 --unit-every ${every} --warm-llcs
           ${options} --out "${OUT}/ck-${start}" --no-progress)
  file(READ "${OUT}/ck-${start}/manifest.json" manifest)
  string(JSON recorded ERROR_VARIABLE none_recorded GET "${manifest}" timed_start)
  string(JSON placed ERROR_VARIABLE none_placed GET "${manifest}" timed_start_pages)
  if(start STREQUAL "none" AND NOT recorded MATCHES "NOTFOUND$")
    message(FATAL_ERROR "a pass without a timed start records one: ${recorded}")
  elseif(NOT start STREQUAL "none" AND (NOT recorded EQUAL start OR NOT placed GREATER 8000))
    message(FATAL_ERROR "the manifest records a timed start of ${recorded} placing ${placed} pages")
  endif()
  starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck-${start}" --warmup 5000 --instructions 10000
           --jobs 2 --common-span --warm-tlbs --warm-llcs --json)
  string(JSON sampled_${start} GET "${out}" ipc)
endforeach()

# The continuous run over the stretch the units stand for: from the first unit's multiple of
# `every` to one past the last's (sharing has no initialisation).
units_stretch("${manifest}" ${every} from span)
starnuma(0 run "${PLATFORM}" --workload sharing ${sets} --placement first-touch --warmup ${from} --instructions ${span}
         --common-span --no-progress --json)
string(JSON continuous GET "${out}" ipc)

# A fraction below 1 (an IPC of JSON's plain notation) in millionths: math() takes integers.
function(millionths value out)
  if(NOT value MATCHES "^0\\.([0-9]+)$")
    message(FATAL_ERROR "an IPC of ${value}: expected 0.x")
  endif()
  string(SUBSTRING "${CMAKE_MATCH_1}000000" 0 6 digits)
  math(EXPR n "1${digits} - 1000000")
  set(${out} ${n} PARENT_SCOPE)
endfunction()
millionths(${sampled_none} lockstep)
millionths(${sampled_20000} timed)
millionths(${continuous} truth)
math(EXPR lockstep_permille "1000 * ${lockstep} / ${truth}")
math(EXPR timed_permille "1000 * ${timed} / ${truth}")
message(STATUS "units' IPC ${sampled_none} without a timed start (${lockstep_permille} permille of the continuous "
               "run's), ${sampled_20000} with (${timed_permille}); continuous ${continuous}")
if(NOT lockstep_permille GREATER 1150)
  message(FATAL_ERROR "without a timed start the units ran ${lockstep_permille} permille of the continuous run's "
                      "IPC: the artefact this test shows is gone (update the test and docs/sampling.md)")
endif()
if(timed_permille LESS 920 OR timed_permille GREATER 1080)
  message(FATAL_ERROR "with a timed start the units ran ${timed_permille} permille of the continuous run's IPC, "
                      "more than 8 % off")
endif()

# From a recording (checkpoint --trace-in) the timed start reads the same streams: the same
# checkpoints, byte for byte.
set(small sharing:pages=2048)
set(pass --set os.phase_instructions=50000 --checkpoints 2 --timed-start 10000 --no-progress)
starnuma(0 trace record "${PLATFORM}" --workload ${small} --seed 3 --instructions 150000 --out "${OUT}/small.snt")
starnuma(0 checkpoint "${PLATFORM}" --workload ${small} --seed 3 ${pass} --out "${OUT}/small-live")
starnuma(0 checkpoint "${PLATFORM}" --trace-in "${OUT}/small.snt" ${pass} --out "${OUT}/small-recorded")
foreach(k 1 2)
  file(SHA256 "${OUT}/small-live/checkpoint-${k}.ckpt" a)
  file(SHA256 "${OUT}/small-recorded/checkpoint-${k}.ckpt" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "checkpoint-${k}: the timed start from the recording placed pages elsewhere")
  endif()
endforeach()
starnuma(1 checkpoint "${PLATFORM}" --workload ${small} --timed-start 10000 --streams-only)
if(NOT err MATCHES "--timed-start and --streams-only: the benchmark times the streams alone")
  message(FATAL_ERROR "--timed-start with --streams-only: ${err}")
endif()
starnuma(1 checkpoint "${PLATFORM}" --workload sharing:pages=2048,operations=1000 --timed-start 100000
         --checkpoints 1 --out "${OUT}/too-long")
if(NOT err MATCHES "checkpoint --timed-start 100000: the workload ends first \\(64 threads ended early\\)"
   OR EXISTS "${OUT}/too-long")
  message(FATAL_ERROR "a timed start longer than the workload: ${err}")
endif()
# The default timed start (50 K) is refused the same way, saying how to do without it.
starnuma(1 checkpoint "${PLATFORM}" --workload sharing:pages=2048,operations=1000 --checkpoints 1
         --out "${OUT}/too-long")
if(NOT err MATCHES "checkpoint --timed-start 50000: the workload ends first .*--timed-start 0")
  message(FATAL_ERROR "the default timed start longer than the workload: ${err}")
endif()
