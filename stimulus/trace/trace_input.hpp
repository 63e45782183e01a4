// Trace files as a run's stimulus: telling the formats apart, opening them as a workload, and
// recording a generated workload into starnuma's own format.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stimulus/stream.hpp"
#include "stimulus/trace/trace_format.hpp"

namespace starnuma::trace {

enum class TraceKind { Starnuma, ChampSim, ChampSimXz };
// By the first bytes: starnuma's magic, the xz magic, otherwise a plain ChampSim trace.
TraceKind detect_trace_kind(const std::string& path);

struct TraceInput {
  std::unique_ptr<Workload> workload;
  std::string description;                // what the run reports as its workload
  std::optional<uint64_t> seed;           // the recorded run's seed and budget (own format only)
  std::optional<uint64_t> instructions;
};

// Opens `files` for a run of `threads` threads: one starnuma trace holding exactly that many
// threads, or ChampSim traces assigned to the cores in order, round-robin. Raises starnuma/input.
TraceInput open_trace_input(const std::vector<std::string>& files, unsigned threads);

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
