#include "stimulus/trace/trace_writer.hpp"

#include <cstring>

#include "common/diagnostics.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma::trace {

TraceWriter::TraceWriter(std::string path, TraceHeader header)
    : path_(std::move(path)), header_(std::move(header)), threads_(header_.threads) {
  if (header_.threads == 0 || header_.threads > kMaxThreads)
    report_error(msg::kInput, path_ + ": a trace holds 1 to " + std::to_string(kMaxThreads) + " threads, not " +
                                  std::to_string(header_.threads));
  if (header_.workload.size() > kMaxDescriptionBytes)
    report_error(msg::kInput, path_ + ": the workload description is longer than " +
                                  std::to_string(kMaxDescriptionBytes) + " bytes");
  file_ = std::make_unique<StagedFile>(path_);

  std::vector<uint8_t> h(kHeaderFixedBytes + header_.workload.size() + 4);
  std::memcpy(h.data(), kMagic, sizeof kMagic);
  put_u32(&h[8], kFormatVersion);
  put_u32(&h[kThreadsOffset], header_.threads);
  put_u64(&h[16], header_.seed);
  put_u64(&h[24], header_.footprint);
  put_u64(&h[32], header_.instructions);
  put_u32(&h[40], header_.initialises ? kFlagInitialises : 0);
  put_u32(&h[44], static_cast<uint32_t>(header_.workload.size()));
  std::memcpy(&h[kHeaderFixedBytes], header_.workload.data(), header_.workload.size());
  put_u32(&h[h.size() - 4], crc32(h.data(), h.size() - 4));
  write(h.data(), h.size());  // a failure leaves nothing: file_ removes its temporary file
}

void TraceWriter::write(const void* data, size_t size) {
  file_->write(data, size);
  written_ += size;
}

void TraceWriter::append(unsigned thread, const StreamOp& op) {
  ThreadBuffer& t = threads_.at(thread);
  if (t.payload.capacity() == 0) t.payload.reserve(kTargetPayloadBytes + kMaxOpBytes);
  uint8_t bytes[kMaxOpBytes];
  size_t n = 1;
  uint8_t tag = static_cast<uint8_t>(op.kind) | (op.dependent ? kTagDependent : 0) |
                (op.starts_measurement ? kTagStartsMeasurement : 0);
  if (op.instructions == t.previous_instructions) tag |= kTagSameInstructions;
  else n += put_varint(bytes + n, op.instructions);
  t.previous_instructions = op.instructions;
  if (op.kind == StreamOp::Kind::Barrier) {
    n += put_varint(bytes + n, op.address);
  } else {
    n += put_varint(bytes + n, zigzag(static_cast<int64_t>(op.address - t.previous_address)));
    t.previous_address = op.address;
  }
  bytes[0] = tag;
  t.payload.insert(t.payload.end(), bytes, bytes + n);
  ++t.ops;
  ++t.total_ops;
  if (t.payload.size() >= kTargetPayloadBytes) flush_block(thread);
}

void TraceWriter::flush_block(unsigned thread) {
  ThreadBuffer& t = threads_[thread];
  if (t.ops == 0) return;
  uint8_t h[kBlockHeaderBytes];
  put_u32(h, kBlockTag);
  put_u32(h + 4, thread);
  put_u32(h + 8, t.ops);
  put_u32(h + 12, static_cast<uint32_t>(t.payload.size()));
  // The checksum covers the block's fields and its payload, so a damaged count is caught too.
  put_u32(h + 16, crc32(t.payload.data(), t.payload.size(), crc32(h + 4, 12)));
  write(h, sizeof h);
  write(t.payload.data(), t.payload.size());
  t.payload.clear();
  t.ops = 0;
  t.previous_address = 0;
  t.previous_instructions = 0;
}

void TraceWriter::end_thread(unsigned thread, bool stream_ended) {
  flush_block(thread);
  threads_.at(thread).stream_ended = stream_ended;
  std::vector<uint8_t>().swap(threads_[thread].payload);  // release the block buffer
}

void TraceWriter::commit() {
  for (unsigned t = 0; t < threads_.size(); ++t) flush_block(t);
  std::vector<uint8_t> end(8 + 9 * threads_.size() + 4);
  put_u32(&end[0], kEndTag);
  put_u32(&end[4], header_.threads);
  for (size_t t = 0; t < threads_.size(); ++t) {
    put_u64(&end[8 + 9 * t], threads_[t].total_ops);
    end[8 + 9 * t + 8] = threads_[t].stream_ended ? 1 : 0;
  }
  put_u32(&end[end.size() - 4], crc32(&end[4], end.size() - 8));
  write(end.data(), end.size());
  file_->commit();
}

}  // namespace starnuma::trace
