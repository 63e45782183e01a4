#include "stimulus/trace/champsim.hpp"

#include <lzma.h>

#include <algorithm>
#include <cstring>

#include "common/diagnostics.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma::trace {

namespace {

constexpr uint8_t kXzMagic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr size_t kChampSimRecordsPerRead = 256;
constexpr size_t kCompressedChunk = 64 << 10;
constexpr uint64_t kRegionMask = (uint64_t{1} << kChampSimRegionBits) - 1;

}  // namespace

unsigned champsim_window_bits(unsigned cores) {
  unsigned log2_cores = 0;
  while ((uint64_t{1} << log2_cores) < cores) ++log2_cores;
  return std::clamp(42u - std::min(log2_cores, 42u), 32u, 38u);
}

bool is_xz_file(const std::string& path) {
  InputFile in(path);
  uint8_t head[sizeof kXzMagic];
  return in.read_at(0, head, sizeof head) == sizeof head && std::memcmp(head, kXzMagic, sizeof head) == 0;
}

// The trace's bytes from the start: the file itself, or its xz decompression (streamed).
class ChampSimStream::Source {
 public:
  explicit Source(const std::string& path) : file_(path), xz_(is_xz_file(path)) {
    if (!xz_ && file_.size() % kChampSimRecordBytes != 0) {  // caught before the run starts
      const uint64_t last = file_.size() - file_.size() % kChampSimRecordBytes;
      file_.fail(last, "truncated ChampSim record (" + std::to_string(file_.size() - last) + " of " +
                           std::to_string(kChampSimRecordBytes) + " bytes)");
    }
    restart();
  }
  ~Source() { end_decoder(); }

  void restart() {
    position_ = 0;
    compressed_ = 0;
    if (!xz_) return;
    end_decoder();
    input_.resize(kCompressedChunk);
    lzma_ = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&lzma_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      report_internal("cannot start an xz decoder for " + file_.path());
    decoding_ = true;
    finished_ = false;
  }
  // Fills `out` with up to `n` bytes; fewer only at the end of the trace.
  size_t read(uint8_t* out, size_t n) {
    const size_t got = xz_ ? decompress(out, n) : file_.read_at(position_, out, n);
    position_ += got;
    return got;
  }
  uint64_t position() const { return position_; }  // in the (decompressed) trace
  bool compressed() const { return xz_; }
  const std::string& path() const { return file_.path(); }
  size_t buffer_bytes() const { return input_.capacity(); }

