#include "common/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <unistd.h>

#include "common/diagnostics.hpp"
#include "common/interrupt_cleanup.hpp"

namespace starnuma {

void check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    report_error(msg::kInput, path + ": exists and is not a regular file (a " +
                                  (fs::is_directory(st) ? "folder"
                                   : fs::is_symlink(st) ? "symbolic link"
                                                        : "device or pipe") +
                                  "); not replacing it");
  // The folders still to create hang from the nearest one that exists: it must be a folder we may
  // write in. Nothing is created here (a refused command leaves nothing).
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  while (!fs::exists(dir, ec) && dir.has_parent_path() && dir.parent_path() != dir) dir = dir.parent_path();
  if (!fs::exists(dir, ec)) dir = ".";
  if (!fs::is_directory(dir, ec))
    report_error(msg::kInput, "cannot write " + path + ": " + dir.string() + " is not a folder");
  if (::access(dir.c_str(), W_OK) != 0)
    report_error(msg::kInput, "cannot write " + path + ": " + dir.string() + ": " + std::strerror(errno));
}

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  check_output_path(path);
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) report_error(msg::kInput, "cannot create the folder of " + path + ": " + ec.message());
  const fs::path tmp = target.string() + ".tmp" + std::to_string(getpid());
  const TemporaryFileGuard guard(tmp.string());
  {
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < content.size();) {
      const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      ok = n > 0;
      if (ok) done += static_cast<size_t>(n);
    }
    ok = ok && ::fsync(fd) == 0;
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    if (!ok) {
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

StagedFile::StagedFile(std::string path) : path_(std::move(path)) {
  check_output_path(path_);
  std::error_code ec;
  const std::filesystem::path target(path_);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) report_error(msg::kInput, "cannot create the folder of " + path_ + ": " + ec.message());
  temporary_ = path_ + ".tmp" + std::to_string(getpid());
  guard_ = std::make_unique<TemporaryFileGuard>(temporary_);
  file_ = std::fopen(temporary_.c_str(), "wb");
  if (!file_) report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
}

StagedFile::~StagedFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void StagedFile::write(const void* data, size_t size) {
  if (std::fwrite(data, 1, size, file_) != size)
    report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
}

void StagedFile::commit() {
  const bool ok = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  const int error = errno;
  std::fclose(file_);
  file_ = nullptr;
  if (!ok) report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(error));
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

OutputFolder::OutputFolder(const std::string& out, const std::string& marker) : out_(out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(out_, ec);
  if (fs::exists(st) &&
      (!fs::is_directory(st) || (!fs::is_empty(out_, ec) && !fs::exists(fs::path(out_) / marker, ec))))
    report_error(msg::kUsage, "--out " + out_ + ": exists and is not a folder this command wrote (no " + marker +
                                  "); not replacing it");
  partial_ = out_ + ".partial-" + std::to_string(getpid());
  guard_ = std::make_unique<TemporaryFileGuard>(partial_);
  fs::remove_all(partial_, ec);
  fs::create_directories(partial_, ec);
  if (ec || ::access(partial_.c_str(), W_OK) != 0)
    report_error(msg::kInput, "cannot create " + partial_ + (ec ? ": " + ec.message() : std::string()));
}

OutputFolder::~OutputFolder() {
  std::error_code ec;
  if (!committed_) std::filesystem::remove_all(partial_, ec);
}

std::string OutputFolder::file(const std::string& name) const {
  return (std::filesystem::path(partial_) / name).string();
}

void OutputFolder::commit() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string old = out_ + ".old-" + std::to_string(getpid());
  const bool existed = fs::exists(out_, ec);
  if (existed) fs::rename(out_, old, ec);
  if (!ec) fs::rename(partial_, out_, ec);
  if (ec) report_error(msg::kInput, "cannot write " + out_ + ": " + ec.message());
  if (existed) fs::remove_all(old, ec);
  committed_ = true;
  guard_.reset();
}

}  // namespace starnuma
