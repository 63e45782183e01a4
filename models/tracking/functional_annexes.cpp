#include "tracking/functional_annexes.hpp"

#include <algorithm>

namespace starnuma {

FunctionalAnnexes::FunctionalAnnexes(const std::vector<Thread>& threads, bool annex_stlb, TrackerMetadata* metadata)
    : threads_(threads),
      annex_stlb_(annex_stlb),
      metadata_(metadata),
      max_count_(metadata ? metadata->layout().max_count() : 0) {
  for (const Thread& t : threads_) {
    // The annexed level's payloads hold the annex; an L1 DTLB in front of an annexed STLB keeps the
    // epoch in which its entry last met the annex's marker (nothing reads a translation's frame).
    dtlb_.emplace_back(t.dtlb_entries, t.dtlb_ways, Replacement::Lru, 1, true);
    stlb_.emplace_back(t.stlb_entries, t.stlb_ways, Replacement::Lru, 1, true);
  }
}

void FunctionalAnnexes::fold(unsigned socket, uint64_t ppage, uint32_t count) {
  if (!metadata_) return;
  FlushRequest f;
  f.ppage = ppage;
  f.count = count;
  f.socket = socket;
  const TrackerUpdateModel& layout = metadata_->layout();
  if (recording_) {
    const uint64_t address = layout.entry_address(ppage), before = metadata_->read(address);
    layout.update(f, *metadata_);
    updates_.push_back({socket, address, metadata_->read(address) != before});
  } else {
    layout.update(f, *metadata_);
  }
  ++flushes_;
}

void FunctionalAnnexes::flush(size_t t, uint64_t* p) {
  fold(threads_[t].socket, *p & kPageMask, static_cast<uint32_t>((*p >> kCountShift) & kCountMask));
  *p = annex_entry(*p & kPageMask);
}

void FunctionalAnnexes::flush_evicted(size_t t, uint64_t payload) {
  fold(threads_[t].socket, payload & kPageMask, static_cast<uint32_t>((payload >> kCountShift) & kCountMask));
}

bool FunctionalAnnexes::access(size_t t, uint64_t vpage, uint64_t ppage) {
  CacheArray &l1 = dtlb_[t], &l2 = stlb_[t];
  // The first access after a phase mark flushes, whichever level serves it.
  const auto check_mark = [&] {
    uint64_t* p = annexed(t).peek_payload(vpage);
    if (p && ((*p >> kEpochShift) & kEpochMask) != epoch_) flush(t, p);
  };
  if (uint64_t* p = l1.lookup_payload(vpage)) {
    if (!annex_stlb_) {
      check_mark();
    } else if (*p != epoch_) {  // the first L1 hit since the mark: the STLB annex's marker
      check_mark();
      *p = epoch_;
    }
    return false;
  }
  const bool walk = !l2.lookup_payload(vpage);
  if (!walk) {
    check_mark();
  } else {
    const CacheArray::Victim v = l2.fill(vpage, false, annex_stlb_ ? annex_entry(ppage) : ppage);
    if (v.valid && annex_stlb_) {
      flush_evicted(t, v.payload);
      l1.invalidate(v.line);  // the annexed STLB is inclusive
    }
  }
  const CacheArray::Victim v = l1.fill(vpage, false, annex_stlb_ ? epoch_ : annex_entry(ppage));
  if (v.valid && !annex_stlb_) flush_evicted(t, v.payload);
  return walk;
}

FunctionalAnnexes::Contents FunctionalAnnexes::contents(size_t t) const {
  Contents c;
  const auto list = [&](const CacheArray& level, bool annexed, std::vector<uint64_t>& out) {
    level.for_each_oldest_first([&](const CacheArray::Victim& e) {
      const bool marked = annexed && ((e.payload >> kEpochShift) & kEpochMask) != epoch_;
      out.push_back(e.line << 1 | (marked ? 1 : 0));
      if (annexed && metadata_) c.counts.push_back(static_cast<uint32_t>((e.payload >> kCountShift) & kCountMask));
    });
  };
  list(dtlb_[t], !annex_stlb_, c.dtlb);
  list(stlb_[t], annex_stlb_, c.stlb);
  return c;
}

void FunctionalAnnexes::llc_load(size_t t, uint64_t vpage) {
  uint64_t* p = annexed(t).peek_payload(vpage);
  if (!p) return;  // untracked: the translation left meanwhile
  const uint64_t count = (*p >> kCountShift) & kCountMask;
  if (count < max_count_) *p += uint64_t{1} << kCountShift;
}

void FunctionalAnnexes::shoot_down(uint64_t vpage) {
  for (size_t t = 0; t < threads_.size(); ++t) {
    const CacheArray::Victim a = dtlb_[t].invalidate(vpage), b = stlb_[t].invalidate(vpage);
    const CacheArray::Victim& annexed_victim = annex_stlb_ ? b : a;
    if (annexed_victim.valid) flush_evicted(t, annexed_victim.payload);
  }
}

}  // namespace starnuma
