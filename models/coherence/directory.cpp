#include "coherence/directory.hpp"

#include <string>

#include "common/diagnostics.hpp"

namespace starnuma {

void DirEntry::hold_out_of_range(Time from, Time until) {
  report_internal("a coherence transaction holds its block from " + std::to_string(from.ps()) + " ps to " +
                  std::to_string(until.ps()) + " ps, beyond the directory's 4.29 ms");
}

Directory::Directory(uint64_t entries, unsigned ways) : sets_(entries && ways ? entries / ways : 0), ways_(ways) {}

uint64_t* Directory::set_of(uint64_t block) {
  uint64_t*& set = sets_in_use_[sets_.mod(block)];
  if (!set) {
    if (chunk_used_ == kSetsPerChunk) {
      const size_t n = kSetsPerChunk * ways_;
      chunks_.push_back(std::make_unique<uint64_t[]>(n));
      for (size_t i = 0; i < n; ++i) chunks_.back()[i] = kNoBlock;
      chunk_used_ = 0;
    }
    set = chunks_.back().get() + chunk_used_++ * ways_;
  }
  return set;
}

DirEntry* Directory::find(uint64_t block) {
  if (!bounded()) return unbounded_.find(block);
  Live* live = live_.find(block);
  if (!live) return nullptr;
  live->last_use = ++clock_;
  return &live->entry;
}

const DirEntry* Directory::peek(uint64_t block) const {
  if (!bounded()) return unbounded_.find(block);
  const Live* live = live_.find(block);
  return live ? &live->entry : nullptr;
}

DirEntry& Directory::obtain(uint64_t block, Victim& victim) {
  victim = Victim{};
  if (DirEntry* e = find(block)) return *e;
  if (!bounded()) return unbounded_[block];
  uint64_t* set = set_of(block);
  // The first empty way, else the least recently used one.
  unsigned pick = 0;
  uint64_t oldest = ~uint64_t{0};
  for (unsigned w = 0; w < ways_; ++w) {
    if (set[w] == kNoBlock) {
      pick = w;
      break;
    }
    const uint64_t use = live_.find(set[w])->last_use;
    if (use < oldest) {
      oldest = use;
      pick = w;
    }
  }
  if (set[pick] != kNoBlock) victim = Victim{true, set[pick], live_.take(set[pick])->entry};
  set[pick] = block;
  Live& live = live_[block];
  live.last_use = ++clock_;
  live.way = &set[pick];
  // The set's serialization point survives the eviction: the victim's back-invalidation is in it.
  live.entry.hold(victim.entry.busy_from, victim.entry.busy_until());
  return live.entry;
}

void Directory::release(uint64_t block) {
  if (!bounded()) {
    unbounded_.erase(block);
    return;
  }
  if (const std::optional<Live> gone = live_.take(block)) *gone->way = kNoBlock;
}

}  // namespace starnuma
