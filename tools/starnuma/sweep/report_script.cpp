#include "sweep/report_script.hpp"

#include <cstdlib>
#include <filesystem>

#include "common/diagnostics.hpp"

namespace starnuma::cli {

std::string report_script(const std::string& name) {
  namespace fs = std::filesystem;
  const char* given = std::getenv("STARNUMA_REPORT_SCRIPT");
  std::error_code ec;
  const fs::path installed = fs::read_symlink("/proc/self/exe", ec).parent_path() / "../share/starnuma/report" / name;
  const std::string script = given ? (fs::path(given).parent_path() / name).string()
                             : !ec && fs::is_regular_file(installed)
                                 ? installed.lexically_normal().string()
                                 : std::string(STARNUMA_SOURCE_DIR) + "/tools/report/" + name;
  if (!fs::is_regular_file(script))
    report_error(msg::kUsage,
                 "no " + script + " (set STARNUMA_REPORT_SCRIPT to tools/report/report.py of a starnuma source tree)");
  return script;
}

}  // namespace starnuma::cli
