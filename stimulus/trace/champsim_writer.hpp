// Writes one thread's stream as a ChampSim binary trace (the 64-byte records champsim.hpp
// describes), so the out-of-order core of ChampSim, the StarNUMA artifact's simulator, can run the
// very stream a starnuma run reads (experiments/champsim). Each op becomes its non-memory
// instructions (records with no operands at all: independent) and one memory record. Every load
// writes register 1 and a dependent load or store reads it, so in ChampSim it waits for exactly the
// load whose value gives its address, which is what `dependent` means here; ChampSimStream reads the file
// back to the same ops. Barriers have no ChampSim form and are dropped (a thread alone).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stimulus/trace/binary_io.hpp"
#include "stimulus/stream.hpp"

namespace starnuma::trace {

class ChampSimWriter {
 public:
  explicit ChampSimWriter(std::string path);  // without commit() nothing is left

  // A load or store (a barrier is skipped). An address of 0 is refused: ChampSim reads 0 as "no
  // operand".
  void append(const StreamOp& op);
  void commit();  // moves the file into place
  uint64_t records() const { return records_; }

 private:
  void record(uint64_t load_address, uint64_t store_address, bool reads_load_register);

  RecordFile file_;
  uint64_t records_ = 0;
};

}  // namespace starnuma::trace
