#include "os/page_mover.hpp"

#include <algorithm>
#include <limits>

#include "coherence/coherence.hpp"
#include "fabric/fabric.hpp"

namespace starnuma {

namespace {
constexpr uint64_t kCopyLine = 64;  // bytes the copy and the cache flush move per access
}

void OverlapPeak::add(int64_t begin, int64_t end) {
  events_.push({begin, +1});
  events_.push({end, -1});
}

void OverlapPeak::sweep(Events& events, int64_t upto, size_t& open, size_t& peak) {
  while (!events.empty() && events.top().first <= upto) {
    open += static_cast<size_t>(events.top().second > 0);
    open -= static_cast<size_t>(events.top().second < 0);
    peak = std::max(peak, open);
    events.pop();
  }
}

void OverlapPeak::settle(int64_t now) { sweep(events_, now, open_, peak_); }

size_t OverlapPeak::peak() const {
  Events rest = events_;
  size_t open = open_, peak = peak_;
  sweep(rest, std::numeric_limits<int64_t>::max(), open, peak);
  return peak;
}

void PageMover::shoot_down(uint64_t vpage, int64_t at_ps) {
  const uint64_t before = shootdowns_sent_;
  for (SocketLlc* llc : llcs_)
    for (CacheHierarchy* h : llc->members)
      if (h->holds_translation(vpage)) {
        h->shoot_down(vpage);
        ++shootdowns_sent_;
      }
  if (waves_ && shootdowns_sent_ != before)
    waves_->set(shootdowns_signal_, at_ps >= 0 ? at_ps : static_cast<int64_t>(sc_core::sc_time_stamp().value()),
                static_cast<int64_t>(shootdowns_sent_));
}

int64_t PageMover::move(uint64_t vpage, size_t to, int64_t flush_fs, int64_t copy_fs, size_t copier) {
  const PageMap::Moved moved = pages_.move(vpage, to);
  fabric_.page_moved(moved.from * pages_.page_size(), moved.to * pages_.page_size(), pages_.page_size());
  shoot_down(vpage, flush_fs / 1000);
  flush_page(moved.from, Time::from_ps(flush_fs / 1000));
  const Time copy = Time::from_ps((copy_fs + 999) / 1000);
  Time done = copy;
  const uint64_t page = pages_.page_size();
  for (uint64_t off = 0; off < page; off += kCopyLine) {
    const Time read = fabric_.access(copier, MemAccess{MemOp::Read, moved.from * page + off, nullptr}, copy);
    done = std::max(done, fabric_.access(copier, MemAccess{MemOp::Write, moved.to * page + off, nullptr}, read));
  }
  const int64_t done_fs = done.ps() * 1000;
  if (waves_) {
    waves_->add(in_flight_signal_, flush_fs / 1000, 1);
    waves_->add(in_flight_signal_, done.ps(), -1);
  }
  pages_.set_in_flight(vpage, done_fs);
  copies_.push_back({done_fs, vpage, moved.from});
  copies_peak_.add(flush_fs, done_fs);
  return done_fs;
}

void PageMover::attach_waves(Waves& waves) {
  in_flight_signal_ = waves.level("os.migration", "pages_in_flight", 16);
  shootdowns_signal_ = waves.value("os.migration", "shootdowns", 32);
  if (in_flight_signal_ != Waves::kOff || shootdowns_signal_ != Waves::kOff) waves_ = &waves;
}

void PageMover::land(int64_t now) {
  copies_peak_.settle(now);
  for (size_t k = 0; k < copies_.size();) {
    if (copies_[k].done_fs > now) {
      ++k;
      continue;
    }
    pages_.clear_in_flight(copies_[k].vpage);
    pages_.release(copies_[k].old_frame);
    copies_[k] = copies_.back();
    copies_.pop_back();
  }
}

int64_t PageMover::next_landing() const {
  int64_t next = std::numeric_limits<int64_t>::max();
  for (const Copy& c : copies_) next = std::min(next, c.done_fs);
  return next;
}

void PageMover::flush_page(uint64_t ppage, Time at) {
  const uint64_t lines = pages_.page_size() / kCopyLine;
  for (size_t s = 0; s < llcs_.size(); ++s) {
    SocketLlc& llc = *llcs_[s];
    for (uint64_t line = ppage * lines; line < (ppage + 1) * lines; ++line) {
      const uint64_t addr = line * kCopyLine;
      if (coherence_) {
        const MesiState held = coherence_->state(s, addr);
        if (held == MesiState::I) continue;
        ++lines_flushed_;
        llc.purge_private(line, llc.array.invalidate(line).state);
        if (coherence_->evict(s, addr, held, at)) ++dirty_lines_;
        continue;
      }
      const CacheArray::Victim v = llc.array.invalidate(line);
      bool dirty = v.dirty;
      for (CacheHierarchy* m : llc.members) dirty = m->invalidate_private(line) || dirty;
      if (v.valid || dirty) ++lines_flushed_;
      if (dirty) {
        ++dirty_lines_;
        fabric_.access(s, MemAccess{MemOp::Write, addr, nullptr}, at);
      }
    }
  }
}

uint64_t PageMover::shootdowns_unprocessed() const {
  uint64_t n = 0;
  for (SocketLlc* llc : llcs_)
    for (const CacheHierarchy* h : llc->members) n += h->pending_shootdowns();
  return n;
}

}  // namespace starnuma
