// Where the report scripts are (tools/report), for `report` and `mlc --plot`.
#pragma once

#include <string>

namespace starnuma::cli {

// A script of tools/report (`report.py`, `plot_mlc.py`): beside STARNUMA_REPORT_SCRIPT if it is set,
// else installed beside this starnuma (PREFIX/share/starnuma/report, cmake --install), else in the
// source tree it was built from. A starnuma/usage error when there is none.
std::string report_script(const std::string& name);

}  // namespace starnuma::cli
