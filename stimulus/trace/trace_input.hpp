// Trace files as a run's stimulus: telling the formats apart, opening them as a workload, and
// recording a generated workload into starnuma's own format.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stimulus/stream.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/trace_format.hpp"

namespace starnuma::trace {

enum class TraceKind { Starnuma, ChampSim, ChampSimXz };
// By the first bytes: starnuma's magic, the xz magic, otherwise a plain ChampSim trace.
TraceKind detect_trace_kind(const std::string& path);

struct TraceInput {
  std::unique_ptr<Workload> workload;
  std::string description;       // what the run reports as its workload
  std::optional<uint64_t> seed;  // the recorded run's seed and budget (own format only)
  std::optional<uint64_t> instructions;
  // The streams keep the traces' addresses, one program's: fold them into the platform's space
  // (one_process) unless the workload is a program of a mix, which folds it.
  bool shared = false;
  // ChampSim traces run multi-programmed: each core's addresses moved into its own window, so
  // they are no longer the traces' (a page-owner file cannot name them).
  bool windowed = false;
};

struct TraceInputOptions {
  std::optional<TraceSpace> space;  // ChampSim files: unset means Separate
  std::optional<uint64_t> phase;    // an artifact trace set's phase (unset: its only one)
  std::vector<bool> detailed;       // per thread: on a detailed socket (artifact sets: ChampSim there)
};

// Opens `files` for a run of `threads` threads: one starnuma trace holding exactly that many
// threads, ChampSim traces assigned to the cores in order, round-robin (one program per core, or
// with TraceSpace::Shared the threads of one program), or one directory holding the StarNUMA
// artifact's trace set (artifact.hpp; always shared). Raises starnuma/input or starnuma/usage.
TraceInput open_trace_input(const std::vector<std::string>& files, unsigned threads,
                            const TraceInputOptions& options = {});

// How far recording goes past the run's budget, in case a core ever reads ahead: 1/64 of it plus
// 4096 instructions.
uint64_t recording_budget(uint64_t instructions);

struct RecordResult {
  uint64_t ops = 0, bytes = 0;
  unsigned streams_ended = 0;  // threads whose stream ended within the budget
};
// Writes each stream of `workload` up to the point a run of `header.instructions` per thread (counted
// as a core counts them: from the barrier that starts measurement) stops reading it, plus the
// margin of recording_budget(). `header.threads` must be the workload's thread count.
RecordResult record_trace(const Workload& workload, const std::string& path, const TraceHeader& header);

}  // namespace starnuma::trace
