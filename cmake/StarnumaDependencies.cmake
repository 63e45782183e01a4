# Every dependency is a Debian 12 package (see tools/setup.sh for the list).
find_package(PkgConfig REQUIRED)
# Debian ships no CMake package for SystemC, only a pkg-config file.
pkg_check_modules(SystemC REQUIRED IMPORTED_TARGET systemc>=2.3.4)
# ChampSim traces come xz-compressed (liblzma-dev).
pkg_check_modules(liblzma REQUIRED IMPORTED_TARGET liblzma)
# CRC-32 of traces, checkpoints and cached graphs: zlib's, the fastest the packages offer (zlib1g-dev).
find_package(ZLIB REQUIRED)

find_package(yaml-cpp REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)

# The RTL islands (rtl/) are compiled by Verilator; the build needs it even before any RTL exists,
# so a machine without it fails here, at configure time, with a message saying what to install.
find_package(verilator HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)
if(NOT verilator_FOUND)
  message(FATAL_ERROR
    "Verilator was not found. Install it with 'apt-get install verilator' (Debian 12 ships 5.006) "
    "or point VERILATOR_ROOT at an installation.")
endif()
if(verilator_VERSION VERSION_LESS 5.006)
  message(FATAL_ERROR "Verilator ${verilator_VERSION} is too old: starnuma needs 5.006 or newer.")
endif()
message(STATUS "Verilator ${verilator_VERSION}, SystemC ${SystemC_VERSION}")

if(STARNUMA_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
