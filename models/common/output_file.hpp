// Result files are written whole or not at all: to a temporary file beside the target, then
// renamed over it, so an interrupted or failed run never leaves half a file behind.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

#include "common/interrupt_cleanup.hpp"

namespace starnuma {

// Creates the directory if needed; raises a starnuma/input error naming the path on failure. The
// data reaches the disk (fsync) before the rename makes it visible.
void write_file_atomically(const std::string& path, const std::string& content);

// Raises a starnuma/input error if `path` exists as anything but a regular file (a device, a pipe,
// a symbolic link, a folder: never replaced) or if its folder cannot be created or written. Commands
// call it before simulating, so a wrong output costs no run.
void check_output_path(const std::string& path);

// A file written in pieces, whole or not at all: into a temporary file beside `path` (its folders
// made), moved into place by commit() once on disk; without commit() (an error, an interrupt) the
// temporary file goes. Every failure is a starnuma/input error naming `path`.
class StagedFile {
 public:
  explicit StagedFile(std::string path);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  void write(const void* data, size_t size);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, temporary_;
  std::unique_ptr<TemporaryFileGuard> guard_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// A command's output folder, built beside its place (OUT.partial-PID) and renamed over it by
// commit(): a failed or interrupted command leaves no half folder, and an existing folder is only
// replaced when it holds `marker` (the file this command writes last), so a folder of other files
// is never clobbered.
class OutputFolder {
 public:
  OutputFolder(const std::string& out, const std::string& marker);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  // Where a file or subfolder of the output goes until commit().
  std::string file(const std::string& name) const;
  void commit();

 private:
  std::string out_, partial_;
  bool committed_ = false;
  std::unique_ptr<TemporaryFileGuard> guard_;  // the partial folder goes if we are interrupted
};

}  // namespace starnuma
