#include "os/move_log.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/diagnostics.hpp"

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

namespace {

// A CSV line's fields (no quoting: the lists hold numbers and node names), a last empty one kept.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  for (std::stringstream row(line); std::getline(row, fields.emplace_back(), ',');) {
  }
  fields.pop_back();
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

DecidedMoves read_moves(const std::string& path, const std::vector<std::string>& node_names) {
  std::ifstream in(path);
  if (!in)
    report_error(msg::kInput, path + ": cannot read the moves (a file `run --moves` or `checkpoint --moves` wrote)");
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = fields_of(line);
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end())
      report_error(msg::kInput, path + ":1: no column '" + name + "' (not a list of moves `run --moves` wrote?)");
    return static_cast<size_t>(it - header.begin());
  };
  const size_t phase_at = column("phase"), page_at = column("page"), to_at = column("to"), kind_at = column("kind");
  DecidedMoves moves;
  for (size_t number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = fields_of(line);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (cells.size() != header.size())
      report_error(msg::kInput,
                   where + std::to_string(cells.size()) + " fields, the header has " + std::to_string(header.size()));
    const auto number_of = [&](size_t k) {
      const std::string& text = cells[k];
      if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
        report_error(msg::kInput, where + header[k] + " '" + text + "' is not a whole number");
      return std::stoull(text);
    };
    const auto to = std::find(node_names.begin(), node_names.end(), cells[to_at]);
    if (to == node_names.end())
      report_error(msg::kInput, where + "no memory node '" + cells[to_at] + "' on this platform");
    if (cells[kind_at] != "candidate" && cells[kind_at] != "victim")
      report_error(msg::kInput, where + "kind '" + cells[kind_at] + "': candidate or victim");
    moves[number_of(phase_at)].push_back({number_of(page_at), static_cast<size_t>(to - node_names.begin()),
                                          cells[kind_at] == "victim" ? MoveKind::Victim : MoveKind::Candidate});
  }
  return moves;
}

}  // namespace starnuma
