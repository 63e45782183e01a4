# A sampled run says when its phases are too short for their copies (docs/sampling.md, "Phases too
# short for their copies"): at the copy rate a boundary's window measured, a continuous run would
# not start all the copies its phase decided before the next boundary, while the functional pass
# made them all. tc on the baseline, whose first phase decides a few hundred moves: phases of 10 K
# instructions are too short for them, phases of 100 K are not.
#   -DSTARNUMA=exe -DPLATFORM=yaml -DOUT=folder
file(REMOVE_RECURSE "${OUT}")
include("${CMAKE_CURRENT_LIST_DIR}/starnuma_call.cmake")

foreach(phase 10000 100000)
  set(sets --set os.phase_instructions=${phase})
  # The boundaries' windows alone: they time the copies this projects (units would only add windows).
  # The pass's own first touches and its LLCs not coherent: with either of the defaults' (a timed
  # start homing tc's pages as a timed run does, coherent LLCs counting the invalidations' misses)
  # phase 1 decides about 750 moves, too many for phases of 100 K as well.
  starnuma(0 checkpoint "${PLATFORM}" --workload tc:scale=16 ${sets} --checkpoints 3 --out "${OUT}/ck-${phase}"
           --boundaries-only --timed-start 0 --no-warm-llcs --no-progress)
  starnuma(0 sample "${PLATFORM}" ${sets} --checkpoints "${OUT}/ck-${phase}" --warmup 2000 --instructions 4000
           --jobs 2 --json)
  string(JSON phases LENGTH "${out}" copies_by_next_boundary)
  string(JSON shortfalls GET "${out}" shortfalls)  # tc's threads also drift apart: a shortfall of its own
  if(NOT phases EQUAL 3)
    message(FATAL_ERROR "phases of ${phase}: ${phases} phases' copies projected, expected the 3 boundaries': ${out}")
  endif()
  set(unfinished "")
  foreach(k RANGE 0 2)
    string(JSON to_copy GET "${out}" copies_by_next_boundary ${k} pages_to_copy)
    string(JSON started GET "${out}" copies_by_next_boundary ${k} started_by_next_boundary)
    string(JSON decided GET "${out}" per_window ${k} pages_decided)
    if(NOT to_copy EQUAL decided OR started GREATER to_copy)
      message(FATAL_ERROR "phases of ${phase}, phase ${k}: ${started} of ${to_copy} started, ${decided} decided")
    endif()
    if(started LESS to_copy)
      math(EXPR p "${k} + 1")
      list(APPEND unfinished "phase ${p}: about ${started} of ${to_copy}")
    endif()
  endforeach()
  if(phase EQUAL 10000)
    list(JOIN unfinished ", " named)
    string(JSON shortfall GET "${out}" shortfalls 0)
    if(named STREQUAL "" OR NOT shortfall MATCHES "not start every copy its phase decided before the next boundary \\(${named}\\); the functional pass made them all"
       OR NOT err MATCHES "warning: at the copy rates the boundaries' windows measured")
      message(FATAL_ERROR "phases of 10 K: unfinished '${named}', shortfall '${shortfall}', stderr '${err}'")
    endif()
  elseif(NOT unfinished STREQUAL "" OR shortfalls MATCHES "copy rates" OR err MATCHES "copy rates")
    message(FATAL_ERROR "phases of 100 K: unfinished '${unfinished}', shortfalls ${shortfalls}, stderr '${err}'")
  endif()
endforeach()
