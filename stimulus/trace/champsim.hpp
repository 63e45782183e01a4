// ChampSim binary traces (plain or .xz, told apart by their first bytes, not their names). Either
// one single-threaded program per file, run multi-programmed (core c runs file c mod F of the
// list, in its own address space), or the per-thread traces of one multi-threaded program, which
// share one (TraceSpace::Shared). docs/traces.md gives the full mapping.
//
// A record is one instruction (64 bytes, little-endian):
//   uint64 ip; uint8 is_branch, branch_taken; uint8 destination_registers[2], source_registers[4];
//   uint64 destination_memory[2], source_memory[4];
// Every distinct non-zero source address is a load, every distinct non-zero destination address a
// store; records without memory operands count as the non-memory instructions before the next
// op. A load or store is dependent when a source register holds a value derived from the thread's previous
// load. At the end of its file a core starts the file again (as ChampSim replays traces), so every
// core runs the whole instruction budget.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus/stream.hpp"

namespace starnuma::trace {

inline constexpr size_t kChampSimRecordBytes = 64;

// Address spaces. The model's TLBs and caches take virtual addresses below 2^43 or so (their tags
// are 31 bits), while a program's addresses spread over 2^47 (code, heap, mmap, stack). So each
// core gets a window of 2^window_bits bytes at core << window_bits, and the program's 1 GiB
// regions are packed into it in the order the trace first touches them.
inline constexpr unsigned kChampSimRegionBits = 30;
// 2^42 bytes over all cores, each window 2^32 to 2^38 bytes (4 to 256 regions).
unsigned champsim_window_bits(unsigned cores);

// `window_bits` that keeps a trace's addresses as they are: the threads of one program share its
// address space, folded into the platform's by the terabyte by a ProgramMix around the workload.
inline constexpr unsigned kSharedSpace = 0;

// Multi-programmed (each core its own window) or one program's threads (addresses kept).
enum class TraceSpace { Separate, Shared };

// Whether the file starts with the xz magic (FD 37 7A 58 5A 00).
bool is_xz_file(const std::string& path);

// One core's stream of a ChampSim trace. `core` places its addresses in the core's own space.
class ChampSimStream : public ThreadStream {
 public:
  // `window_bits`: the size of each core's address window (champsim_window_bits of the core count),
  // or kSharedSpace to keep the trace's addresses.
  // `repeat`: start the file again at its end (a run); otherwise the stream ends there (trace info).
  ChampSimStream(const std::string& path, unsigned core, unsigned window_bits, bool repeat = true);
  ~ChampSimStream() override;
  size_t fill(StreamOp* out, size_t max) override;
  uint64_t records() const { return records_; }  // read so far, over every pass
  uint64_t passes() const { return passes_; }    // times the file was started again
  // Bytes of decoded trace held in memory at once (bounded whatever the file's size).
  size_t buffer_bytes() const;

  class Source;  // the file's bytes, decompressed if needed

 private:
  bool next_record();  // decodes one record into pending_; false at the end of the file
  void decode(const uint8_t* record);
  uint64_t map_address(uint64_t address);  // into the core's window (kept in a shared space)

  std::string path_;
  uint64_t address_base_;
  unsigned regions_max_;   // 0: shared space, addresses kept
  uint64_t regions_[256];  // the program's regions (address >> 30), in first-touch order
  unsigned regions_used_ = 0, last_region_ = 0;
  std::unique_ptr<Source> source_;
  std::vector<uint8_t> records_buffer_;  // a batch of whole records
  size_t buffered_ = 0, used_ = 0;
  StreamOp pending_[6];  // the memory operands of the current record
  unsigned pending_count_ = 0, pending_next_ = 0;
  uint32_t non_memory_ = 0;             // non-memory instructions since the last op
  uint64_t load_serial_ = 0;            // serial number of the thread's latest load record
  uint64_t register_source_[256] = {};  // per register: the load serial its value derives from
  uint64_t records_ = 0, passes_ = 0, ops_this_pass_ = 0;
  bool repeat_;
};

// `threads` cores over `files` (assigned in order, round-robin). Separate: multi-programmed, each
// core in its own window. Shared: one program whose threads keep the traces' addresses (wrap the
// workload in a ProgramMix to fold them into the platform's space).
class ChampSimWorkload : public Workload {
 public:
  // Checks every file's format.
  ChampSimWorkload(std::vector<std::string> files, unsigned threads, TraceSpace space = TraceSpace::Separate);
  unsigned threads() const override { return threads_; }
  // Unknown without reading the traces through: 0 (run_workload then measures it when it needs it).
  uint64_t footprint() const override { return 0; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;

 private:
  std::vector<std::string> files_;
  unsigned threads_, window_bits_;  // window_bits_ kSharedSpace when shared
};

}  // namespace starnuma::trace
