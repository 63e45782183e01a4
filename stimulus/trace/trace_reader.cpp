#include "stimulus/trace/trace_reader.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma::trace {

std::shared_ptr<const TraceFile> TraceFile::open(const std::string& path) {
  std::shared_ptr<TraceFile> f(new TraceFile(path));
  f->read_header();
  f->scan_blocks();
  return f;
}

void TraceFile::read_header() {
  uint8_t h[kHeaderFixedBytes];
  const size_t got = file_.read_at(0, h, sizeof kMagic);
  if (got < sizeof kMagic || std::memcmp(h, kMagic, sizeof kMagic) != 0) {
    if (got < sizeof kMagic && std::memcmp(h, kMagic, got) == 0)
      file_.fail(got, "truncated header (the file ends inside the magic number)");
    file_.fail(0, "not a starnuma trace (bad magic number)");
  }
  file_.read_exact(8, h + 8, 4, "header");
  header_.version = get_u32(h + 8);
  if (header_.version != kFormatVersion)
    file_.fail(8, "trace format version " + std::to_string(header_.version) + "; this starnuma reads version " +
                      std::to_string(kFormatVersion) + " only (record the trace again)");
  file_.read_exact(12, h + 12, kHeaderFixedBytes - 12, "header");
  header_.threads = get_u32(h + kThreadsOffset);
  header_.seed = get_u64(h + 16);
  header_.footprint = get_u64(h + 24);
  header_.instructions = get_u64(h + 32);
  const uint32_t flags = get_u32(h + 40);
  const uint32_t description = get_u32(h + 44);
  if (header_.threads == 0 || header_.threads > kMaxThreads)
    file_.fail(kThreadsOffset, "bad header: " + std::to_string(header_.threads) + " threads");
  if (flags & ~kFlagInitialises) file_.fail(40, "bad header: unknown flags " + hex(flags));
  if (description > kMaxDescriptionBytes)
    file_.fail(44, "bad header: a workload description of " + std::to_string(description) + " bytes");
  header_.initialises = flags & kFlagInitialises;
  std::vector<uint8_t> rest(description + 4);
  file_.read_exact(kHeaderFixedBytes, rest.data(), rest.size(), "header");
  header_.workload.assign(reinterpret_cast<const char*>(rest.data()), description);
  const uint32_t crc = crc32(rest.data(), description, crc32(h, sizeof h));
  if (crc != get_u32(&rest[description]))
    file_.fail(kHeaderFixedBytes + description, "header checksum mismatch (the header is damaged)");
  data_offset_ = kHeaderFixedBytes + rest.size();
  scanned_bytes_ = data_offset_;
}

void TraceFile::scan_blocks() {
  const unsigned threads = header_.threads;
  blocks_.assign(threads, {});
  block_ops_.assign(threads, {});
  ops_.assign(threads, 0);
  uint64_t offset = data_offset_;
  for (;;) {
    uint8_t h[kBlockHeaderBytes];
    const size_t got = file_.read_at(offset, h, 4);
    if (got == 0) file_.fail(offset, "the file ends without its end record (truncated?)");
    if (got < 4) file_.fail(offset, "truncated block header");
    const uint32_t tag = get_u32(h);
    if (tag == kEndTag) {
      read_end_record(offset);
      return;
    }
    if (tag != kBlockTag) file_.fail(offset, "expected a block, found " + hex(tag) + " (the file is damaged)");
    file_.read_exact(offset + 4, h + 4, kBlockHeaderBytes - 4, "block header");
    scanned_bytes_ += kBlockHeaderBytes;
    const uint32_t thread = get_u32(h + 4), ops = get_u32(h + 8), payload = get_u32(h + 12);
    if (thread >= threads)
      file_.fail(offset + 4, "a block of thread " + std::to_string(thread) + " in a trace of " +
                                 std::to_string(threads) + " threads");
    if (payload > kMaxPayloadBytes) file_.fail(offset + 12, "a block payload of " + std::to_string(payload) + " bytes");
    if (ops == 0 || ops > payload)
      file_.fail(offset + 8, "a block of " + std::to_string(ops) + " ops in " + std::to_string(payload) + " bytes");
    if (offset + kBlockHeaderBytes + payload > file_.size())
      file_.fail(file_.size(), "truncated block: the block at offset " + std::to_string(offset) + " needs " +
                                   std::to_string(kBlockHeaderBytes + payload) + " bytes, the file ends after " +
                                   std::to_string(file_.size() - offset));
    blocks_[thread].push_back(offset);
    block_ops_[thread].push_back(ops);
    ops_[thread] += ops;
    offset += kBlockHeaderBytes + payload;
  }
}

