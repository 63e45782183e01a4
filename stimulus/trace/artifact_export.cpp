#include "stimulus/trace/artifact_export.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/champsim_writer.hpp"
#include "stimulus/trace/memtrace.hpp"
#include "stimulus/trace/trace_reader.hpp"

namespace starnuma::trace {

namespace {

const char* const kMarker = "starnuma_export.txt";  // written last: what the folder was made from

// Each page's accesses per socket, and the socket with most of them (the lowest on a tie).
class PageCounts {
 public:
  explicit PageCounts(unsigned sockets) : sockets_(sockets) {}
  void add(uint64_t address, unsigned socket) {
    auto [it, fresh] = index_.try_emplace(address / kArtifactPageBytes, counts_.size() / sockets_);
    if (fresh) counts_.resize(counts_.size() + sockets_);
    ++counts_[it->second * sockets_ + socket];
  }
  // "<page> <owner>" lines in page order.
  std::string owner_lines() const {
    std::vector<std::pair<uint64_t, size_t>> pages(index_.begin(), index_.end());
    std::sort(pages.begin(), pages.end());
    std::string text;
    for (const auto& [page, row] : pages) {
      const uint32_t* c = &counts_[row * sockets_];
      const size_t owner = static_cast<size_t>(std::max_element(c, c + sockets_) - c);
      text += std::to_string(page) + ' ' + std::to_string(owner) + '\n';
    }
    return text;
  }
  uint64_t pages() const { return index_.size(); }

 private:
  unsigned sockets_;
  std::unordered_map<uint64_t, size_t> index_;  // page -> its row of counts
  std::vector<uint32_t> counts_;
};

}  // namespace

ArtifactExportResult export_artifact_set(const ArtifactExport& o) {
  auto file = TraceFile::open(o.trace);
  const TraceHeader& h = file->header();
  if (o.cores_per_socket == 0 || h.threads % o.cores_per_socket != 0)
    report_error(msg::kUsage, o.trace + " has " + std::to_string(h.threads) + " threads, not whole sockets of " +
                                  std::to_string(o.cores_per_socket) + " cores (--cores-per-socket)");
  if (o.detailed_threads > h.threads)
    report_error(msg::kUsage, "--detailed-threads " + std::to_string(o.detailed_threads) + ": " + o.trace + " has " +
                                  std::to_string(h.threads) + " threads");
  const std::string phase = std::to_string(o.phase);
  OutputFolder folder(o.out, kMarker);
  const std::filesystem::path maps = std::filesystem::path("pagemaps") / ("phase" + phase + "_pagemaps");
  std::error_code ec;
  std::filesystem::create_directories(folder.file(maps.string()), ec);
  if (ec) report_error(msg::kInput, "cannot create " + folder.file(maps.string()) + ": " + ec.message());

  ArtifactExportResult r;
  r.threads = h.threads;
  PageCounts counts(h.threads / o.cores_per_socket);
  for (unsigned t = 0; t < h.threads; ++t) {
    const std::string name = std::to_string(t) + "_" + phase;
    MemTraceWriter accesses(folder.file("mtrace_t" + name + ".out"), o.phase * kArtifactPhaseInstructions);
    std::optional<ChampSimWriter> instructions;
    if (t < o.detailed_threads) instructions.emplace(folder.file("champsim_" + name + ".trace"));
    const unsigned socket = t / o.cores_per_socket;
    r.skipped += for_each_recorded_access(file, t, o.from_measurement, [&](const StreamOp& op) {
      accesses.append(op);
      if (instructions) instructions->append(op);
      counts.add(op.address, socket);
    });
    accesses.commit();
    if (instructions) instructions->commit();
    r.accesses += accesses.records();
  }
  const std::string owners = counts.owner_lines();
  write_file_atomically(folder.file((maps / "page_owner_pre.txt").string()), owners);
  write_file_atomically(folder.file((maps / "page_owner_post.txt").string()), owners);
  r.pages = counts.pages();
  write_file_atomically(
      folder.file(kMarker),
      "starnuma trace " + o.trace + " (" + h.workload + ", seed " + std::to_string(h.seed) + "), phase " + phase +
          ", " + std::to_string(h.threads) + " threads, " +
          (o.detailed_threads ? "ChampSim traces for threads 0 to " + std::to_string(o.detailed_threads - 1)
                              : std::string("no ChampSim traces")) +
          "\n");
  folder.commit();
  r.owner_file = (std::filesystem::path(o.out) / maps / "page_owner_pre.txt").string();
  return r;
}

}  // namespace starnuma::trace
