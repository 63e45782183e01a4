#include "coherence/directory.hpp"

namespace starnuma {

Directory::Directory(uint64_t entries, unsigned ways) : sets_(entries && ways ? entries / ways : 0), ways_(ways) {}

std::vector<Directory::Slot>& Directory::set_of(uint64_t block) {
  std::vector<Slot>& set = bounded_[block % sets_];
  if (set.empty()) set.resize(ways_);
  return set;
}

DirEntry* Directory::find(uint64_t block) {
  if (!bounded()) {
    return unbounded_.find(block);
  }
  for (Slot& s : set_of(block))
    if (s.valid && s.block == block) {
      s.last_use = ++clock_;
      return &s.entry;
    }
  return nullptr;
}

const DirEntry* Directory::peek(uint64_t block) const {
  if (!bounded()) {
    return unbounded_.find(block);
  }
  auto set = bounded_.find(block % sets_);
  if (set == bounded_.end()) return nullptr;
  for (const Slot& s : set->second)
    if (s.valid && s.block == block) return &s.entry;
  return nullptr;
}

DirEntry& Directory::obtain(uint64_t block, Victim& victim) {
  victim = Victim{};
  if (DirEntry* e = find(block)) return *e;
  if (!bounded()) return unbounded_[block];
  std::vector<Slot>& set = set_of(block);
  Slot* pick = &set[0];
  for (Slot& s : set) {
    if (!s.valid) {
      pick = &s;
      break;
    }
    if (s.last_use < pick->last_use) pick = &s;
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
  for (Slot& s : set_of(block))
    if (s.valid && s.block == block) s.valid = false;
}

}  // namespace starnuma
