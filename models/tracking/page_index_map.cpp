#include "tracking/page_index_map.hpp"

namespace starnuma {

PageIndexMap::PageIndexMap(unsigned entries) : entries_(entries) {
  size_t capacity = 4;
  while (capacity < 2 * static_cast<size_t>(entries)) capacity *= 2;  // load factor <= 1/2
  mask_ = capacity - 1;
  slots_.resize(capacity);
  free_.reserve(entries);
  for (unsigned i = entries; i-- > 0;) free_.push_back(i);
}

unsigned PageIndexMap::find(uint64_t vpage) const {
  for (size_t s = home(vpage);; s = (s + 1) & mask_) {
    const Slot& slot = slots_[s];
    if (slot.index == kNone) return kNone;
    if (slot.vpage == vpage) return slot.index;
  }
}

unsigned PageIndexMap::insert(uint64_t vpage) {
  if (free_.empty()) return kNone;
  size_t s = home(vpage);
  while (slots_[s].index != kNone) s = (s + 1) & mask_;
  slots_[s] = Slot{vpage, free_.back()};
  free_.pop_back();
  return slots_[s].index;
}

unsigned PageIndexMap::erase(uint64_t vpage) {
  size_t s = home(vpage);
  while (slots_[s].index != kNone && slots_[s].vpage != vpage) s = (s + 1) & mask_;
  const unsigned index = slots_[s].index;
  if (index == kNone) return kNone;
  free_.push_back(index);
  // Backward shift: pull later members of the probe run into the hole so find() never stops early.
  size_t hole = s;
  for (size_t next = (hole + 1) & mask_; slots_[next].index != kNone; next = (next + 1) & mask_) {
    const size_t want = home(slots_[next].vpage);
    // Movable when its home is not cyclically inside (hole, next].
    if (((next - want) & mask_) >= ((next - hole) & mask_)) {
      slots_[hole] = slots_[next];
      hole = next;
    }
  }
  slots_[hole] = Slot{};
  return index;
}

}  // namespace starnuma
