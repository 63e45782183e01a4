#include "coherence/directory.hpp"

namespace starnuma {

Directory::Directory(uint64_t entries, unsigned ways) : sets_(entries && ways ? entries / ways : 0), ways_(ways) {}

Directory::Set Directory::set_of(uint64_t block) {
  Set& set = sets_in_use_[block % sets_];
  if (!set.blocks) {
    if (chunk_used_ == kSetsPerChunk) {
      const size_t n = kSetsPerChunk * ways_;
      Chunk c{std::make_unique<uint64_t[]>(n), std::make_unique<uint64_t[]>(n), std::make_unique<DirEntry[]>(n)};
      for (size_t i = 0; i < n; ++i) c.blocks[i] = kNoBlock;
      chunks_.push_back(std::move(c));
      chunk_used_ = 0;
    }
    const size_t first = chunk_used_++ * ways_;
    const Chunk& c = chunks_.back();
    set = Set{c.blocks.get() + first, c.last_use.get() + first, c.entries.get() + first};
  }
  return set;
}

const Directory::Set* Directory::find_set(uint64_t block) const { return sets_in_use_.find(block % sets_); }

DirEntry* Directory::find(uint64_t block) {
  if (!bounded()) return unbounded_.find(block);
  const Set set = set_of(block);
  const unsigned w = way_of(set, block);
  if (w == ways_) return nullptr;
  set.last_use[w] = ++clock_;
  return &set.entries[w];
}

const DirEntry* Directory::peek(uint64_t block) const {
  if (!bounded()) return unbounded_.find(block);
  const Set* set = find_set(block);
  if (!set) return nullptr;
  const unsigned w = way_of(*set, block);
  return w == ways_ ? nullptr : &set->entries[w];
}

DirEntry& Directory::obtain(uint64_t block, Victim& victim) {
  victim = Victim{};
  if (DirEntry* e = find(block)) return *e;
  if (!bounded()) return unbounded_[block];
  const Set set = set_of(block);
  unsigned pick = 0;
  for (unsigned w = 0; w < ways_; ++w) {
    if (set.blocks[w] == kNoBlock) {
      pick = w;
      break;
    }
    if (set.last_use[w] < set.last_use[pick]) pick = w;
  }
  if (set.blocks[pick] != kNoBlock) victim = Victim{true, set.blocks[pick], set.entries[pick]};
  set.blocks[pick] = block;
  set.last_use[pick] = ++clock_;
  set.entries[pick] = DirEntry{};
  // The set's serialization point survives the eviction: the victim's back-invalidation is in it.
  set.entries[pick].hold(victim.entry.busy_from, victim.entry.busy_until);
  return set.entries[pick];
}

void Directory::release(uint64_t block) {
  if (!bounded()) {
    unbounded_.erase(block);
    return;
  }
  const Set set = set_of(block);
  const unsigned w = way_of(set, block);
  if (w < ways_) set.blocks[w] = kNoBlock;
}

}  // namespace starnuma
