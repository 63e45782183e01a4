# starnuma_add_plugin(NAME SOURCES...): a starnuma plug-in (docs/plugins.md), the MODULE library
# libNAME.so, built against the plug-in API (the target starnuma::plugin_api: plugin_api.hpp and
# SystemC's headers). It links no SystemC: SystemC's symbols and the registration functions
# resolve in the starnuma executable that loads it. Used by this tree's examples and, installed,
# by find_package(starnuma).
function(starnuma_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE starnuma::plugin_api)
  target_compile_features(${name} PRIVATE cxx_std_17)  # libsystemc-dev 2.3.4 is built as C++17
  set_target_properties(${name} PROPERTIES PREFIX "lib")
endfunction()
