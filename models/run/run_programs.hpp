// What a run executes and where: one workload (or trace) over every core, or the programs of a mix
// (stimulus/program_mix.hpp) each on its own sockets' cores.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "paging/page_map.hpp"
#include "run/run_setup.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

struct RunProgram {
  std::string name;         // the mix's name for it; the workload's description when alone
  std::string description;  // workload text or trace files
  std::string place;        // sockets as given ("all" when alone)
  unsigned first_thread = 0, threads = 0;
  uint64_t instructions = 0;    // per thread
  std::vector<size_t> sockets;  // requester indices it runs on
};

struct RunStimulus {
  std::unique_ptr<Workload> workload;  // every program's threads, program 0's first
  std::vector<ThreadPlace> threads;    // thread t's core
  std::vector<RunProgram> programs;    // one unless a mix
  bool mix = false;
  // A single program of traces whose addresses are kept and folded into this many bytes of
  // address space (one_process); unset: the workload's addresses are its own.
  std::optional<uint64_t> folded_space;
  bool windowed = false;  // ChampSim traces in per-core windows: no longer the traces' addresses
};

// The mix `text` (is_program_mix) on `fabric`'s cores: each program's threads on its sockets' cores
// in order; a core given to two programs, a socket or core the platform lacks, or a program with
// no core are errors naming the program. `instructions`: the budget of programs that give none.
RunStimulus make_mix_stimulus(const std::string& text, const Fabric& fabric, uint64_t seed, uint64_t instructions);

// One workload over `threads` (every core): a single program named by `description`.
RunStimulus single_program(std::unique_ptr<Workload> workload, std::vector<ThreadPlace> threads,
                           const std::string& description, uint64_t instructions);

// The StarNUMA artifact's page-owner file (page_owner_pre.txt: "<4 KiB virtual page> <owner>" per
// line, owner a socket or 100 for the pool) as the run's initial placement: each listed page is
// placed ahead of the run on its owner's memory; pages not listed are placed by first touch, as
// the artifact does. The pages are the program's own, folded as its streams are (`stimulus`).
// Errors name the file and line: an owner the platform lacks, a page listed twice, a node full.
void place_initial(PageMap& pages, const std::string& file, const RunStimulus& stimulus, const Fabric& fabric,
                   size_t pool);
// How many pages the file lists (its footprint, when the workload's is unknown).
uint64_t initial_placement_pages(const std::string& file);

}  // namespace starnuma
