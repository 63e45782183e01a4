// Several programs at once, each in its own address space and on its own cores: `--workload
// a@socket0-1,b@socket2` or a mix file (docs/workloads.md, "Several programs at once").
//
// The cores translate one virtual address space, so the programs share it out by the terabyte:
// program p's terabyte r (its addresses r TiB to r + 1 TiB) becomes terabyte (r + p × M / N) mod M
// of the platform's, where M is how many terabytes the cores translate and N the programs rounded
// up to a power of two; the offset within a terabyte is kept. Each program's page-table subtrees,
// TLB entries and pages are then its own, as with separate processes (only the page table's root
// is shared). Two programs' terabytes that would land on one are an error naming both.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/config_node.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

inline constexpr uint64_t kTerabyte = uint64_t{1} << 40;

struct ProgramSpec {
  std::string name;                                    // unique within the mix
  std::string workload;                                // "name:key=value,..." or a workload file; empty with `trace`
  std::vector<std::string> trace;                      // trace files instead (one ChampSim trace per thread)
  std::vector<unsigned> sockets;                       // requester indices, in order, each once
  std::optional<std::pair<unsigned, unsigned>> cores;  // first and last core of each socket; all when unset
  unsigned threads = 0;                                // at most this many threads (its first cores); 0: one per core
  uint64_t instructions = 0;                           // per thread; 0: the run's budget
  std::string place;                                   // the placement as written, for reports
  Location where;                                      // where the program was given, for errors
};

// Whether `--workload` text names a mix: it places a program with '@', or it is a YAML file whose
// map has a `programs` key.
bool is_program_mix(const std::string& text);
// Parses a mix (either form); raises starnuma/config naming the file, line and column or the text.
// Each program's workload is checked (name and parameters) but not built.
std::vector<ProgramSpec> parse_program_mix(const std::string& text);

// Where program `program` of `programs` finds its `address` in the shared space of `address_space`
// bytes: its terabyte moved as above (a pure function: the same whichever thread touches it first).
// Addresses beyond 2^47 are returned as they are (the address limit reports them).
uint64_t mix_address(uint64_t address, size_t program, size_t programs, uint64_t address_space);

// The programs' workloads as one workload: threads of program 0 first, each program's terabytes
// moved as above. `address_space`: the bytes the cores translate.
class ProgramMix : public Workload {
 public:
  struct Program {
    std::unique_ptr<Workload> workload;
    std::string name;  // for errors
  };
  ProgramMix(std::vector<Program> programs, uint64_t address_space);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override;
  bool initialises() const override;
  bool thread_initialises(unsigned thread) const override;
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;

  size_t programs() const { return programs_.size(); }
  // The program running `thread`, and its first thread.
  size_t program_of(unsigned thread) const;
  unsigned first_thread(size_t program) const { return first_[program]; }

  struct Space;  // which program holds each terabyte

 private:
  std::vector<Program> programs_;
  std::vector<unsigned> first_;
  std::shared_ptr<Space> space_;
  unsigned threads_ = 0;
};

// One program whose threads share an address space that need not fit the platform's (the traces
// of one multi-threaded program): a ProgramMix of that one program, so its terabyte r becomes
// r mod M, with the mix's error when two of them meet.
std::unique_ptr<Workload> one_process(std::unique_ptr<Workload> workload, std::string name, uint64_t address_space);

}  // namespace starnuma
