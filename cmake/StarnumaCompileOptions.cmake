# Warnings and sanitizers for the project's own targets (applied through starnuma_options).
add_library(starnuma_options INTERFACE)
target_compile_options(starnuma_options INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
if(STARNUMA_SANITIZE)
  target_compile_options(starnuma_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(starnuma_options INTERFACE -fsanitize=address,undefined)
endif()
