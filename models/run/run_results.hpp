// A run's result from what it leaves behind: the cores' statistics summed and averaged (IPC, AMAT
// and its parts, the access breakdown, page walks), each program's figures in a mix, the links'
// utilisations, and what the run did short of what it was asked.
#pragma once

#include <vector>

#include "os/os_settings.hpp"
#include "run/run_programs.hpp"
#include "run/simulation.hpp"

namespace starnuma {

// The cores' figures into `r`: sums over every core, IPC over the first `detailed` sockets'.
void collect_cores(RunResult& r, const Fabric& fabric, size_t detailed);
// Each program's figures over its own cores.
std::vector<ProgramResult> program_results(const RunStimulus& stimulus);
// Mean busy fraction per link type over `elapsed`; a direction busy longer is a model defect.
void collect_links(RunResult& r, const Platform& platform, Time elapsed);
// Says what the run did short of what it was asked: on stderr now, and in the result.
void note_shortfalls(RunResult& r, const RunOptions& o, const OsSettings& os, const std::vector<ThreadPlace>& threads,
                     bool phased);

}  // namespace starnuma
