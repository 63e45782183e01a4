#include "os/dcd_agent.hpp"

#include <algorithm>
#include <limits>

#include <systemc>

#include "common/diagnostics.hpp"
#include "common/local_time.hpp"
#include "common/units.hpp"

namespace starnuma {

namespace {
constexpr size_t kNone = static_cast<size_t>(-1);
}

DcdAgent::DcdAgent(Setup setup)
    : s_(std::move(setup)),
      mover_(*s_.fabric, *s_.pages, s_.coherence, s_.llcs),
      frames_per_block_(s_.dcd->block() / s_.pages->page_size()),
      records_(s_.dcd->schedule().size()) {}

void DcdAgent::start() {
  sc_core::sc_spawn([this] { run(); }, ("os_dcd_" + s_.device).c_str());
}

int64_t DcdAgent::due_fs(const DcdEvent& e) const {
  return e.at_phase ? std::numeric_limits<int64_t>::max() : e.at.ps() * 1000;
}

bool DcdAgent::due(const DcdEvent& e, int64_t now) {
  return e.at_phase ? s_.phase_reached(e.phase, now) : now >= due_fs(e);
}

void DcdAgent::check(const std::string& when) const {
  if (const std::string bad = s_.pages->check(); !bad.empty())
    report_internal("page map " + when + " of " + s_.device + ": " + bad);
}

void DcdAgent::run() {
  const std::vector<DcdEvent>& events = s_.dcd->schedule();
  const int64_t poll_fs = s_.os->poll().ps() * 1000;
  size_t k = 0;
  bool releasing = false;
  while (s_.control->active() > 0 && (k < events.size() || releasing)) {
    const int64_t now = sim_now_fs();
    mover_.land(now);
    int64_t wake = now + poll_fs;
    if (releasing) {
      Record& r = records_[k - 1];
      if (release_step(now, r, wake)) continue;
      if (next_page_ == extent_pages_.size() && s_.pages->release_left(s_.node) == 0) {
        finish_release(r);
        releasing = false;
        continue;
      }
    } else if (due(events[k], now)) {
      Record& r = records_[k];
      r.start_ns = static_cast<double>(now) / 1e6;
      check("before " + events[k].text);
      if (events[k].kind == DcdEvent::Kind::Add) add(events[k], r);
      else releasing = begin_release(events[k], r);
      ++k;
      continue;
    } else {
      wake = std::min(wake, due_fs(events[k]));
    }
    wake = std::min(wake, mover_.next_landing());
    wait_until_fs((std::max(wake, now + 1) + 999) / 1000 * 1000);
  }
  if (releasing) {
    Record& r = records_[k - 1];
    r.status = "incomplete";
    r.reason = std::to_string(extent_pages_.size() - std::min(extent_pages_.size(), next_page_)) +
               " pages not yet moved and " + std::to_string(s_.pages->release_left(s_.node)) +
               " frames of the extent in use when the workload ended";
  }
}

void DcdAgent::add(const DcdEvent& e, Record& r) {
  const uint64_t online = s_.pages->online_frames(s_.node), frames = e.bytes / s_.pages->page_size(),
                 device = s_.device_bytes / s_.pages->page_size();
  r.end_ns = r.start_ns;
  if (online + frames > device) {
    r.status = "refused";
    r.reason = "only " + format_size(Size::from_bytes((device - online) * s_.pages->page_size())) +
               " of the device is offline";
  } else {
    s_.pages->add_capacity(s_.node, online + frames);
    r.status = "done";
  }
  r.online_after = s_.pages->online_frames(s_.node) * s_.pages->page_size();
}

bool DcdAgent::begin_release(const DcdEvent& e, Record& r) {
  PageMap& pages = *s_.pages;
  const uint64_t online = pages.online_frames(s_.node), frames = e.bytes / pages.page_size();
  auto refuse = [&](std::string why) {
    r.status = "refused";
    r.reason = std::move(why);
    r.end_ns = r.start_ns;
    r.online_after = online * pages.page_size();
    return false;
  };
  if (frames > online)
    return refuse("only " + format_size(Size::from_bytes(online * pages.page_size())) + " is online");
  const uint64_t keep = online - frames;
  // The pages the extent holds, and the room for them: the node's free frames below the extent
  // and the sockets' memories.
  uint64_t in_extent = 0;
  for (uint64_t i = keep; i < pages.frames_used(s_.node); ++i) in_extent += pages.owner(s_.node, i) != PageMap::kNoPage;
  const PageMap::NodeFrames frames_now = pages.frames(s_.node);
  const uint64_t never_used = pages.free_pages(s_.node) - frames_now.free.size();
  const uint64_t next = pages.frames_used(s_.node);
  uint64_t room = std::min(never_used, keep > next ? keep - next : 0);
  for (uint64_t i : frames_now.free) room += i < keep;
  for (size_t n : shared_socket_memories()) room += pages.free_pages(n);
  r.pages_in_extent = in_extent;
  if (in_extent > room)
    return refuse("the extent holds " + std::to_string(in_extent) + " pages and the rest of memory has room for " +
                  std::to_string(room));
  extent_pages_ = pages.begin_release(s_.node, keep);
  next_page_ = 0;
  r.pages_in_extent = extent_pages_.size();
  if (extent_pages_.size() != in_extent) report_internal("a release's extent changed while it was counted");
  os_free_fs_ = static_cast<int64_t>(r.start_ns * 1e6);
  return true;
}

std::vector<size_t> DcdAgent::shared_socket_memories() const {
  std::vector<size_t> nodes;
  for (size_t n : s_.socket_node) {
    bool all = true;
    for (size_t s = 0; s < s_.socket_node.size(); ++s) all = all && s_.pages->reaches(s, n);
    if (all) nodes.push_back(n);
  }
  return nodes;
}

size_t DcdAgent::destination() const {
  if (s_.pages->free_pages(s_.node) > 0) return s_.node;
  size_t best = kNone;
  for (size_t n : shared_socket_memories())
    if (s_.pages->free_pages(n) > 0 && (best == kNone || s_.pages->free_pages(n) > s_.pages->free_pages(best)))
      best = n;
  return best;
}

bool DcdAgent::release_step(int64_t now, Record& r, int64_t& wake) {
  PageMap& pages = *s_.pages;
  if (os_free_fs_ > now) {
    wake = std::min(wake, os_free_fs_);
    return false;
  }
  while (next_page_ < extent_pages_.size()) {
    const uint64_t v = extent_pages_[next_page_];
    const bool still_there = pages.placed(v) && pages.node_of(v) == s_.node &&
                             (pages.peek(v * pages.page_size()) / pages.page_size()) - pages.first_frame(s_.node) >=
                                 pages.online_frames(s_.node);
    if (!still_there) {  // another mover took it out meanwhile
      ++r.moved_by_others;
      ++next_page_;
      continue;
    }
    if (pages.in_flight(v)) {  // its copy into the extent has not ended
      wake = std::min(wake, pages.ready_fs(v));
      return false;
    }
    const size_t to = destination();
    if (to == kNone) return false;  // memory filled since the release began: wait for room
    const size_t copier = [&] {
      for (size_t s = 0; s < s_.socket_node.size(); ++s)
        if (s_.socket_node[s] == to) return s;
      return std::min<size_t>(s_.os->os_socket(), s_.socket_node.size() - 1);
    }();
    const int64_t os_done_fs = now + static_cast<int64_t>(s_.os->page_cycles()) * s_.os_cycle_fs;
    os_free_fs_ = mover_.move(v, to, now, os_done_fs, copier);  // the thread waits for its copy
    ++r.pages_moved;
    r.moved_within += to == s_.node;
    ++next_page_;
    return true;
  }
  return false;
}

void DcdAgent::finish_release(Record& r) {
  PageMap& pages = *s_.pages;
  pages.finish_release(s_.node);
  const uint64_t online = pages.online_frames(s_.node);
  for (uint64_t v : extent_pages_) {
    if (!pages.placed(v)) report_internal("page " + std::to_string(v) + " was lost by a release of " + s_.device);
    if (pages.node_of(v) == s_.node &&
        (pages.peek(v * pages.page_size()) / pages.page_size()) - pages.first_frame(s_.node) >= online)
      report_internal("page " + std::to_string(v) + " is still in the released extent of " + s_.device);
  }
  check("after the release");
  r.status = "done";
  r.end_ns = static_cast<double>(sim_now_fs()) / 1e6;
  r.online_after = online * pages.page_size();
  extent_pages_.clear();
}

nlohmann::ordered_json DcdAgent::report() const {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  const std::vector<DcdEvent>& schedule = s_.dcd->schedule();
  for (size_t k = 0; k < schedule.size(); ++k) {
    const Record& r = records_[k];
    nlohmann::ordered_json e{{"event", schedule[k].text}, {"status", r.status}};
    if (!r.reason.empty()) e["reason"] = r.reason;
    if (r.start_ns >= 0) e["start_ns"] = r.start_ns;
    if (r.end_ns >= 0) e["duration_ns"] = r.end_ns - r.start_ns;
    if (schedule[k].kind == DcdEvent::Kind::Release && r.start_ns >= 0) {
      e["pages_in_extent"] = r.pages_in_extent;
      e["pages_moved"] = r.pages_moved;
      e["pages_kept_on_device"] = r.moved_within;  // of those, moved below the extent
      e["pages_moved_by_others"] = r.moved_by_others;
    }
    if (r.status == "done" || r.status == "refused") e["online_bytes_after"] = r.online_after;
    events.push_back(std::move(e));
  }
  return {{"initial_bytes", s_.dcd->initial()},
          {"online_bytes", s_.pages->online_frames(s_.node) * s_.pages->page_size()},
          {"pages_on_device", s_.pages->pages_on(s_.node)},
          {"shootdowns_sent", mover_.shootdowns_sent()},
          {"lines_flushed", mover_.lines_flushed()},
          {"events", events}};
}

std::vector<std::string> DcdAgent::shortfalls() const {
  std::vector<std::string> out;
  const std::vector<DcdEvent>& schedule = s_.dcd->schedule();
  for (size_t k = 0; k < schedule.size(); ++k) {
    const Record& r = records_[k];
    const std::string what = s_.device + "'s dynamic-capacity event '" + schedule[k].text + "'";
    if (r.status == "pending") out.push_back(what + " did not come before the workload ended");
    else if (r.status != "done") out.push_back(what + " was " + r.status + ": " + r.reason);
  }
  return out;
}

}  // namespace starnuma
