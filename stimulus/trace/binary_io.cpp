#include "stimulus/trace/binary_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <zlib.h>

#include "common/diagnostics.hpp"

namespace starnuma::trace {

// zlib's CRC-32 (braided, about 7 GB/s on the developers' host against liblzma's 2.5 and 0.5 a
// byte at a time): traces, checkpoints and cached graphs are checked whole as they are read.
uint32_t crc32(const void* data, size_t size, uint32_t crc) {
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), size));
}

void fail_at(const std::string& path, uint64_t offset, const std::string& message) {
  report_error(msg::kInput, path + ": offset " + std::to_string(offset) + ": " + message);
}

InputFile::InputFile(std::string path) : path_(std::move(path)) {
  // Non-blocking: opening a FIFO must not wait for a writer (it is refused below).
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) report_error(msg::kInput, path_ + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    report_error(msg::kInput, path_ + ": not a regular file");
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

size_t InputFile::read_at(uint64_t offset, void* out, size_t n) const {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd_, static_cast<char*>(out) + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(offset + got, std::string("read error: ") + std::strerror(errno));
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

void InputFile::read_exact(uint64_t offset, void* out, size_t n, const char* what) const {
  const size_t got = read_at(offset, out, n);
  if (got < n)
    fail(offset + got, std::string("truncated ") + what + " (the file ends " + std::to_string(got) +
                           " bytes into the " + std::to_string(n) + " read from offset " + std::to_string(offset) +
                           ")");
}

void InputFile::fail(uint64_t offset, const std::string& message) const { fail_at(path_, offset, message); }

}  // namespace starnuma::trace
