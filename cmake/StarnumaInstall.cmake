# `cmake --install BUILD [--prefix P]`: the simulator, its platforms and report scripts, and the
# plug-in SDK (docs/plugins.md, "Building one"):
#   bin/starnuma
#   share/starnuma/{platforms,report,examples}
#   include/starnuma/plugin/plugin_api.hpp
#   lib/cmake/starnuma/ (find_package(starnuma)) and lib/pkgconfig/starnuma-plugin.pc
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STARNUMA_DATA_DIR ${CMAKE_INSTALL_DATADIR}/starnuma)
set(STARNUMA_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR}/starnuma)
set(STARNUMA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/starnuma)
set(STARNUMA_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# The plug-in API's version, read from the header that defines it.
file(STRINGS ${PROJECT_SOURCE_DIR}/models/plugin/plugin_api.hpp api_line REGEX "^#define STARNUMA_PLUGIN_API_VERSION ")
string(REGEX REPLACE "^#define STARNUMA_PLUGIN_API_VERSION ([0-9]+).*" "\\1" STARNUMA_PLUGIN_API_VERSION "${api_line}")

install(TARGETS starnuma RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/platforms/ DESTINATION ${STARNUMA_DATA_DIR}/platforms)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/report/ DESTINATION ${STARNUMA_DATA_DIR}/report
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/models/plugin/plugin_api.hpp DESTINATION ${STARNUMA_INCLUDE_DIR}/plugin)
# The example plug-ins' sources, and a project that builds one against the installed package.
foreach(example pool_device switch traffic_generator)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/${example}/ DESTINATION ${STARNUMA_DATA_DIR}/examples/${example}
          FILES_MATCHING PATTERN "*.cpp" PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/examples/sdk/CMakeLists.txt DESTINATION ${STARNUMA_DATA_DIR}/examples/sdk)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/starnumaConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/sdk/starnumaConfig.cmake
                              INSTALL_DESTINATION ${STARNUMA_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR STARNUMA_DATA_DIR STARNUMA_INCLUDE_DIR)
# Before 1.0 a minor version may break the plug-in API (which its own version then says).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sdk/starnumaConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sdk/starnumaConfig.cmake ${PROJECT_BINARY_DIR}/sdk/starnumaConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/StarnumaPlugin.cmake
        DESTINATION ${STARNUMA_CMAKE_DIR})
# The .pc file finds its prefix from where it is installed, so the tree can move.
file(RELATIVE_PATH STARNUMA_PC_TO_PREFIX /prefix/${STARNUMA_PKGCONFIG_DIR} /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/starnuma-plugin.pc.in ${PROJECT_BINARY_DIR}/sdk/starnuma-plugin.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sdk/starnuma-plugin.pc DESTINATION ${STARNUMA_PKGCONFIG_DIR})
