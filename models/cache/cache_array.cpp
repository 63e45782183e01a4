#include "cache/cache_array.hpp"

#include <string>

#include "common/diagnostics.hpp"

namespace starnuma {

CacheArray::CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed, bool payloads)
    : sets_(ways ? lines / ways : 0), ways_(ways), pow2_(false), policy_(policy), stride_(3 * static_cast<size_t>(ways)),
      rng_(seed ? seed : 1) {
  if (ways == 0 || lines == 0 || lines % ways != 0)
    report_internal("cache array of " + std::to_string(lines) + " lines cannot have " + std::to_string(ways) + " ways");
  pow2_ = (sets_ & (sets_ - 1)) == 0;
  blocks_.assign(sets_ * stride_, 0);
  for (uint64_t s = 0; s < sets_; ++s)
    for (unsigned w = 0; w < ways_; ++w) set_tag(s, w, kEmpty);  // stamps stay 0: empty ways go first
  clock_.assign(sets_, 0);
  if (payloads) payload_.assign(sets_ * ways_, 0);
}

size_t CacheArray::find(uint64_t line) const {
  const uint64_t set = set_of(line);
  for (unsigned w = 0; w < ways_; ++w) {
    const uint64_t t = tag(set, w);
    if ((t & ~kDirty) == line && t != kEmpty) return set * ways_ + w;
  }
  return kNone;
}

size_t CacheArray::touch(uint64_t line, bool write) {
  const size_t i = find(line);
  if (i == kNone) return kNone;
  const uint64_t set = i / ways_;
  const unsigned w = static_cast<unsigned>(i % ways_);
  stamps(set)[w] = ++clock_[set];
  if (write) set_tag(set, w, tag(set, w) | kDirty);
  return i;
}

const uint64_t* CacheArray::lookup(uint64_t line, bool write) {
  const size_t i = touch(line, write);
  if (i == kNone) return nullptr;
  return payload_.empty() ? &kEmpty : &payload_[i];
}

const uint64_t* CacheArray::peek(uint64_t line) const {
  const size_t i = find(line);
  if (i == kNone) return nullptr;
  return payload_.empty() ? &kEmpty : &payload_[i];
}

unsigned CacheArray::choose_victim(uint64_t set) {
  uint32_t* st = stamps(set);
  if (policy_ == Replacement::Random) {
    for (unsigned w = 0; w < ways_; ++w)
      if (st[w] == 0) return w;  // an empty way
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return static_cast<unsigned>(rng_ % ways_);
  }
  unsigned oldest = 0;  // empty ways have stamp 0, so they are the oldest
  for (unsigned w = 1; w < ways_; ++w)
    if (st[w] < st[oldest]) oldest = w;
  return oldest;
}

CacheArray::Victim CacheArray::fill(uint64_t line, bool dirty, uint64_t payload) {
  if (find(line) != kNone) report_internal("cache fill of a line already present");
  const uint64_t set = set_of(line);
  const unsigned w = choose_victim(set);
  const uint64_t old = tag(set, w);
  const size_t i = set * ways_ + w;
  Victim v;
  if (old != kEmpty) v = Victim{true, old & ~kDirty, (old & kDirty) != 0, payload_.empty() ? 0 : payload_[i]};
  set_tag(set, w, line | (dirty ? kDirty : 0));
  stamps(set)[w] = ++clock_[set];
  if (!payload_.empty()) payload_[i] = payload;
  return v;
}

CacheArray::Victim CacheArray::invalidate(uint64_t line) {
  const size_t i = find(line);
  if (i == kNone) return {};
  const uint64_t set = i / ways_;
  const unsigned w = static_cast<unsigned>(i % ways_);
  Victim v{true, line, (tag(set, w) & kDirty) != 0, payload_.empty() ? 0 : payload_[i]};
  set_tag(set, w, kEmpty);
  stamps(set)[w] = 0;
  return v;
}

}  // namespace starnuma
