#include "cache/cache_array.hpp"

#include <string>

#include "common/diagnostics.hpp"

namespace starnuma {

namespace {
constexpr size_t npos = ~size_t{0};
}

CacheArray::CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed)
    : sets_(ways ? lines / ways : 0), ways_(ways), pow2_(false), policy_(policy), rng_(seed ? seed : 1) {
  if (ways == 0 || lines == 0 || lines % ways != 0)
    report_internal("cache array of " + std::to_string(lines) + " lines cannot have " + std::to_string(ways) + " ways");
  pow2_ = (sets_ & (sets_ - 1)) == 0;
  tags_.assign(sets_ * ways_, kEmpty);
  stamps_.assign(sets_ * ways_, 0);
  dirty_.assign(sets_ * ways_, 0);
  payload_.assign(sets_ * ways_, 0);
  clock_.assign(sets_, 0);
}

size_t CacheArray::find(uint64_t line) const {
  const size_t base = static_cast<size_t>(set_of(line)) * ways_;
  for (size_t i = base; i < base + ways_; ++i)
    if (tags_[i] == line) return i;
  return npos;
}

const uint64_t* CacheArray::lookup(uint64_t line, bool write) {
  const size_t i = find(line);
  if (i == npos) return nullptr;
  stamps_[i] = ++clock_[i / ways_];
  if (write) dirty_[i] = 1;
  return &payload_[i];
}

bool CacheArray::contains(uint64_t line) const { return find(line) != npos; }

const uint64_t* CacheArray::peek(uint64_t line) const {
  const size_t i = find(line);
  return i == npos ? nullptr : &payload_[i];
}

size_t CacheArray::choose_victim(uint64_t set) {
  const size_t base = static_cast<size_t>(set) * ways_;
  for (size_t i = base; i < base + ways_; ++i)
    if (tags_[i] == kEmpty) return i;
  if (policy_ == Replacement::Random) {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return base + static_cast<size_t>(rng_ % ways_);
  }
  size_t oldest = base;
  for (size_t i = base + 1; i < base + ways_; ++i)
    if (stamps_[i] < stamps_[oldest]) oldest = i;
  return oldest;
}

CacheArray::Victim CacheArray::fill(uint64_t line, bool dirty, uint64_t payload) {
  if (find(line) != npos) report_internal("cache fill of a line already present");
  const uint64_t set = set_of(line);
  const size_t i = choose_victim(set);
  Victim v;
  if (tags_[i] != kEmpty) v = Victim{true, tags_[i], dirty_[i] != 0, payload_[i]};
  tags_[i] = line;
  dirty_[i] = dirty ? 1 : 0;
  payload_[i] = payload;
  stamps_[i] = ++clock_[static_cast<size_t>(set)];
  return v;
}

CacheArray::Victim CacheArray::invalidate(uint64_t line) {
  const size_t i = find(line);
  if (i == npos) return {};
  Victim v{true, line, dirty_[i] != 0, payload_[i]};
  tags_[i] = kEmpty;
  dirty_[i] = 0;
  stamps_[i] = 0;
  return v;
}

}  // namespace starnuma
