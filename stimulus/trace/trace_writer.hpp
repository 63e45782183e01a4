// Writes a trace in starnuma's own format (stimulus/trace/trace_format.hpp), streaming: each
// thread buffers one block at a time. The file appears only on commit(): it is written beside the
// target under a temporary name and renamed, so a failed recording leaves nothing behind.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/output_file.hpp"
#include "stimulus/stream.hpp"
#include "stimulus/trace/trace_format.hpp"

namespace starnuma::trace {

class TraceWriter {
 public:
  TraceWriter(std::string path, TraceHeader header);  // without commit() nothing is left
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void append(unsigned thread, const StreamOp& op);
  // The thread has no more ops; `stream_ended`: its stream itself ended (a run reading on gets the
  // end of the stream), rather than the recording stopping at its budget (reading on is an error).
  void end_thread(unsigned thread, bool stream_ended);
  // Writes the end record and moves the file into place. Threads not ended count as cut.
  void commit();
  uint64_t bytes_written() const { return written_; }

 private:
  struct ThreadBuffer {
    std::vector<uint8_t> payload;
    uint32_t ops = 0;
    uint64_t previous_address = 0;
    uint32_t previous_instructions = 0;
    uint64_t total_ops = 0;
    bool stream_ended = false;
  };
  void flush_block(unsigned thread);
  void write(const void* data, size_t size);

  std::string path_;
  TraceHeader header_;
  std::unique_ptr<StagedFile> file_;
  std::vector<ThreadBuffer> threads_;
  uint64_t written_ = 0;
};

}  // namespace starnuma::trace
