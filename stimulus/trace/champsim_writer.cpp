#include "stimulus/trace/champsim_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/diagnostics.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_file.hpp"
#include "stimulus/trace/binary_io.hpp"
#include "stimulus/trace/champsim.hpp"

namespace starnuma::trace {

namespace {
constexpr uint8_t kLoadRegister = 1;  // an ordinary register (6, 25 and 26 mean branches to ChampSim)
// The instruction pointers cycle through 4 KiB of code, so ChampSim's instruction side always hits,
// as starnuma's cores, which model no instruction fetch, assume.
constexpr uint64_t kCodeBase = 0x400000, kCodeInstructions = 1024;
constexpr size_t kBufferRecords = 4096;
}  // namespace

ChampSimWriter::ChampSimWriter(std::string path) : path_(std::move(path)) {
  check_output_path(path_);
  std::error_code ec;
  const std::filesystem::path target(path_);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) report_error(msg::kInput, "cannot create the folder of " + path_ + ": " + ec.message());
  temporary_ = path_ + ".tmp" + std::to_string(getpid());
  guard_ = std::make_unique<TemporaryFileGuard>(temporary_);
  file_ = std::fopen(temporary_.c_str(), "wb");
  if (!file_) report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
  buffer_.reserve(kBufferRecords * kChampSimRecordBytes);
}

ChampSimWriter::~ChampSimWriter() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void ChampSimWriter::append(const StreamOp& op) {
  if (op.kind == StreamOp::Kind::Barrier) return;
  if (op.address == 0)
    report_error(msg::kInput, path_ + ": an access to address 0 has no ChampSim form (0 means no operand there)");
  for (uint32_t i = 0; i < op.instructions; ++i) record(0, 0, false);
  if (op.kind == StreamOp::Kind::Load) record(op.address, 0, op.dependent);
  else record(0, op.address, op.dependent);
}

void ChampSimWriter::record(uint64_t load_address, uint64_t store_address, bool reads_load_register) {
  uint8_t r[kChampSimRecordBytes] = {};
  put_u64(r, kCodeBase + 4 * (records_ % kCodeInstructions));
  if (load_address) {
    r[10] = kLoadRegister;          // destination_registers[0]
    put_u64(r + 32, load_address);  // source_memory[0]
  }
  if (reads_load_register) r[12] = kLoadRegister;     // source_registers[0]
  if (store_address) put_u64(r + 16, store_address);  // destination_memory[0]
  buffer_.insert(buffer_.end(), r, r + sizeof r);
  ++records_;
  if (buffer_.size() >= kBufferRecords * kChampSimRecordBytes) flush();
}

void ChampSimWriter::flush() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
  buffer_.clear();
}

void ChampSimWriter::commit() {
  flush();
  const bool ok = std::fflush(file_) == 0 && fsync(fileno(file_)) == 0;
  const int error = errno;
  std::fclose(file_);
  file_ = nullptr;
  if (!ok) report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(error));
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    report_error(msg::kInput, "cannot write " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

}  // namespace starnuma::trace
