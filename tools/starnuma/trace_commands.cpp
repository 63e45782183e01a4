// `starnuma trace record`, `trace info`, `trace champsim` and `trace artifact` (docs/traces.md).
#include <algorithm>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "option_limits.hpp"
#include "common/json_text.hpp"
#include "platform/platform.hpp"
#include "socket/socket.hpp"
#include "stimulus/trace/artifact_export.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/champsim_writer.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/trace/trace_reader.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma::cli {

namespace {

struct RecordArgs {
  PlatformArgs platform;
  std::string workload = "uniform";
  std::string out;
  uint64_t instructions = 1000000;
  uint64_t seed = 1;
};

struct ChampSimExportArgs {
  std::string trace, out;
  unsigned thread = 0;
  bool from_measurement = false;
};

int trace_record(const RecordArgs& ra) {
  const PlatformArgs& args = ra.platform;
  // The thread and socket counts a run on this platform gives the workload.
  auto platform = Platform::build(args.platform, args.sets);
  const auto& sockets = platform->fabric().requesters();
  unsigned threads = 0;
  for (const auto& s : sockets) threads += s->cores();
  auto workload = make_workload(ra.workload, threads, static_cast<unsigned>(sockets.size()), ra.seed);
  trace::TraceHeader header;
  header.threads = threads;
  header.seed = ra.seed;
  header.footprint = workload->footprint();
  header.instructions = ra.instructions;
  header.initialises = workload->initialises();
  header.workload = ra.workload;
  const trace::RecordResult r = trace::record_trace(*workload, ra.out, header);
  std::cout << "recorded " << ra.workload << " for " << threads << " threads, " << ra.instructions
            << " instructions each after the measurement start (+"
            << trace::recording_budget(ra.instructions) - ra.instructions << " margin): " << r.ops << " ops in "
            << r.bytes << " bytes (" << std::fixed << std::setprecision(2)
            << (r.ops ? static_cast<double>(r.bytes) / static_cast<double>(r.ops) : 0.0) << " bytes/op) -> " << ra.out
            << '\n';
  if (r.streams_ended) std::cout << r.streams_ended << " threads' streams ended before the budget\n";
  return 0;
}

int champsim_info(const std::string& path, trace::TraceKind kind, bool json) {
  trace::ChampSimStream stream(path, 0, trace::champsim_window_bits(1), false);
  uint64_t loads = 0, stores = 0, dependent = 0, ops = 0;
  StreamOp batch[256];
  while (size_t n = stream.fill(batch, std::size(batch))) {
    ops += n;
    for (size_t i = 0; i < n; ++i) {
      loads += batch[i].kind == StreamOp::Kind::Load;
      stores += batch[i].kind == StreamOp::Kind::Store;
      dependent += batch[i].dependent;
    }
  }
  const char* format = kind == trace::TraceKind::ChampSimXz ? "champsim-xz" : "champsim";
  if (json) {
    nlohmann::ordered_json j{{"file", path},   {"format", format}, {"records", stream.records()},
                             {"loads", loads}, {"stores", stores}, {"dependent_loads", dependent}};
    std::cout << json_text(j) << '\n';
  } else {
    std::cout << path << ": ChampSim trace" << (kind == trace::TraceKind::ChampSimXz ? " (xz)" : "")
              << "\n  records (instructions) " << stream.records() << "\n  loads                  " << loads << " ("
              << dependent << " dependent)\n"
              << "  stores                 " << stores << '\n';
  }
  return 0;
}

int trace_info(const std::string& path, bool json) {
  const trace::TraceKind kind = trace::detect_trace_kind(path);
  if (kind != trace::TraceKind::Starnuma) return champsim_info(path, kind, json);
  auto file = trace::TraceFile::open(path);
  const std::vector<trace::ThreadSummary> threads = trace::verify_trace(file);  // reads every block
  const trace::TraceHeader& h = file->header();
  uint64_t blocks = 0;
  for (const auto& t : threads) blocks += t.blocks;
  if (json) {
    nlohmann::ordered_json per_thread = nlohmann::ordered_json::array();
    for (const auto& t : threads)
      per_thread.push_back({{"ops", t.ops},
                            {"loads", t.loads},
                            {"stores", t.stores},
                            {"barriers", t.barriers},
                            {"dependent", t.dependent},
                            {"instructions", t.instructions},
                            {"blocks", t.blocks},
                            {"stream_ended", t.stream_ended}});
    nlohmann::ordered_json j{{"file", path},
                             {"format", "starnuma"},
                             {"version", h.version},
                             {"threads", h.threads},
                             {"workload", h.workload},
                             {"seed", h.seed},
                             {"footprint", h.footprint},
                             {"instructions", h.instructions},
                             {"initialises", h.initialises},
                             {"bytes", file->file().size()},
                             {"blocks", blocks},
                             {"checksums", "ok"},
                             {"per_thread", per_thread}};
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << path << ": starnuma trace, format version " << h.version << "\n"
            << "  workload      " << h.workload << "\n"
            << "  threads       " << h.threads << "\n"
            << "  seed          " << h.seed << "\n"
            << "  footprint     " << h.footprint << " bytes\n"
            << "  instructions  " << h.instructions << " per thread after the measurement start\n"
            << "  initialises   " << (h.initialises ? "yes" : "no") << "\n"
            << "  size          " << file->file().size() << " bytes, " << blocks << " blocks, all checksums ok\n\n";
  std::cout << std::right << std::setw(7) << "thread" << std::setw(12) << "ops" << std::setw(12) << "loads"
            << std::setw(12) << "stores" << std::setw(10) << "barriers" << std::setw(11) << "dependent" << std::setw(14)
            << "instructions" << std::setw(8) << "blocks"
            << "  end\n";
  for (size_t t = 0; t < threads.size(); ++t) {
    const auto& s = threads[t];
    std::cout << std::setw(7) << t << std::setw(12) << s.ops << std::setw(12) << s.loads << std::setw(12) << s.stores
              << std::setw(10) << s.barriers << std::setw(11) << s.dependent << std::setw(14) << s.instructions
              << std::setw(8) << s.blocks << "  " << (s.stream_ended ? "stream ended" : "budget") << '\n';
  }
  return 0;
}

int trace_to_champsim(const ChampSimExportArgs& a) {
  auto file = trace::TraceFile::open(a.trace);
  const trace::TraceHeader& h = file->header();
  if (a.thread >= h.threads)
    report_error(msg::kUsage, a.trace + " holds threads 0 to " + std::to_string(h.threads - 1) + ", not " +
                                  std::to_string(a.thread));
  trace::ChampSimWriter writer(a.out);
  uint64_t ops = 0;
  const uint64_t skipped = trace::for_each_recorded_access(file, a.thread, a.from_measurement, [&](const StreamOp& op) {
    writer.append(op);
    ++ops;
  });
  writer.commit();
  std::cout << "thread " << a.thread << " of " << a.trace << " (" << h.workload << "): " << ops << " loads and stores, "
            << writer.records() << " ChampSim records (instructions)";
  if (skipped) std::cout << ", after " << skipped << " ops of initialisation";
  std::cout << " -> " << a.out << '\n';
  return 0;
}

int trace_to_artifact(const trace::ArtifactExport& a) {
  const trace::ArtifactExportResult r = trace::export_artifact_set(a);
  std::cout << a.trace << " -> " << a.out << ": the StarNUMA artifact's trace set for phase " << a.phase << ", "
            << r.threads << " threads (" << r.accesses << " memory accesses";
  if (a.detailed_threads) std::cout << "; ChampSim traces for threads 0 to " << a.detailed_threads - 1;
  std::cout << "), " << r.pages << " pages placed in " << r.owner_file;
  if (r.skipped) std::cout << ", after " << r.skipped << " ops of initialisation";
  std::cout << '\n';
  return 0;
}

}  // namespace

Command add_trace(CLI::App& app) {
  struct Args {
    RecordArgs record;
    std::string info_file;
    bool json = false;
    ChampSimExportArgs champsim;
    trace::ArtifactExport artifact;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("trace", "Record a workload into a trace file; show a trace file");
  cmd->require_subcommand(1);
  RecordArgs& rec = a->record;
  CLI::App* record = cmd->add_subcommand(
      "record", "Record the streams `starnuma run PLATFORM --workload W --instructions N --seed S` reads");
  add_platform_args(*record, rec.platform);
  record->add_option("--workload", rec.workload, "Workload and parameters")->capture_default_str();
  record->add_option("--out", rec.out, "Trace file to write (atomically)")->required();
  record->add_option("--instructions", rec.instructions, "Instructions per hardware thread the run will simulate")
      ->transform(kCount)
      ->check(CLI::Range(uint64_t{1}, limits::kMaxInstructions))
      ->capture_default_str();
  record->add_option("--seed", rec.seed, "Seed of the workload")->check(kSeed)->capture_default_str();
  CLI::App* info =
      cmd->add_subcommand("info", "Print a trace's header and per-thread counts, verifying every checksum");
  info->add_option("file", a->info_file, "Trace file (starnuma or ChampSim)")->required()->check(CLI::ExistingFile);
  info->add_flag("--json", a->json, "Machine-readable output");
  ChampSimExportArgs& cx = a->champsim;
  CLI::App* champsim = cmd->add_subcommand(
      "champsim", "Write one thread of a starnuma trace as a ChampSim trace (its out-of-order core can then run it)");
  champsim->add_option("file", cx.trace, "starnuma trace (trace record's)")->required()->check(CLI::ExistingFile);
  champsim->add_option("--thread", cx.thread, "Thread to write")->capture_default_str();
  champsim->add_option("--out", cx.out, "ChampSim trace to write (uncompressed, atomically)")
      ->required()
      ->check(kNonEmpty);
  champsim->add_flag("--from-measurement", cx.from_measurement,
                     "Leave out the workload's initialisation (the ops before its measurement starts)");
  trace::ArtifactExport& ax = a->artifact;
  CLI::App* artifact = cmd->add_subcommand(
      "artifact", "Write a starnuma trace as the StarNUMA artifact's trace set (its simulator can then run it)");
  artifact->add_option("file", ax.trace, "starnuma trace (trace record's)")->required()->check(CLI::ExistingFile);
  artifact->add_option("--out", ax.out, "Folder to write (atomically)")->required()->check(kNonEmpty);
  artifact
      ->add_option("--phase", ax.phase, "The phase the files are named and counted for (instructions from P x 10^9)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1000000}))
      ->capture_default_str();
  artifact
      ->add_option("--detailed-threads", ax.detailed_threads,
                   "Threads 0 to N-1 also get ChampSim traces (the artifact's detailed socket's cores)")
      ->capture_default_str();
  artifact
      ->add_option("--cores-per-socket", ax.cores_per_socket,
                   "Thread t runs on socket t / N (the page-owner file places each page on its busiest socket)")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  artifact->add_flag("--from-measurement", ax.from_measurement,
                     "Leave out the workload's initialisation (the ops before its measurement starts)");
  return {cmd, [a, record, info, champsim] {
            if (*record) return trace_record(a->record);
            if (*info) return trace_info(a->info_file, a->json);
            if (*champsim) return trace_to_champsim(a->champsim);
            return trace_to_artifact(a->artifact);
          }};
}

}  // namespace starnuma::cli
