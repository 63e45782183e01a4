# Warnings and sanitizers for the project's own targets (applied through starnuma_options).
add_library(starnuma_options INTERFACE)
target_compile_options(starnuma_options INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
if(STARNUMA_SANITIZE)
  # ASan without stack instrumentation (--param=asan-stack=0): SystemC runs each SC_THREAD on a
  # QuickThreads stack that ASan does not know when an exception unwinds it (a user's error raised
  # in a thread), which leaves stale stack poison and false stack-buffer-overflow reports. Heap,
  # global and UBSan checks stay. -O1: the suite's second build and run stay affordable in CI.
  target_compile_options(starnuma_options INTERFACE
    -O1 -fsanitize=address,undefined --param=asan-stack=0 -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(starnuma_options INTERFACE -fsanitize=address,undefined)
endif()