 private:
  size_t decompress(uint8_t* out, size_t n) {
    if (finished_) return 0;
    lzma_.next_out = out;
    lzma_.avail_out = n;
    while (lzma_.avail_out > 0) {
      lzma_action action = LZMA_RUN;
      if (lzma_.avail_in == 0) {
        const size_t got = file_.read_at(compressed_, input_.data(), input_.size());
        compressed_ += got;
        lzma_.next_in = input_.data();
        lzma_.avail_in = got;
        if (got == 0) action = LZMA_FINISH;
      }
      const lzma_ret r = lzma_code(&lzma_, action);
      if (r == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (r == LZMA_OK) continue;
      // Offsets in the compressed file: where its data ends, or how far the decoder got.
      const uint64_t at = r == LZMA_BUF_ERROR ? file_.size() : lzma_.total_in;
      file_.fail(at, std::string(r == LZMA_BUF_ERROR ? "truncated .xz data" : "corrupt .xz data") + " (liblzma: " +
                         error_name(r) + "; " + std::to_string(lzma_.total_out) + " bytes decompressed so far)");
    }
    return n - lzma_.avail_out;
  }
  static const char* error_name(lzma_ret r) {
    switch (r) {
      case LZMA_FORMAT_ERROR: return "not in .xz format";
      case LZMA_OPTIONS_ERROR: return "unsupported options";
      case LZMA_DATA_ERROR: return "data is corrupt";
      case LZMA_BUF_ERROR: return "unexpected end of input";
      case LZMA_MEM_ERROR: return "out of memory";
      case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
      default: return "unexpected error";
    }
  }
  void end_decoder() {
    if (decoding_) lzma_end(&lzma_);
    decoding_ = false;
  }

  InputFile file_;
  bool xz_;
  uint64_t position_ = 0, compressed_ = 0;
  std::vector<uint8_t> input_;
  lzma_stream lzma_ = LZMA_STREAM_INIT;
  bool decoding_ = false, finished_ = false;
};

ChampSimStream::ChampSimStream(const std::string& path, unsigned core, unsigned window_bits, bool repeat)
    : path_(path),
      address_base_(window_bits == kSharedSpace ? 0 : static_cast<uint64_t>(core) << window_bits),
      regions_max_(window_bits == kSharedSpace ? 0 : 1u << (window_bits - kChampSimRegionBits)),
      source_(std::make_unique<Source>(path)),
      records_buffer_(kChampSimRecordsPerRead * kChampSimRecordBytes),
      repeat_(repeat) {}

ChampSimStream::~ChampSimStream() = default;

size_t ChampSimStream::buffer_bytes() const { return records_buffer_.capacity() + source_->buffer_bytes(); }

size_t ChampSimStream::fill(StreamOp* out, size_t max) {
  size_t n = 0;
  while (n < max) {
    if (pending_next_ < pending_count_) {
      out[n++] = pending_[pending_next_++];
      continue;
    }
    if (next_record()) continue;
    if (!repeat_) break;
    // The end of the file: start it again, unless a whole pass gave nothing to replay.
    if (ops_this_pass_ == 0)
      fail_at(path_, source_->position(),
              "no memory operations in " + std::to_string(records_) + " records: nothing to simulate");
    source_->restart();
    ++passes_;
    ops_this_pass_ = 0;
  }
  return n;
}

bool ChampSimStream::next_record() {
  if (used_ == buffered_) {
    size_t got = 0;
    while (got < records_buffer_.size()) {
      const size_t r = source_->read(records_buffer_.data() + got, records_buffer_.size() - got);
      if (r == 0) break;
      got += r;
    }
    if (got % kChampSimRecordBytes != 0)
      fail_at(path_, source_->position() - got % kChampSimRecordBytes,
              std::string("truncated ChampSim record (") + std::to_string(got % kChampSimRecordBytes) + " of " +
                  std::to_string(kChampSimRecordBytes) + " bytes" +
                  (source_->compressed() ? " of decompressed data)" : ")"));
    buffered_ = got;
    used_ = 0;
    if (got == 0) return false;
  }
  decode(&records_buffer_[used_]);
  used_ += kChampSimRecordBytes;
  ++records_;
  return true;
}

void ChampSimStream::decode(const uint8_t* r) {
  const uint8_t* destination_registers = r + 10;
  const uint8_t* source_registers = r + 12;
  const uint8_t* destination_memory = r + 16;
  const uint8_t* source_memory = r + 32;
  // Which load the source registers' values come from (the latest one wins).
  uint64_t derived_from = 0;
  for (int i = 0; i < 4; ++i)
    if (source_registers[i]) derived_from = std::max(derived_from, register_source_[source_registers[i]]);
  const bool dependent = derived_from != 0 && derived_from == load_serial_;

  pending_count_ = pending_next_ = 0;
  auto add = [&](StreamOp::Kind kind, uint64_t address) {
    if (address == 0) return;
    const uint64_t mapped = map_address(address);
    for (unsigned i = 0; i < pending_count_; ++i)
      if (pending_[i].kind == kind && pending_[i].address == mapped) return;  // one access per address
    StreamOp& op = pending_[pending_count_++];
    op = StreamOp{};
    op.kind = kind;
    op.address = mapped;
    op.dependent = dependent;  // a store's address may come from a load as well as a load's
  };
  for (int i = 0; i < 4; ++i) add(StreamOp::Kind::Load, get_u64(source_memory + 8 * i));
  for (int i = 0; i < 2; ++i) add(StreamOp::Kind::Store, get_u64(destination_memory + 8 * i));

  bool loads = false;
  for (unsigned i = 0; i < pending_count_; ++i) loads |= pending_[i].kind == StreamOp::Kind::Load;
  if (loads) ++load_serial_;
  for (int i = 0; i < 2; ++i)
    if (destination_registers[i]) register_source_[destination_registers[i]] = loads ? load_serial_ : derived_from;

  if (pending_count_ == 0) {
    if (non_memory_ < UINT32_MAX) ++non_memory_;
    return;
  }
  pending_[0].instructions = non_memory_;  // the record's other operands belong to the same instruction
  non_memory_ = 0;
  ops_this_pass_ += pending_count_;
}

uint64_t ChampSimStream::map_address(uint64_t address) {
  if (regions_max_ == 0) return address;  // shared: the fold is the ProgramMix's, by terabyte
  const uint64_t region = address >> kChampSimRegionBits;
  if (regions_used_ == 0 || regions_[last_region_] != region) {  // rare: programs stay in a region for long
    unsigned i = 0;
    while (i < regions_used_ && regions_[i] != region) ++i;
    if (i == regions_used_) {
      if (regions_used_ == regions_max_)
        fail_at(path_, source_->position() - buffered_ + used_,
                "the program touches more than " + std::to_string(regions_max_) +
                    " distinct 1 GiB regions, the most a core's address window holds with this many cores");
      regions_[regions_used_++] = region;
    }
    last_region_ = i;
  }
  return address_base_ + (uint64_t{last_region_} << kChampSimRegionBits) + (address & kRegionMask);
}

ChampSimWorkload::ChampSimWorkload(std::vector<std::string> files, unsigned threads, TraceSpace space)
    : files_(std::move(files)),
      threads_(threads),
      window_bits_(space == TraceSpace::Shared ? kSharedSpace : champsim_window_bits(threads)) {
  if (files_.empty()) report_error(msg::kUsage, "no ChampSim trace files given");
  if (threads_ > (1u << 10)) report_error(msg::kInput, "ChampSim traces: at most 1024 cores");
  for (const std::string& f : files_) ChampSimStream(f, 0, window_bits_);  // a plain file's size is checked here
}

std::unique_ptr<ThreadStream> ChampSimWorkload::stream(unsigned thread) const {
  return std::make_unique<ChampSimStream>(files_[thread % files_.size()], thread, window_bits_);
}

}  // namespace starnuma::trace
