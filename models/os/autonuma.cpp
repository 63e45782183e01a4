#include "os/autonuma.hpp"

#include <algorithm>

#include <systemc>

#include "common/local_time.hpp"
#include "os/os_settings.hpp"

namespace starnuma {

FaultDecision decide_fault(NumaPageState& page, size_t page_node, size_t socket, unsigned task,
                           const NumaRules& rules) {
  FaultDecision d;
  const size_t here = rules.socket_node.at(socket);
  d.local = page_node == here;
  d.shared = page.last_task != 0 && page.last_task != task + 1;
  // The two-fault filter's view, and LACX's "shared among tasks on multiple nodes".
  const bool other_node = page.last_socket != 0 && page.last_socket != socket + 1;
  page.last_socket = static_cast<uint8_t>(socket + 1);
  page.last_task = task + 1;
  const bool has_cxl = rules.cxl_node != static_cast<size_t>(-1);
  if (rules.lacx && has_cxl && d.shared && other_node && page_node != rules.cxl_node) {
    d.outcome = FaultOutcome::Migrate;
    d.target = rules.cxl_node;
    d.to_cxl = true;
    return d;
  }
  if (page.lacx_marked && page_node == rules.cxl_node) d.outcome = FaultOutcome::Kept;
  else if (d.local) d.outcome = FaultOutcome::Local;
  else if (d.shared) d.outcome = FaultOutcome::Shared;
  else if (other_node) d.outcome = FaultOutcome::TwoFault;
  else {
    d.outcome = FaultOutcome::Migrate;
    d.target = here;
  }
  return d;
}

AutoNuma::AutoNuma(Setup setup) : s_(std::move(setup)), rate_(s_.pages->nodes().size()) {}

void AutoNuma::start() {
  sc_core::sc_spawn(
      [this] {
        while (s_.control->active() > 0) {
          sc_core::wait(s_.scan_period.to_sc());
          s_.mover->land(sim_now_fs());
          if (s_.control->active() > 0) scan();
        }
      },
      "os_autonuma");
}

void AutoNuma::scan() {
  ++n_.scans;
  // The placed pages of every node, in virtual order from the cursor (task_numa_work walks the
  // address space from where it stopped; pages not yet touched have no PTE to change).
  std::vector<uint64_t> placed;
  const PageMap& pages = *s_.pages;
  for (size_t node = 0; node < pages.nodes().size(); ++node)
    for (uint64_t i = 0; i < pages.frames_used(node); ++i)
      if (const uint64_t v = pages.owner(node, i); v != PageMap::kNoPage) placed.push_back(v);
  if (placed.empty()) return;
  std::sort(placed.begin(), placed.end());
  size_t at = static_cast<size_t>(std::upper_bound(placed.begin(), placed.end(), cursor_) - placed.begin());
  const uint64_t count = std::min<uint64_t>(s_.scan_pages, placed.size());
  for (uint64_t k = 0; k < count; ++k, ++at) {
    if (at == placed.size()) at = 0;
    const uint64_t v = placed[at];
    if (!armed_.find(v)) {
      armed_[v] = 1;
      ++n_.armed;
      s_.mover->shoot_down(v);  // change_prot_numa flushes the range's translations
    }
    cursor_ = v;
  }
}

int64_t AutoNuma::fault(uint64_t vpage, size_t socket, unsigned task, int64_t t, int64_t cycle_fs) {
  armed_.erase(vpage);
  ++n_.faults;
  // A core runs one handler at a time: an access its window sent during the previous fault (an
  // older one; the window holds the younger ones, core/instruction_window.hpp) faults after it.
  if (task >= fault_ends_.size()) fault_ends_.resize(task + 1, 0);
  if (fault_ends_[task] > t) {
    n_.fault_wait_ps += static_cast<uint64_t>((fault_ends_[task] - t) / 1000);
    t = fault_ends_[task];
  }
  fault_ends_[task] = handle(vpage, socket, task, t, cycle_fs);
  return fault_ends_[task];
}

int64_t AutoNuma::handle(uint64_t vpage, size_t socket, unsigned task, int64_t t, int64_t cycle_fs) {
  const int64_t fault_fs = static_cast<int64_t>(s_.fault_cycles) * cycle_fs;
  n_.fault_ps += static_cast<uint64_t>(fault_fs / 1000);
  t += fault_fs;
  PageMap& pages = *s_.pages;
  const size_t node = pages.node_of(vpage);
  NumaPageState& st = state_[vpage];
  const FaultDecision d = decide_fault(st, node, socket, task, s_.rules);
  n_.local += d.local;
  n_.shared += d.shared;
  switch (d.outcome) {
    case FaultOutcome::Local:
    case FaultOutcome::Shared: return t;
    case FaultOutcome::TwoFault: ++n_.two_fault; return t;
    case FaultOutcome::Kept: ++n_.kept; return t;
    case FaultOutcome::Migrate: break;
  }
  if (pages.in_flight(vpage)) {
    ++n_.in_flight;
    return t;
  }
  if (pages.free_pages(d.target) == 0) {
    ++n_.node_full;
    return t;
  }
  // The destination's rate limit: pages per window (numamigrate_update_ratelimit).
  Window& w = rate_[d.target];
  const int64_t index = t / (s_.rate_window.ps() * 1000);
  if (w.index != index) w = {index, 0};
  if (w.pages >= s_.rate_pages) {
    ++n_.rate_limited;
    return t;
  }
  ++w.pages;
  s_.mover->land(sim_now_fs());
  if (d.to_cxl) {
    st.lacx_marked = true;
    ++n_.to_cxl;
  } else if (node == s_.rules.cxl_node) {
    ++n_.from_cxl;
  }
  ++n_.migrated;
  // The faulting task migrates the page itself: the kernel's work, then the copy it waits for.
  const int64_t copy_fs = t + static_cast<int64_t>(s_.page_cycles) * cycle_fs;
  const int64_t done = s_.mover->move(vpage, d.target, t, copy_fs, socket);
  n_.migration_ps += static_cast<uint64_t>((done - t) / 1000);
  return done;
}

void AutoNuma::finish() { s_.mover->land(sim_now_fs()); }

nlohmann::ordered_json AutoNuma::report() const {
  nlohmann::ordered_json j;
  j["policy"] = s_.rules.lacx ? "lacx" : "autonuma";
  j["scans"] = n_.scans;
  j["pages_unmapped"] = n_.armed;
  j["hinting_faults"] = n_.faults;
  j["local_faults"] = n_.local;
  j["shared_faults"] = n_.shared;
  j["held_by_two_fault_filter"] = n_.two_fault;
  j["kept_on_cxl_by_lacx_mark"] = n_.kept;
  j["pages_moved"] = n_.migrated;
  j["to_cxl"] = n_.to_cxl;
  j["from_cxl"] = n_.from_cxl;
  j["not_moved_node_full"] = n_.node_full;
  j["not_moved_rate_limit"] = n_.rate_limited;
  j["not_moved_in_flight"] = n_.in_flight;
  j["fault_time_ns"] = static_cast<double>(n_.fault_ps) / 1e3;
  j["fault_wait_ns"] = static_cast<double>(n_.fault_wait_ps) / 1e3;
  j["migration_time_ns"] = static_cast<double>(n_.migration_ps) / 1e3;
  j["shootdowns_sent"] = s_.mover->shootdowns_sent();
  j["lines_flushed"] = s_.mover->lines_flushed();
  j["copies_in_flight_peak"] = s_.mover->copies_peak();
  return j;
}

}  // namespace starnuma
