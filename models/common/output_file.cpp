#include "common/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "common/diagnostics.hpp"

namespace starnuma {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) report_error(msg::kInput, "cannot create the folder of " + path + ": " + ec.message());
  const fs::path tmp = target.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      const std::string why = std::strerror(errno);
      fs::remove(tmp, ec);
      report_error(msg::kInput, "cannot write " + path + ": " + why);
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    report_error(msg::kInput, "cannot write " + path + ": " + ec.message());
  }
}

}  // namespace starnuma
