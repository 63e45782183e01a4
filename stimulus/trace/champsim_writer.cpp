#include "stimulus/trace/champsim_writer.hpp"

#include "common/diagnostics.hpp"
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

ChampSimWriter::ChampSimWriter(std::string path) : file_(std::move(path), kBufferRecords * kChampSimRecordBytes) {}

void ChampSimWriter::append(const StreamOp& op) {
  if (op.kind == StreamOp::Kind::Barrier) return;
  if (op.address == 0)
    report_error(msg::kInput,
                 file_.path() + ": an access to address 0 has no ChampSim form (0 means no operand there)");
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
  file_.append(r, sizeof r);
  ++records_;
}

void ChampSimWriter::commit() { file_.commit(); }

}  // namespace starnuma::trace
