// A recording that may stop before a run does. Each thread reads its recorded stream (seeking over
// what a sampled window skips) and, should the run read past the point where the recording stopped
// at its budget, goes on from the workload's generator, produced again up to that point: slower,
// the same stream. Sampled windows over recorded streams use it, because how far a window's
// threads run is not known when the streams are recorded: over a common span a thread may run
// alone to a barrier the others wait at (docs/sampling.md, "Recorded streams").
#pragma once

#include <memory>

#include "stimulus/stream.hpp"
#include "stimulus/trace/trace_reader.hpp"

namespace starnuma::trace {

// A sampled evaluation's recording (the pass's and its windows' `--trace-in`): starnuma's own
// format (a usage error naming `option` otherwise) of `threads` threads (an input error naming the
// file otherwise).
std::shared_ptr<const TraceFile> open_recording(const std::string& path, unsigned threads, const std::string& option);
// `sockets` is what the recording's generator is built for, should a thread run past it.
std::unique_ptr<Workload> recorded_then_generated(std::shared_ptr<const TraceFile> file, unsigned sockets);
// Threads of this process that went on from the generator past their recording.
unsigned threads_generated_past_recording();

}  // namespace starnuma::trace
