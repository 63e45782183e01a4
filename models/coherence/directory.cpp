#include "coherence/directory.hpp"

namespace starnuma {

Directory::Directory(uint64_t entries, unsigned ways) : sets_(entries && ways ? entries / ways : 0), ways_(ways) {}

Directory::Slot* Directory::set_of(uint64_t block) {
  Slot*& set = sets_in_use_[block % sets_];
  if (!set) {
    if (chunk_used_ == kSetsPerChunk) {
      chunks_.push_back(std::make_unique<Slot[]>(kSetsPerChunk * ways_));
      chunk_used_ = 0;
    }
    set = chunks_.back().get() + chunk_used_++ * ways_;
  }
  return set;
}

const Directory::Slot* Directory::find_set(uint64_t block) const {
  Slot* const* set = sets_in_use_.find(block % sets_);
  return set ? *set : nullptr;
}

DirEntry* Directory::find(uint64_t block) {
  if (!bounded()) {
    return unbounded_.find(block);
  }
  Slot* set = set_of(block);
  for (unsigned w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].block == block) {
      set[w].last_use = ++clock_;
      return &set[w].entry;
    }
  return nullptr;
}

const DirEntry* Directory::peek(uint64_t block) const {
  if (!bounded()) {
    return unbounded_.find(block);
  }
  const Slot* set = find_set(block);
  if (!set) return nullptr;
  for (unsigned w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].block == block) return &set[w].entry;
  return nullptr;
}

DirEntry& Directory::obtain(uint64_t block, Victim& victim) {
  victim = Victim{};
  if (DirEntry* e = find(block)) return *e;
  if (!bounded()) return unbounded_[block];
  Slot* set = set_of(block);
  Slot* pick = &set[0];
  for (unsigned w = 0; w < ways_; ++w) {
    if (!set[w].valid) {
      pick = &set[w];
      break;
    }
    if (set[w].last_use < pick->last_use) pick = &set[w];
  }
  if (pick->valid) victim = Victim{true, pick->block, pick->entry};
  *pick = Slot{block, ++clock_, true, DirEntry{}};
  // The set's serialization point survives the eviction: the victim's back-invalidation is in it.
  pick->entry.hold(victim.entry.busy_from, victim.entry.busy_until);
  return pick->entry;
}

void Directory::release(uint64_t block) {
  if (!bounded()) {
    unbounded_.erase(block);
    return;
  }
  Slot* set = set_of(block);
  for (unsigned w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].block == block) set[w].valid = false;
}

}  // namespace starnuma
