// Reads starnuma's own trace format. Opening a trace checks its header and scans the block headers
// (not the payloads) into a per-thread index of block offsets, then checks the end record. Each
// thread's stream then reads its own blocks one at a time by offset, verifying each block's
// checksum as it loads it: memory stays at one block per stream whatever the file's size.
// Every problem is a starnuma/input error "FILE: offset N: ...".
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "stimulus/stream.hpp"
#include "stimulus/trace/binary_io.hpp"
#include "stimulus/trace/trace_format.hpp"

namespace starnuma::trace {

// An opened, indexed trace file, shared by the streams that read it.
class TraceFile {
 public:
  static std::shared_ptr<const TraceFile> open(const std::string& path);

  const std::string& path() const { return file_.path(); }
  const TraceHeader& header() const { return header_; }
  const InputFile& file() const { return file_; }
  const std::vector<uint64_t>& blocks(unsigned thread) const { return blocks_[thread]; }
  // Ops in each of those blocks (from their headers), so a stream can pass blocks unread.
  const std::vector<uint32_t>& block_ops(unsigned thread) const { return block_ops_[thread]; }
  uint64_t ops(unsigned thread) const { return ops_[thread]; }
  // The thread's stream ended where its recording ends (rather than at the recording's budget).
  bool stream_ended(unsigned thread) const { return stream_ended_[thread]; }
  // Bytes the scan read: headers only, not payloads.
  uint64_t scanned_bytes() const { return scanned_bytes_; }

 private:
  explicit TraceFile(const std::string& path) : file_(path) {}
  void read_header();
  void scan_blocks();
  void read_end_record(uint64_t offset);

  InputFile file_;
  TraceHeader header_;
  uint64_t data_offset_ = 0;  // the first block
  std::vector<std::vector<uint64_t>> blocks_;
  std::vector<std::vector<uint32_t>> block_ops_;
  std::vector<uint64_t> ops_;
  std::vector<bool> stream_ended_;
  uint64_t scanned_bytes_ = 0;
};

// One thread's recorded stream.
class TraceStream : public ThreadStream {
 public:
  // Asked for an op beyond a recording that stopped at its budget: Raise a starnuma/input error
  // naming the file and thread, or Stop (fill returns 0, past_recording() says why).
  enum class PastEnd { Raise, Stop };
  TraceStream(std::shared_ptr<const TraceFile> file, unsigned thread, PastEnd past_end = PastEnd::Raise);
  size_t fill(StreamOp* out, size_t max) override;
  // Every op recorded was read, and the recording stopped at its budget rather than where the
  // stream itself ended.
  bool past_recording() const {
    return ops_left_ == 0 && next_block_ == file_->blocks(thread_).size() && !file_->stream_ended(thread_);
  }
  // Passes whole blocks by their op counts, unread (their checksums unchecked: nothing of them is
  // delivered), and decodes only the block it stops in.
  uint64_t skip(uint64_t n) override;
  // Ops delivered or passed over so far, and payload bytes read from the file so far.
  uint64_t delivered() const { return delivered_; }
  uint64_t bytes_read() const { return bytes_read_; }
  size_t buffer_capacity() const { return payload_.capacity(); }

 private:
  void load_block();
  uint32_t decode(StreamOp* out, uint32_t count);
  [[noreturn]] void corrupt(const uint8_t* at, const std::string& what) const;

  std::shared_ptr<const TraceFile> file_;
  unsigned thread_;
  PastEnd past_end_;
  size_t next_block_ = 0;
  std::vector<uint8_t> payload_;
  uint64_t payload_offset_ = 0;  // file offset of payload_[0]
  const uint8_t* cursor_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint32_t ops_left_ = 0;  // in the current block
  uint64_t previous_address_ = 0;
  uint32_t previous_instructions_ = 0;
  uint64_t delivered_ = 0, bytes_read_ = 0;
};

// Calls `each` for every load and store thread `thread` recorded, in order (barriers left out);
// with `from_measurement`, only those after the barrier that starts measurement, when the workload
// has one (its initialisation is left out). Returns the ops left out before that barrier.
uint64_t for_each_recorded_access(const std::shared_ptr<const TraceFile>& file, unsigned thread, bool from_measurement,
                                  const std::function<void(const StreamOp&)>& each);

// The workload a trace holds.
class TraceWorkload : public Workload {
 public:
  explicit TraceWorkload(std::shared_ptr<const TraceFile> file) : file_(std::move(file)) {}
  unsigned threads() const override { return file_->header().threads; }
  uint64_t footprint() const override { return file_->header().footprint; }
  bool initialises() const override { return file_->header().initialises; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override {
    return std::make_unique<TraceStream>(file_, thread);
  }
  const TraceFile& file() const { return *file_; }

 private:
  std::shared_ptr<const TraceFile> file_;
};

// What `starnuma trace info` shows of one thread; filled by reading (and so checksumming) every block.
struct ThreadSummary {
  uint64_t blocks = 0, ops = 0, loads = 0, stores = 0, barriers = 0, dependent = 0, instructions = 0;
  uint64_t payload_bytes = 0;  // block headers and payloads read
  bool stream_ended = false;
};
std::vector<ThreadSummary> verify_trace(const std::shared_ptr<const TraceFile>& file);

}  // namespace starnuma::trace