void TraceFile::read_end_record(uint64_t offset) {
  const unsigned threads = header_.threads;
  std::vector<uint8_t> end(8 + 9 * static_cast<size_t>(threads) + 4);
  file_.read_exact(offset, end.data(), end.size(), "end record");
  scanned_bytes_ += end.size();
  if (get_u32(&end[4]) != threads)
    file_.fail(offset + 4, "the end record is for " + std::to_string(get_u32(&end[4])) + " threads, the header says " +
                               std::to_string(threads));
  if (crc32(&end[4], end.size() - 8) != get_u32(&end[end.size() - 4]))
    file_.fail(offset, "end record checksum mismatch (the end record is damaged)");
  stream_ended_.assign(threads, false);
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t recorded = get_u64(&end[8 + 9 * t]);
    const uint8_t ended = end[8 + 9 * t + 8];
    if (recorded != ops_[t])
      file_.fail(offset + 8 + 9 * t, "thread " + std::to_string(t) + ": the end record counts " +
                                         std::to_string(recorded) + " ops, its blocks hold " + std::to_string(ops_[t]) +
                                         " (blocks are missing)");
    if (ended > 1) file_.fail(offset + 16 + 9 * t, "bad end record");
    stream_ended_[t] = ended == 1;
  }
  const uint64_t after = offset + end.size();
  if (after != file_.size())
    file_.fail(after, std::to_string(file_.size() - after) + " bytes of unexpected data after the end record");
}

TraceStream::TraceStream(std::shared_ptr<const TraceFile> file, unsigned thread, PastEnd past_end)
    : file_(std::move(file)), thread_(thread), past_end_(past_end) {
  if (thread >= file_->header().threads) report_internal("trace thread " + std::to_string(thread) + " out of range");
}

void TraceStream::corrupt(const uint8_t* at, const std::string& what) const {
  file_->file().fail(payload_offset_ + static_cast<uint64_t>(at - payload_.data()),
                     "thread " + std::to_string(thread_) + ": " + what);
}

void TraceStream::load_block() {
  const uint64_t offset = file_->blocks(thread_)[next_block_++];
  const InputFile& in = file_->file();
  uint8_t h[kBlockHeaderBytes];
  in.read_exact(offset, h, sizeof h, "block header");
  const uint32_t payload = get_u32(h + 12);
  // The scan checked these fields; a file changed since then is caught here or by the checksum.
  if (get_u32(h) != kBlockTag || get_u32(h + 4) != thread_ || payload > kMaxPayloadBytes)
    in.fail(offset, "the block changed since the trace was opened");
  payload_.resize(payload);
  in.read_exact(offset + kBlockHeaderBytes, payload_.data(), payload, "block");
  bytes_read_ += kBlockHeaderBytes + payload;
  if (crc32(payload_.data(), payload, crc32(h + 4, 12)) != get_u32(h + 16))
    in.fail(offset, "block checksum mismatch (thread " + std::to_string(thread_) + ", " + std::to_string(payload) +
                        " bytes of payload at offset " + std::to_string(offset + kBlockHeaderBytes) +
                        "): the file is damaged");
  payload_offset_ = offset + kBlockHeaderBytes;
  cursor_ = payload_.data();
  end_ = cursor_ + payload;
  ops_left_ = get_u32(h + 8);
  previous_address_ = 0;
  previous_instructions_ = 0;
}

size_t TraceStream::fill(StreamOp* out, size_t max) {
  size_t n = 0;
  while (n < max) {
    if (ops_left_ == 0) {
      if (next_block_ == file_->blocks(thread_).size()) {
        // Only a request for one more op (n == 0) means the run needs what was not recorded.
        if (n == 0 && !file_->stream_ended(thread_) && past_end_ == PastEnd::Raise)
          report_error(msg::kInput, file_->path() + ": thread " + std::to_string(thread_) +
                                        ": the run reads past the " + std::to_string(file_->ops(thread_)) +
                                        " ops recorded (the trace was recorded for " +
                                        std::to_string(file_->header().instructions) +
                                        " instructions per thread; record it with at least the run's --instructions)");
        break;
      }
      load_block();
    }
    n += decode(out + n, static_cast<uint32_t>(std::min<size_t>(max - n, ops_left_)));
  }
  delivered_ += n;
  return n;
}

