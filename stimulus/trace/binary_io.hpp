// Byte-level helpers shared by the trace readers and writer: little-endian fields, LEB128 varints,
// CRC-32, a read-only file that reports every problem as "FILE: offset N: ..." (a starnuma/input
// error), so a bad trace never crashes the simulator, and a buffered file of records for writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/output_file.hpp"

namespace starnuma::trace {

// CRC-32 (IEEE 802.3, reflected, as zlib and xz compute it). `crc` chains calls: pass the previous
// result to continue a running checksum.
uint32_t crc32(const void* data, size_t size, uint32_t crc = 0);

inline void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint32_t get_u32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | p[i];
  return v;
}
inline uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

// Unsigned LEB128: 7 bits per byte, low first; at most 10 bytes for 64 bits.
inline size_t put_varint(uint8_t* p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  p[n++] = static_cast<uint8_t>(v);
  return n;
}
// Reads a varint from [*p, end); false if it runs past `end` or is longer than 10 bytes.
inline bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; shift < 70 && p < end; shift += 7) {
    const uint8_t b = *p++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return shift < 63 || (b >> 1) == 0;  // the tenth byte may carry one bit only
  }
  return false;
}
// Signed deltas as unsigned varints: small magnitudes either way stay short.
inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// A file opened for reading by offset (pread), so any number of streams can share it.
class InputFile {
 public:
  explicit InputFile(std::string path);  // raises starnuma/input if it cannot be opened
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  // Reads up to `n` bytes at `offset`; returns how many (fewer only at the end of the file).
  size_t read_at(uint64_t offset, void* out, size_t n) const;
  // Reads exactly `n` bytes or raises "PATH: offset E: truncated WHAT (...)", E where the file ends.
  void read_exact(uint64_t offset, void* out, size_t n, const char* what) const;
  // Raises "PATH: offset O: MESSAGE" as a starnuma/input error.
  [[noreturn]] void fail(uint64_t offset, const std::string& message) const;

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// "PATH: offset O: MESSAGE" as a starnuma/input error.
[[noreturn]] void fail_at(const std::string& path, uint64_t offset, const std::string& message);

// A file of fixed-size records written through a buffer and moved into place by commit()
// (StagedFile: without commit() nothing is left).
class RecordFile {
 public:
  RecordFile(std::string path, size_t buffer_bytes) : file_(std::move(path)), limit_(buffer_bytes) {
    buffer_.reserve(buffer_bytes);
  }
  void append(const uint8_t* record, size_t size) {
    buffer_.insert(buffer_.end(), record, record + size);
    if (buffer_.size() >= limit_) flush();
  }
  void commit() {
    flush();
    file_.commit();
  }
  const std::string& path() const { return file_.path(); }

 private:
  void flush() {
    file_.write(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

  StagedFile file_;
  std::vector<uint8_t> buffer_;
  size_t limit_;
};

}  // namespace starnuma::trace
