#include "run/sampled_window.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "fabric/fabric.hpp"
#include "socket/socket.hpp"

namespace starnuma {

namespace {

class ResumedStream : public ThreadStream {
 public:
  ResumedStream(std::unique_ptr<ThreadStream> inner, uint64_t skip, std::string path)
      : inner_(std::move(inner)), skip_(skip), path_(std::move(path)) {}
  size_t fill(StreamOp* out, size_t max) override {
    if (skip_ > 0) {
      const uint64_t passed = inner_->skip(skip_);
      if (passed < skip_)
        report_error(msg::kInput, path_ + ": the stream ends " + std::to_string(skip_ - passed) +
                                      " operations before the checkpoint's position (another workload's checkpoint?)");
      skip_ = 0;
    }
    const size_t n = inner_->fill(out, max);
    for (size_t i = 0; i < n; ++i) out[i].starts_measurement = false;
    return n;
  }

 private:
  std::unique_ptr<ThreadStream> inner_;
  uint64_t skip_;
  std::string path_;
};

size_t node_in_run(const Checkpoint::NodeRecord& r, const std::vector<size_t>& socket_node, size_t pool) {
  return r.socket >= 0 ? socket_node.at(static_cast<size_t>(r.socket)) : pool;
}

}  // namespace

void check_checkpoint(const Checkpoint& c, const std::string& path, const Fabric& fabric, const std::string& workload,
                      uint64_t seed) {
  const auto refuse = [&](const std::string& why) { report_error(msg::kInput, path + ": " + why); };
  if (c.starnuma_version != STARNUMA_VERSION)
    refuse("written by starnuma " + c.starnuma_version + ", this is " + STARNUMA_VERSION +
           " (streams and decisions may differ between versions: make the checkpoints again)");
  if (c.workload != workload) refuse("made for workload " + c.workload + ", not " + workload);
  if (c.seed != seed) refuse("made with seed " + std::to_string(c.seed) + ", not " + std::to_string(seed));
  const auto& sockets = fabric.requesters();
  std::vector<unsigned> cores;
  for (const Socket* s : sockets) cores.push_back(s->cores());
  if (cores != c.cores_per_socket) {
    const auto text = [](const std::vector<unsigned>& v) {
      unsigned total = 0;
      for (unsigned x : v) total += x;
      return std::to_string(v.size()) + " sockets, " + std::to_string(total) + " cores";
    };
    refuse("made on a platform of " + text(c.cores_per_socket) + "; this one has " + text(cores) +
           " (a checkpoint serves platforms with the same sockets and cores)");
  }
  for (const Checkpoint::NodeRecord& r : c.nodes)
    if (r.socket >= static_cast<int>(sockets.size()))
      refuse("names socket " + std::to_string(r.socket) + ", which this platform lacks");
}

void restore_pages(const Checkpoint& c, const std::string& path, PageMap& pages, const std::vector<size_t>& socket_node,
                   size_t pool) {
  if (c.page_size != pages.page_size())
    report_error(msg::kInput, path + ": pages of " + std::to_string(c.page_size) + " B, the run's are " +
                                  std::to_string(pages.page_size()) + " B");
  for (const Checkpoint::NodeRecord& r : c.nodes) {
    const size_t node = node_in_run(r, socket_node, pool);
    if (node == static_cast<size_t>(-1)) {
      for (uint64_t v : r.frames.owners)
        if (v != PageMap::kNoPage) report_error(msg::kInput, path + ": places pages in a pool; this platform has none");
      continue;
    }
    if (const std::string bad = pages.restore(node, r.frames); !bad.empty())
      report_error(msg::kInput, path + ": does not fit this platform's memory: " + bad);
  }
  for (const PageMove& m : c.moves)
    if (node_in_run(c.nodes[m.to], socket_node, pool) == static_cast<size_t>(-1))
      report_error(msg::kInput, path + ": moves pages to a pool; this platform has none");
}

MigrationEngine::Setup::Replay replay_of(const Checkpoint& c, const std::vector<size_t>& socket_node, size_t pool) {
  MigrationEngine::Setup::Replay r;
  r.phase = c.phase;
  r.scan_entries = c.scan_entries;
  r.regions_scanned = c.regions_scanned;
  r.decision = c.decision;
  for (const PageMove& m : c.moves) {
    r.moves.push_back({m.vpage, node_in_run(c.nodes[m.to], socket_node, pool), m.kind});
  }
  return r;
}

InFlight take_back_in_flight(const Checkpoint& c, uint64_t copies_done, PageMap& pages,
                             const std::vector<size_t>& socket_node, size_t pool) {
  InFlight f;
  for (size_t k = c.moves.size(); k-- > std::min<uint64_t>(copies_done, c.moves.size());) {
    const PageMove& m = c.moves[k];
    const size_t to = node_in_run(c.nodes[m.to], socket_node, pool);
    if (c.from[k] == Checkpoint::kUnknownNode) continue;  // the pass skipped it; so will the window
    const size_t from = node_in_run(c.nodes[c.from[k]], socket_node, pool);
    if (from == to) continue;
    if (!pages.placed(m.vpage) || pages.node_of(m.vpage) != to || pages.free_pages(from) == 0) {
      ++f.stayed;
      continue;
    }
    const uint64_t vacated = pages.move(m.vpage, from).from;
    pages.release(vacated);
    f.vacated.push_back(vacated);
    f.moves.push_back({m.vpage, to, m.kind});
  }
  std::reverse(f.moves.begin(), f.moves.end());
  return f;
}

uint64_t copies_started_by(const std::vector<uint64_t>& started, uint64_t observed, uint64_t moves, uint64_t offset) {
  if (offset <= observed || started.empty())
    return std::min<uint64_t>(moves, std::upper_bound(started.begin(), started.end(), offset) - started.begin());
  const uint64_t seen = started.size();
  if (seen >= moves || observed <= started.front()) return std::min(moves, seen);
  const double rate = static_cast<double>(seen) / static_cast<double>(observed - started.front());
  return std::min<uint64_t>(moves, seen + static_cast<uint64_t>(rate * static_cast<double>(offset - observed)));
}

std::unique_ptr<ThreadStream> resume_stream(std::unique_ptr<ThreadStream> stream, uint64_t ops,
                                            const std::string& path) {
  return std::make_unique<ResumedStream>(std::move(stream), ops, path);
}

}  // namespace starnuma
