#include "os/migration_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include <systemc>

#include "common/diagnostics.hpp"
#include "common/local_time.hpp"
#include "fabric/fabric.hpp"
#include "os/balance_policy.hpp"
#include "tracking/socket_tracking.hpp"

namespace starnuma {

namespace {
constexpr uint64_t kMetadataLine = 64;  // bytes of tracker metadata the scan reads per access
}

uint64_t scan_cycles(uint64_t entries, uint64_t entry_bytes, Time line_latency, int64_t cycle_fs,
                     unsigned cycles_per_entry, unsigned lines_in_flight) {
  const uint64_t work = entries * cycles_per_entry;
  const uint64_t lines = (entries * entry_bytes + kMetadataLine - 1) / kMetadataLine;
  const uint64_t latency_cycles = static_cast<uint64_t>(line_latency.ps() * 1000 / cycle_fs);
  return std::max(work, lines * latency_cycles / lines_in_flight);
}

MigrationEngine::MigrationEngine(Setup setup)
    : s_(std::move(setup)),
      mover_(*s_.fabric, *s_.pages, s_.coherence, s_.llcs),
      policy_type_(find_phase_policy(s_.policy)) {
  if (!policy_type_) report_internal("no phase policy '" + s_.policy + "'");  // os.migration checked the name
  if (s_.socket_node.empty() || s_.os->os_socket() >= s_.socket_node.size())
    report_error(msg::kConfig, "os.os_socket: " + std::to_string(s_.os->os_socket()) +
                                   " is not a socket of the platform (0 to " +
                                   std::to_string(s_.socket_node.size() - 1) + ")");
  if (s_.knowledge == MigrationKnowledge::Tracker && !s_.metadata)
    report_error(msg::kConfig,
                 "os.policy: tracker needs the tracking hardware (topology.socket.tracking.impl: model or rtl)");
  policy_ = policy_type_->create({s_.os, s_.knowledge, s_.metadata, s_.socket_node, s_.pool, s_.seed, &s_.chmu});
}

void MigrationEngine::start() {
  sc_core::sc_spawn([this] { run(); }, "os_migration");
}

size_t MigrationEngine::socket_of_node(size_t node) const {
  for (size_t s = 0; s < s_.socket_node.size(); ++s)
    if (s_.socket_node[s] == node) return s;
  report_internal("a migration between two nodes that are not sockets");
}

void MigrationEngine::run() {
  const int64_t poll_fs = s_.os->poll().ps() * 1000;
  std::vector<PageMove> pending;
  CopyQueues queues(s_.pages->nodes().size());
  int64_t free_fs = 0;  // the OS core is busy until then
  while (s_.control->active() > 0) {
    const int64_t now = sim_now_fs();
    mover_.land(now);
    // A sampled run's window replays its phase when measurement starts, a unit's at its start (and
    // the next boundary's when its clock gets there); a continuous run starts a phase whenever the phases' clock (the
    // mean thread's work) crosses a boundary.
    const Setup::Replay* replayed = s_.replay ? replay_starting(now) : nullptr;
    const bool phase_starts = s_.replay ? replayed != nullptr : s_.phase_reached(records_.size() + 1, now);
    if (!s_.replay) clock_at_last_poll_ = s_.phase_clock(now);
    if (phase_starts) {
      if (!records_.empty()) {
        records_.back().dropped_pages += queues.left();
        records_.back().observed_instructions = s_.mean_retired() - records_.back().start_retired;
      }
      if (records_.empty() && s_.next && replayed == &*s_.next) {
        // The boundary came in the warm-up: the own phase's copies still to make are all dropped.
        records_.emplace_back();
        records_.back().phase = s_.replay->phase;
        records_.back().decision = s_.replay->decision;
        records_.back().dropped_pages = records_.back().pages_to_copy = s_.replay->moves.size();
      }
      records_.emplace_back();
      PhaseRecord& rec = records_.back();
      rec.phase = s_.replay ? replayed->phase : records_.size();
      rec.start_ns = static_cast<double>(now) / 1e6;
      pending = s_.replay ? replay(*replayed, rec) : decide(rec.phase, rec);
      rec.start_retired = s_.mean_retired();
      rec.start_furthest = s_.furthest_retired();
      rec.start_clock = s_.phase_clock(now);
      rec.pages_to_copy = pending.size();
      queues.fill(pending);
      if (s_.replay && pending.empty()) s_.control->copies_started();
      free_fs = std::max(free_fs, now) + scan_fs_;
      busy_fs_ += scan_fs_;
      rec.decided_ns = static_cast<double>(free_fs) / 1e6;
      if (s_.moves) first_row_ = s_.moves->decided(rec.phase, pending, rec.decided_ns);
      if (s_.progress) {
        uint64_t to_pool = 0;
        for (const PageMove& m : pending) to_pool += m.to == s_.pool;
        // Over the run's progress line (a terminal's \r line), then on a line of its own.
        std::fprintf(
            stderr, "\r%-100s\n",
            ("phase " + std::to_string(rec.phase) + " at " + std::to_string(static_cast<uint64_t>(rec.start_ns / 1e3)) +
             " us: " + std::to_string(pending.size()) + " pages to move (" + std::to_string(to_pool) +
             " to the pool), HI " + std::to_string(rec.decision.hi))
                .c_str());
      }
      continue;
    }
    if (queues.left() > 0 && free_fs <= now) {
      if (const size_t k = queues.take(now); k != CopyQueues::kNone) {
        PhaseRecord& rec = records_.back();
        if (s_.replay) rec.copy_offsets.push_back(s_.mean_retired() - rec.start_retired);
        free_fs = migrate(pending[k], k, now, rec, queues);
        busy_fs_ += free_fs - now;
        if (s_.replay && queues.left() == 0) s_.control->copies_started();  // a boundary's window may end
        continue;
      }
    }
    // Until the OS core is free, a destination's copy ends, a copy lands, or the next poll for a
    // boundary; rounded up to whole picoseconds (SystemC's resolution), so that time does reach it.
    int64_t until = std::min(now + poll_fs, mover_.next_landing());
    if (queues.left() > 0) until = std::min(until, std::max(free_fs, queues.next_ready()));
    wait_until_fs((std::max(until, now + 1) + 999) / 1000 * 1000);
  }
  if (!records_.empty()) {
    records_.back().dropped_pages += queues.left();
    records_.back().observed_instructions = s_.mean_retired() - records_.back().start_retired;
  }
}

void CopyQueues::fill(const std::vector<PageMove>& moves) {
  for (std::vector<size_t>& q : queue_) q.clear();
  std::fill(head_.begin(), head_.end(), 0);
  for (size_t k = 0; k < moves.size(); ++k) queue_.at(moves[k].to).push_back(k);
  left_ = moves.size();
}

size_t CopyQueues::take(int64_t now) {
  size_t best = kNone, best_node = 0;
  for (size_t n = 0; n < queue_.size(); ++n)
    if (head_[n] < queue_[n].size() && free_fs_[n] <= now && queue_[n][head_[n]] < best) {
      best = queue_[n][head_[n]];
      best_node = n;
    }
  if (best != kNone) {
    ++head_[best_node];
    --left_;
  }
  return best;
}

int64_t CopyQueues::next_ready() const {
  int64_t next = std::numeric_limits<int64_t>::max();
  for (size_t n = 0; n < queue_.size(); ++n)
    if (head_[n] < queue_[n].size()) next = std::min(next, free_fs_[n]);
  return next;
}

int64_t MigrationEngine::tracker_scan_fs(uint64_t entries) const {
  const Time latency = s_.fabric->unloaded_latency(s_.os->os_socket(), s_.metadata_range);
  return static_cast<int64_t>(scan_cycles(entries, s_.metadata->layout().entry_bytes(), latency, s_.os_cycle_fs,
                                          s_.os->scan_cycles_per_entry(), s_.os->scan_lines_in_flight())) *
         s_.os_cycle_fs;
}

std::vector<PageMove> MigrationEngine::decide(uint64_t phase, PhaseRecord& rec) {
  PhaseView view;
  view.phase = phase;
  view.pages = s_.pages;
  RegionScan scan;
  if (!policy_type_->reads_regions) {
    scan_fs_ = 0;  // the per-page counts are kept as the misses happen
    rec.regions_scanned = 0;
    view.counts = s_.counts;
  } else {
    if (s_.knowledge == MigrationKnowledge::Tracker) {
      scan = scan_tracker_metadata(*s_.pages, *s_.metadata);
      scan_fs_ = tracker_scan_fs(scan.entries);
      s_.metadata->clear();
      for (SocketTracking* t : s_.trackers) t->phase_mark();
    } else {
      scan = scan_page_counts(*s_.pages, *s_.counts);
      scan_fs_ = 0;  // the baseline's knowledge is free
      s_.counts->clear();
    }
    rec.regions_scanned = scan.regions.size();
    view.scan = &scan;
  }
  // The map's invariants at every phase (a pass over the frames: small beside a phase's simulation).
  if (const std::string bad = s_.pages->check(); !bad.empty())
    report_internal("page map at phase " + std::to_string(phase) + ": " + bad);
  for (size_t n = 0; n < s_.pages->nodes().size(); ++n) view.free_pages.push_back(s_.pages->free_pages(n));
  if (s_.pool != static_cast<size_t>(-1)) rec.pool_pages = s_.pages->pages_on(s_.pool);
  PhaseChoice choice = policy_->decide(view);
  if (!policy_type_->reads_regions) s_.counts->clear();
  if (s_.decided) {
    const auto listed = s_.decided->find(phase);
    choice.moves = listed != s_.decided->end() ? listed->second : std::vector<PageMove>{};
    choice.decision.pages = choice.moves.size();
  }
  rec.decision = std::move(choice.decision);
  rec.fields = std::move(choice.fields);
  return std::move(choice.moves);
}

const MigrationEngine::Setup::Replay* MigrationEngine::replay_starting(int64_t now) {
  if (s_.next && !next_started_ && s_.phase_clock(now) >= s_.next_after) {
    next_started_ = true;
    return &*s_.next;
  }
  // A boundary's phase starts where its window measures; a unit's copies are under way from the
  // window's start, so that its warm-up carries their traffic into the measurement, as a continuous
  // run's has been carrying it since the boundary.
  return records_.empty() && (s_.replay->resumed || s_.control->measuring()) ? &*s_.replay : nullptr;
}

std::vector<PageMove> MigrationEngine::replay(const Setup::Replay& r, PhaseRecord& rec) {
  // The scan the decision needed still occupies the OS core first, and resets what the
  // tracking hardware counted in the warm-up; a unit's phase scanned and reset before the unit.
  if (r.resumed) {
    scan_fs_ = 0;
  } else if (s_.knowledge == MigrationKnowledge::Tracker) {
    scan_fs_ = tracker_scan_fs(r.scan_entries);
    s_.metadata->clear();
    for (SocketTracking* t : s_.trackers) t->phase_mark();
  } else {
    scan_fs_ = 0;
    s_.counts->clear();
  }
  rec.regions_scanned = r.regions_scanned;
  rec.decision = r.decision;
  if (s_.pool != static_cast<size_t>(-1)) rec.pool_pages = s_.pages->pages_on(s_.pool);
  return r.moves;
}

int64_t MigrationEngine::migrate(const PageMove& m, size_t k, int64_t start_fs, PhaseRecord& rec, CopyQueues& queues) {
  PageMap& pages = *s_.pages;
  if (!pages.placed(m.vpage) || pages.node_of(m.vpage) == m.to || pages.free_pages(m.to) == 0 ||
      pages.in_flight(m.vpage)) {
    ++rec.skipped_pages;  // moved meanwhile, or the destination filled since the decision
    if (s_.moves) s_.moves->skipped(first_row_ + k);
    return start_fs;
  }
  const size_t from = pages.node_of(m.vpage);
  // The OS core's work (shootdown, page-table update); then the copy, line by line from the old
  // home to the new one, proceeds on its own while the OS core goes on to the next page. A core of
  // the destination socket copies (the pool's pages are copied in by the source socket), as Linux
  // migrates on the node that wants the page: the data crosses the fabric once, old home to new.
  const int64_t os_done_fs = start_fs + static_cast<int64_t>(s_.os->page_cycles()) * s_.os_cycle_fs;
  const size_t copier = socket_of_node(m.to != s_.pool ? m.to : from);
  const int64_t done_fs = mover_.move(m.vpage, m.to, start_fs, os_done_fs, copier);
  queues.copying_until(m.to, done_fs);
  copy_fs_ += done_fs - start_fs;
  ++rec.moved_pages;
  if (s_.moves)
    s_.moves->moved(first_row_ + k, from, static_cast<double>(start_fs) / 1e6, static_cast<double>(done_fs) / 1e6);
  const bool pool = s_.pool != static_cast<size_t>(-1);
  if (pool && m.to == s_.pool) ++rec.to_pool;
  else if (pool && from == s_.pool) ++rec.from_pool;
  else ++rec.socket_to_socket;
  return os_done_fs;
}

nlohmann::ordered_json MigrationEngine::report() const {
  nlohmann::ordered_json j;
  uint64_t moved = 0, to_pool = 0, from_pool = 0, s2s = 0, dropped = 0, skipped = 0;
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const PhaseRecord& r : records_) {
    moved += r.moved_pages;
    to_pool += r.to_pool;
    from_pool += r.from_pool;
    s2s += r.socket_to_socket;
    dropped += r.dropped_pages;
    skipped += r.skipped_pages;
    const PhaseDecision& d = r.decision;
    phases.push_back({{"phase", r.phase},
                      {"start_ns", r.start_ns},
                      {"decided_ns", r.decided_ns},
                      {"mean_instructions", r.start_retired},
                      {"furthest_instructions", r.start_furthest},
                      {"clock_instructions", r.start_clock},
                      {"hi", d.hi},
                      {"lo", d.lo},
                      {"regions_scanned", r.regions_scanned},
                      {"candidates", d.candidates},
                      {"pages_over_hi", d.candidate_pages},
                      {"already_home", d.home},
                      {"ping_pong", d.ping_pong},
                      {"no_victim", d.no_victim},
                      {"limit_reached", d.limit_reached},
                      {"pages_decided", d.pages},
                      {"pages_moved", r.moved_pages},
                      {"socket_to_socket", r.socket_to_socket},
                      {"to_pool", r.to_pool},
                      {"from_pool", r.from_pool},
                      {"dropped", r.dropped_pages},
                      {"skipped", r.skipped_pages},
                      {"pool_pages", r.pool_pages}});
    for (const auto& [key, value] : r.fields.items()) phases.back()[key] = value;
    if (s_.replay) {
      phases.back()["pages_to_copy"] = r.pages_to_copy;
      phases.back()["instructions_observed"] = r.observed_instructions;
      phases.back()["copies_started_at_instructions"] = r.copy_offsets;
    }
  }
  j["phases"] = records_.size();
  if (!s_.replay) j["clock_instructions"] = clock_at_last_poll_;  // how far the phases' clock got
  j["pages_moved"] = moved;
  j["bytes_moved"] = moved * s_.pages->page_size();
  j["socket_to_socket"] = s2s;
  j["to_pool"] = to_pool;
  j["from_pool"] = from_pool;
  j["to_pool_fraction"] = moved ? static_cast<double>(to_pool) / static_cast<double>(moved) : 0.0;
  j["dropped"] = dropped;
  j["skipped"] = skipped;
  j["shootdowns_sent"] = mover_.shootdowns_sent();
  j["shootdowns_unprocessed"] = mover_.shootdowns_unprocessed();
  j["lines_flushed"] = mover_.lines_flushed();
  j["dirty_lines_written"] = mover_.dirty_lines();
  j["os_core_busy_ns"] = static_cast<double>(busy_fs_) / 1e6;
  j["copies_in_flight_peak"] = mover_.copies_peak();
  j["mean_page_migration_ns"] = moved ? static_cast<double>(copy_fs_) / 1e6 / static_cast<double>(moved) : 0.0;
  j["per_phase"] = phases;
  return j;
}

}  // namespace starnuma
