// The StarNUMA artifact's memory-access traces (its pintool's mtrace_t<T>_<P>.out and
// memtrace_t<T>.out), read as one thread's stream. docs/traces.md, "The StarNUMA artifact's traces".
//
// A file is 16-byte records, two little-endian uint64 each:
//   word 0: the accessed address with its low 4 bits cleared, plus 1 for a write (bit 0);
//   word 1: the thread's instruction count when it made the access (counted from its start).
// A record whose word 0 is 0xC0FFEE is a marker (the tracer writes one every 100 M instructions
// into memtrace files): word 1 is the count there, and it holds no access.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus/stream.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma::trace {

inline constexpr size_t kMemTraceRecordBytes = 16;
inline constexpr uint64_t kMemTraceMarker = 0xc0ffee;

class InputFile;

// Each access is a load or store at its address; the instructions between two accesses are the
// difference of their counts less one (accesses at one count are one instruction's operands: the
// stream contract still counts one instruction per op), and before the first, its count less
// `first_count`, the count the traced stretch starts at: a phase P file's is P x 10^9 (the tracer
// opens phase P's file when the thread's count reaches it), a whole-run file's 0; a first count
// below it gives none. No access is dependent: the trace has no
// registers. At the end of the file the stream starts it again (`repeat`), as the artifact's
// trace-based cores do, so every core runs the whole budget.
class MemTraceStream : public ThreadStream {
 public:
  // Checks the size.
  explicit MemTraceStream(const std::string& path, uint64_t first_count = 0, bool repeat = true);
  ~MemTraceStream() override;
  size_t fill(StreamOp* out, size_t max) override;
  uint64_t records() const { return records_; }  // read so far, markers included, over every pass
  uint64_t passes() const { return passes_; }
  size_t buffer_bytes() const { return buffer_.capacity(); }  // bounded whatever the file's size

 private:
  bool next(StreamOp& op);  // the next access of this pass; false at the end of the file

  std::unique_ptr<InputFile> file_;
  std::vector<uint8_t> buffer_;  // a batch of whole records
  uint64_t buffer_offset_ = 0;   // file offset of buffer_[0]
  size_t buffered_ = 0, used_ = 0;
  uint64_t first_count_;
  uint64_t last_count_ = 0;  // instruction count of the previous record (access or marker)
  bool first_ = true;        // no access yet in this pass
  uint64_t records_ = 0, passes_ = 0, accesses_this_pass_ = 0;
  bool repeat_;
};

// Writes one thread's stream as a memory-access trace that MemTraceStream (and the artifact's
// trace-based cores) read back as the same loads and stores: each access's count is the previous
// one's plus one plus its instructions, the first's `first_count` plus its instructions. What the
// format cannot hold is lost: the address's low 4 bits and the dependence on a load.
class MemTraceWriter {
 public:
  MemTraceWriter(std::string path, uint64_t first_count);  // without commit() nothing is left
  void append(const StreamOp& op);                         // a load or store (a barrier is skipped)
  void commit();
  uint64_t records() const { return records_; }

 private:
  RecordFile file_;
  uint64_t next_count_;  // the count of an access with no instructions before it
  uint64_t records_ = 0;
};

}  // namespace starnuma::trace
