// ChampSim trace records (64 bytes each, as ChampSim's input_instr) written by tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace starnuma::testing {

struct Record {
  uint64_t ip = 0x400000;
  uint8_t destination_registers[2] = {};
  uint8_t source_registers[4] = {};
  uint64_t destination_memory[2] = {};
  uint64_t source_memory[4] = {};
};

std::vector<uint8_t> encode(const std::vector<Record>& records) {
  std::vector<uint8_t> bytes;
  for (const Record& r : records) {
    uint8_t b[64] = {};
    std::memcpy(b, &r.ip, 8);  // the tests run on little-endian hosts, as ChampSim's traces are
    std::memcpy(b + 10, r.destination_registers, 2);
    std::memcpy(b + 12, r.source_registers, 4);
    std::memcpy(b + 16, r.destination_memory, 16);
    std::memcpy(b + 32, r.source_memory, 32);
    bytes.insert(bytes.end(), b, b + 64);
  }
  return bytes;
}

}  // namespace starnuma::testing
