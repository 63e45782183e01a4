#include "stimulus/trace/binary_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "common/diagnostics.hpp"

namespace starnuma::trace {

namespace {

std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

}  // namespace

uint32_t crc32(const void* data, size_t size, uint32_t crc) {
  static const std::array<uint32_t, 256> table = make_crc_table();
  const auto* p = static_cast<const uint8_t*>(data);
  crc = ~crc;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
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
