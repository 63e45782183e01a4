#include "os/move_log.hpp"

#include <cstdio>

namespace starnuma {

size_t MoveLog::decided(uint64_t phase, const std::vector<PageMove>& moves, double decided_ns) {
  const size_t first = rows_.size();
  for (const PageMove& m : moves)
    rows_.push_back({phase, m.vpage, kUnknownNode, m.to, m.kind, Outcome::Dropped, decided_ns, -1, -1});
  return first;
}

void MoveLog::moved(size_t row, size_t from, double start_ns, double landed_ns) {
  Row& r = rows_.at(row);
  r.outcome = Outcome::Moved;
  r.from = from;
  r.start_ns = start_ns;
  r.landed_ns = landed_ns;
}

std::string MoveLog::csv() const {
  static const char* const kOutcomes[] = {"moved", "skipped", "dropped"};
  const auto node = [this](size_t n) { return n == kUnknownNode ? std::string() : names_.at(n); };
  const auto time = [](double ns) {
    if (ns < 0) return std::string();
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", ns);
    return std::string(text);
  };
  std::string out = "phase,page,from,to,kind,outcome,decided_ns,started_ns,landed_ns\n";
  for (const Row& r : rows_)
    out += std::to_string(r.phase) + ',' + std::to_string(r.page) + ',' + node(r.from) + ',' + node(r.to) + ',' +
           (r.kind == MoveKind::Victim ? "victim" : "candidate") + ',' + kOutcomes[static_cast<int>(r.outcome)] + ',' +
           time(r.decided_ns) + ',' + time(r.start_ns) + ',' + time(r.landed_ns) + '\n';
  return out;
}

}  // namespace starnuma
