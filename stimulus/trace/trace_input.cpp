#include "stimulus/trace/trace_input.hpp"

#include <cstring>

#include "common/diagnostics.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/binary_io.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/trace_reader.hpp"
#include "stimulus/trace/trace_writer.hpp"

namespace starnuma::trace {

TraceKind detect_trace_kind(const std::string& path) {
  InputFile in(path);
  uint8_t head[sizeof kMagic] = {};
  const size_t got = in.read_at(0, head, sizeof head);
  if (got == sizeof kMagic && std::memcmp(head, kMagic, sizeof kMagic) == 0) return TraceKind::Starnuma;
  if (is_xz_file(path)) return TraceKind::ChampSimXz;
  return TraceKind::ChampSim;
}

TraceInput open_trace_input(const std::vector<std::string>& files, unsigned threads, const TraceInputOptions& options) {
  if (files.empty()) report_error(msg::kUsage, "--trace-in: no file given");
  TraceInput input;
  for (const std::string& f : files) {
    if (!is_trace_directory(f)) continue;
    if (files.size() > 1)
      report_error(msg::kUsage,
                   f + ": a directory is an artifact trace set, every thread of a run; give it alone to --trace-in");
    if (options.space == TraceSpace::Separate)
      report_error(msg::kUsage,
                   "--trace-space separate: " + f + " is one program's trace set; its threads share one address space");
    ArtifactSet set = find_artifact_set(f, threads, options.phase, options.detailed);
    input.description = set.description;
    input.workload = std::make_unique<ArtifactWorkload>(std::move(set));
    input.shared = true;
    return input;
  }
  if (options.phase)
    report_error(msg::kUsage, "--trace-phase: applies to an artifact trace set (a directory given to --trace-in)");
  for (const std::string& f : files) {
    if (detect_trace_kind(f) != TraceKind::Starnuma) continue;
    if (options.space)
      report_error(msg::kUsage,
                   "--trace-space: " + f + " is a starnuma trace, which keeps its workload's own addresses");
    if (files.size() > 1)
      report_error(msg::kUsage, f + ": a starnuma trace holds every thread of a run; give it alone to --trace-in");
    auto file = TraceFile::open(f);
    const TraceHeader& h = file->header();
    if (h.threads != threads)
      fail_at(f, kThreadsOffset,
              "the trace has " + std::to_string(h.threads) + " threads; this run has " + std::to_string(threads) +
                  " (one per core of the platform)");
    input.description = h.workload;
    input.seed = h.seed;
    if (h.instructions) input.instructions = h.instructions;
    input.workload = std::make_unique<TraceWorkload>(std::move(file));
    return input;
  }
  const TraceSpace space = options.space.value_or(TraceSpace::Separate);
  input.workload = std::make_unique<ChampSimWorkload>(files, threads, space);
  input.shared = space == TraceSpace::Shared;
  input.windowed = !input.shared;
  input.description = input.shared ? "champsim-shared:" : "champsim:";
  for (size_t i = 0; i < files.size(); ++i) input.description += (i ? "," : "") + files[i];
  return input;
}

uint64_t recording_budget(uint64_t instructions) { return instructions + instructions / 64 + 4096; }

RecordResult record_trace(const Workload& workload, const std::string& path, const TraceHeader& header) {
  if (header.threads != workload.threads()) report_internal("record_trace: thread count differs from the workload's");
  TraceWriter writer(path, header);
  RecordResult result;
  const uint64_t budget = recording_budget(header.instructions);
  StreamOp batch[256];
  for (unsigned t = 0; t < header.threads; ++t) {
    auto stream = workload.stream(t);
    // The rule of Core::run: the budget counts instructions from the barrier that starts
    // measurement (from the first op when the workload has no initialisation); a core reads its
    // next op only while under its budget.
    uint64_t retired = 0;
    bool measuring = !header.initialises, ended = false;
    const auto under_budget = [&] { return !measuring || retired < budget; };
    while (under_budget() && !ended) {
      const size_t n = stream->fill(batch, std::size(batch));
      ended = n == 0;
      size_t i = 0;
      for (; i < n && under_budget(); ++i) {
        const StreamOp& op = batch[i];
        writer.append(t, op);
        if (op.kind != StreamOp::Kind::Barrier) {
          retired += op.instructions + 1;
        } else if (op.starts_measurement) {
          retired = 0;
          measuring = true;
        }
      }
      result.ops += i;
    }
    writer.end_thread(t, ended);
    result.streams_ended += ended;
  }
  writer.commit();
  result.bytes = writer.bytes_written();
  return result;
}

}  // namespace starnuma::trace
