#include "stimulus/trace/memtrace.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma::trace {

namespace {
constexpr size_t kMemTraceRecordsPerRead = 4096;  // 64 KiB of file per read
}

MemTraceStream::MemTraceStream(const std::string& path, uint64_t first_count, bool repeat)
    : file_(std::make_unique<InputFile>(path)),
      buffer_(kMemTraceRecordsPerRead * kMemTraceRecordBytes),
      first_count_(first_count),
      repeat_(repeat) {
  const uint64_t size = file_->size();
  if (size % kMemTraceRecordBytes != 0)  // caught before the run starts
    file_->fail(size - size % kMemTraceRecordBytes, "truncated memory-access record (" +
                                                        std::to_string(size % kMemTraceRecordBytes) + " of " +
                                                        std::to_string(kMemTraceRecordBytes) + " bytes)");
}

MemTraceStream::~MemTraceStream() = default;

size_t MemTraceStream::fill(StreamOp* out, size_t max) {
  size_t n = 0;
  while (n < max) {
    if (next(out[n])) {
      ++n;
      continue;
    }
    if (!repeat_) break;
    if (accesses_this_pass_ == 0)
      file_->fail(file_->size(), "no memory accesses in " + std::to_string(records_) + " records: nothing to simulate");
    ++passes_;
    accesses_this_pass_ = 0;
    buffer_offset_ = 0;
    buffered_ = used_ = 0;
    first_ = true;
  }
  return n;
}

bool MemTraceStream::next(StreamOp& op) {
  for (;;) {
    if (used_ == buffered_) {
      buffer_offset_ += buffered_;
      buffered_ = file_->read_at(buffer_offset_, buffer_.data(), buffer_.size());
      used_ = 0;
      if (buffered_ == 0) return false;  // whole records only: the size was checked
    }
    const uint8_t* r = &buffer_[used_];
    const uint64_t offset = buffer_offset_ + used_;
    used_ += kMemTraceRecordBytes;
    ++records_;
    const uint64_t word = get_u64(r), count = get_u64(r + 8);
    // Counts never go back within a thread (the tracer counts its instructions as it goes); the
    // first access of a pass starts them.
    if (!first_ && count < last_count_)
      file_->fail(offset, "instruction count " + std::to_string(count) + " is below the previous record's (" +
                              std::to_string(last_count_) + "): not a memory-access trace, or damaged");
    if (word == kMemTraceMarker) continue;  // a marker: no access, and the gap runs on across it
    if (word & 0xe)
      file_->fail(offset, "address word " + hex(word) +
                              " has bits 1-3 set (the tracer clears the low 4 bits and puts the write flag in bit 0)");
    op = StreamOp{};
    op.kind = word & 1 ? StreamOp::Kind::Store : StreamOp::Kind::Load;
    op.address = word & ~uint64_t{0xf};
    // The first access of a pass is `count - first_count_` instructions into the trace: the
    // instructions before it, as a later access's are those since the previous record's count.
    const uint64_t gap = first_ ? (count > first_count_ ? count - first_count_ : 0)
                                : (count == last_count_ ? 0 : count - last_count_ - 1);
    op.instructions = static_cast<uint32_t>(std::min<uint64_t>(gap, UINT32_MAX));
    first_ = false;
    last_count_ = count;
    ++accesses_this_pass_;
    return true;
  }
}

MemTraceWriter::MemTraceWriter(std::string path, uint64_t first_count)
    : file_(std::move(path), kMemTraceRecordsPerRead * kMemTraceRecordBytes), next_count_(first_count) {}

void MemTraceWriter::append(const StreamOp& op) {
  if (op.kind == StreamOp::Kind::Barrier) return;
  const uint64_t count = next_count_ + op.instructions;
  uint8_t r[kMemTraceRecordBytes];
  put_u64(r, (op.address & ~uint64_t{0xf}) | (op.kind == StreamOp::Kind::Store ? 1 : 0));
  put_u64(r + 8, count);
  file_.append(r, sizeof r);
  next_count_ = count + 1;
  ++records_;
}

void MemTraceWriter::commit() { file_.commit(); }

}  // namespace starnuma::trace