// The next `count` ops of the current block (it holds at least that many). The decoder's state is
// kept in locals: `out` may alias nothing of ours, but the compiler cannot know.
uint32_t TraceStream::decode(StreamOp* out, uint32_t count) {
  const uint8_t* p = cursor_;
  const uint8_t* const end = end_;
  uint64_t address = previous_address_;
  uint32_t instructions = previous_instructions_;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* at = p;
    if (p == end) corrupt(at, "the block's payload ends before its last op");
    const uint8_t tag = *p++;
    const unsigned kind = tag & kTagKindMask;
    if (kind > 2 || (tag & kTagReserved)) corrupt(at, "bad op tag " + hex(tag));
    uint64_t v = instructions;
    if (!(tag & kTagSameInstructions)) {
      if (p < end && *p < 0x80) v = *p++;  // most counts are one byte
      else if (!get_varint(p, end, v) || v > UINT32_MAX) corrupt(at, "bad instruction count");
    }
    instructions = static_cast<uint32_t>(v);
    if (!get_varint(p, end, v)) corrupt(at, "bad address");
    StreamOp& op = out[i];
    op.kind = static_cast<StreamOp::Kind>(kind);
    op.dependent = tag & kTagDependent;
    op.starts_measurement = tag & kTagStartsMeasurement;
    op.instructions = instructions;
    if (op.kind == StreamOp::Kind::Barrier) {
      op.address = v;
    } else {
      address += static_cast<uint64_t>(unzigzag(v));
      op.address = address;
    }
  }
  cursor_ = p;
  previous_address_ = address;
  previous_instructions_ = instructions;
  ops_left_ -= count;
  if (ops_left_ == 0 && cursor_ != end_) corrupt(cursor_, "bytes left over after the block's last op");
  return count;
}

uint64_t TraceStream::skip(uint64_t n) {
  uint64_t passed = 0, unread = 0;
  const std::vector<uint32_t>& counts = file_->block_ops(thread_);
  StreamOp dropped[256];
  while (passed < n) {
    if (ops_left_ == 0 && next_block_ < counts.size() && counts[next_block_] <= n - passed) {
      unread += counts[next_block_];
      passed += counts[next_block_++];
      continue;
    }
    const size_t got = fill(dropped, static_cast<size_t>(std::min<uint64_t>(n - passed, std::size(dropped))));
    if (got == 0) break;
    passed += got;  // fill counts these as delivered
  }
  delivered_ += unread;
  return passed;
}

std::vector<ThreadSummary> verify_trace(const std::shared_ptr<const TraceFile>& file) {
  std::vector<ThreadSummary> summary(file->header().threads);
  StreamOp batch[256];
  for (unsigned t = 0; t < summary.size(); ++t) {
    ThreadSummary& s = summary[t];
    s.blocks = file->blocks(t).size();
    s.stream_ended = file->stream_ended(t);
    TraceStream stream(file, t);
    while (s.ops < file->ops(t)) {
      const size_t n = stream.fill(batch, std::min<uint64_t>(std::size(batch), file->ops(t) - s.ops));
      for (size_t i = 0; i < n; ++i) {
        const StreamOp& op = batch[i];
        s.loads += op.kind == StreamOp::Kind::Load;
        s.stores += op.kind == StreamOp::Kind::Store;
        s.barriers += op.kind == StreamOp::Kind::Barrier;
        s.dependent += op.dependent;
        if (op.kind != StreamOp::Kind::Barrier) s.instructions += op.instructions + 1;  // as a core counts
      }
      s.ops += n;
    }
    s.payload_bytes = stream.bytes_read();
  }
  return summary;
}

uint64_t for_each_recorded_access(const std::shared_ptr<const TraceFile>& file, unsigned thread, bool from_measurement,
                                  const std::function<void(const StreamOp&)>& each) {
  TraceStream stream(file, thread);
  bool measuring = !(from_measurement && file->header().initialises);
  uint64_t skipped = 0, left = file->ops(thread);  // the recording's ops, not beyond
  StreamOp batch[256];
  while (left > 0) {
    const size_t n = stream.fill(batch, static_cast<size_t>(std::min<uint64_t>(left, std::size(batch))));
    if (n == 0) break;
    left -= n;
    for (size_t i = 0; i < n; ++i) {
      const StreamOp& op = batch[i];
      if (!measuring) {
        measuring = op.kind == StreamOp::Kind::Barrier && op.starts_measurement;
        ++skipped;
      } else if (op.kind != StreamOp::Kind::Barrier) {
        each(op);
      }
    }
  }
  return skipped;
}

}  // namespace starnuma::trace
