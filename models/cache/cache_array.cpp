#include "cache/cache_array.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

CacheArray::CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed, bool payloads)
    : sets_(ways ? lines / ways : 0), ways_(ways), pow2_(false), policy_(policy), stride_(3 * static_cast<size_t>(ways)),
      rng_(seed ? seed : 1) {
  if (ways == 0 || lines == 0 || lines % ways != 0)
    report_internal("cache array of " + std::to_string(lines) + " lines cannot have " + std::to_string(ways) + " ways");
  pow2_ = (sets_ & (sets_ - 1)) == 0;
  while (pow2_ && (uint64_t{1} << set_shift_) < sets_) ++set_shift_;
  blocks_.assign(sets_ * stride_, 0);
  for (uint64_t s = 0; s < sets_; ++s)
    for (unsigned w = 0; w < ways_; ++w) set_tag(s, w, kEmpty);  // stamps stay 0: empty ways go first
  clock_.assign(sets_, 0);
  if (payloads) payload_.assign(sets_ * ways_, 0);
}

CacheArray::Key CacheArray::key_of(uint64_t line) const {
  const uint64_t set = pow2_ ? (line & (sets_ - 1)) : line % sets_;
  const uint64_t tag = pow2_ ? (line >> set_shift_) : line / sets_;
  if (tag >= kDirty - 1) report_internal("cache key " + hex(line) + " is beyond the tag store's range");
  return Key{set, static_cast<uint32_t>(tag)};
}

size_t CacheArray::find(const Key& k) const {
  // Branch-free over the set's tags (the compiler vectorises it); at most one way can match, and
  // kEmpty never does because k.tag < kDirty - 1.
  const uint16_t* block = &blocks_[k.set * stride_];
  unsigned match = ways_;
  for (unsigned w = 0; w < ways_; ++w) {
    uint32_t t;
    std::memcpy(&t, block + 2 * w, sizeof t);
    match = ((t & ~kDirty) == k.tag) ? w : match;
  }
  return match == ways_ ? kNone : k.set * ways_ + match;
}

void CacheArray::stamp(uint64_t set, unsigned way) {
  uint16_t* st = stamps(set);
  if (clock_[set] == UINT16_MAX) {
    // The clock would wrap: renumber the valid ways 1..n in recency order (empty ways stay 0).
    std::array<unsigned, 64> order;
    unsigned n = 0;
    for (unsigned w = 0; w < ways_; ++w)
      if (st[w] != 0) order[n++] = w;
    std::sort(order.begin(), order.begin() + n, [st](unsigned a, unsigned b) { return st[a] < st[b]; });
    for (unsigned i = 0; i < n; ++i) st[order[i]] = static_cast<uint16_t>(i + 1);
    clock_[set] = static_cast<uint16_t>(n);
  }
  st[way] = ++clock_[set];
}

size_t CacheArray::touch(uint64_t line, bool write) {
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return kNone;
  const unsigned w = static_cast<unsigned>(i % ways_);
  stamp(k.set, w);
  if (write) set_tag(k.set, w, tag(k.set, w) | kDirty);
  return i;
}

const uint64_t* CacheArray::lookup(uint64_t line, bool write) {
  static const uint64_t present = 0;
  const size_t i = touch(line, write);
  if (i == kNone) return nullptr;
  return payload_.empty() ? &present : &payload_[i];
}

const uint64_t* CacheArray::peek(uint64_t line) const {
  static const uint64_t present = 0;
  const size_t i = find(key_of(line));
  if (i == kNone) return nullptr;
  return payload_.empty() ? &present : &payload_[i];
}

unsigned CacheArray::choose_victim(uint64_t set) {
  uint16_t* st = stamps(set);
  if (policy_ == Replacement::Random) {
    for (unsigned w = 0; w < ways_; ++w)
      if (st[w] == 0) return w;  // an empty way
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return static_cast<unsigned>(rng_ % ways_);
  }
  unsigned oldest = 0;  // empty ways have stamp 0, so they are the oldest
  uint16_t least = st[0];
  for (unsigned w = 1; w < ways_; ++w) {
    const bool older = st[w] < least;
    least = older ? st[w] : least;
    oldest = older ? w : oldest;
  }
  return oldest;
}

CacheArray::Victim CacheArray::fill(uint64_t line, bool dirty, uint64_t payload) {
  const Key k = key_of(line);
#ifndef NDEBUG
  if (find(k) != kNone) report_internal("cache fill of a line already present");
#endif
  const unsigned w = choose_victim(k.set);
  const uint32_t old = tag(k.set, w);
  const size_t i = k.set * ways_ + w;
  Victim v;
  if (old != kEmpty)
    v = Victim{true, line_of_tag(k.set, old), (old & kDirty) != 0, payload_.empty() ? 0 : payload_[i]};
  set_tag(k.set, w, k.tag | (dirty ? kDirty : 0));
  stamp(k.set, w);
  if (!payload_.empty()) payload_[i] = payload;
  return v;
}

CacheArray::Victim CacheArray::invalidate(uint64_t line) {
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return {};
  const unsigned w = static_cast<unsigned>(i % ways_);
  Victim v{true, line, (tag(k.set, w) & kDirty) != 0, payload_.empty() ? 0 : payload_[i]};
  set_tag(k.set, w, kEmpty);
  stamps(k.set)[w] = 0;
  return v;
}

}  // namespace starnuma
