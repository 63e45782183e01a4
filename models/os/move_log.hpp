// Every page a migration phase decided to move, one row each (run --moves, checkpoint --moves):
// which page, from where to where, and what became of it, so that two runs' placements can be
// compared page by page (experiments/moves_diff.py; docs/os.md, "The moves, page by page").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "os/region_scan.hpp"

namespace starnuma {

class MoveLog {
 public:
  // Moved: copied (a timed run: started, and when it landed); skipped: not copied when its turn
  // came (the page had moved meanwhile, was already there, or the destination was full); dropped:
  // its turn never came (the next phase began, or the run ended, first).
  enum class Outcome : uint8_t { Moved, Skipped, Dropped };
  static constexpr size_t kUnknownNode = static_cast<size_t>(-1);

  explicit MoveLog(std::vector<std::string> node_names) : names_(std::move(node_names)) {}

  // A phase's decision: its moves in order, each dropped until told otherwise; `decided_ns` is
  // negative where there is no time (the functional pass). Returns the first move's row.
  size_t decided(uint64_t phase, const std::vector<PageMove>& moves, double decided_ns);
  // Row `row`'s move was copied from `from`, starting at `start_ns` and landing at `landed_ns`
  // (negative: untimed).
  void moved(size_t row, size_t from, double start_ns, double landed_ns);
  void skipped(size_t row) { rows_.at(row).outcome = Outcome::Skipped; }

  size_t rows() const { return rows_.size(); }
  // phase,page,from,to,kind,outcome,decided_ns,started_ns,landed_ns (started: the OS core took the
  // page; landed: its copy ended); a node by its name,
  // an untimed field empty, a dropped or skipped move's `from` empty.
  std::string csv() const;

 private:
  struct Row {
    uint64_t phase, page;
    size_t from, to;
    MoveKind kind;
    Outcome outcome;
    double decided_ns, start_ns, landed_ns;
  };
  std::vector<std::string> names_;
  std::vector<Row> rows_;
};

// A list of moves read back (run --moves-from): each phase's moves in their order, the nodes by
// index into `node_names`. Only the columns phase, page, to and kind are read; a malformed row or an
// unknown node is an error naming the file and line.
using DecidedMoves = std::map<uint64_t, std::vector<PageMove>>;
DecidedMoves read_moves(const std::string& path, const std::vector<std::string>& node_names);

}  // namespace starnuma
