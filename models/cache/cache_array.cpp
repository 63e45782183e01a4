#include "cache/cache_array.hpp"

#include <algorithm>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
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
  if (payloads) payload_.assign(sets_ * ways_, 0);
}

CacheArray::Key CacheArray::key_of(uint64_t line) const {
  const uint64_t set = pow2_ ? (line & (sets_ - 1)) : line % sets_;
  const uint64_t tag = pow2_ ? (line >> set_shift_) : line / sets_;
  if (tag >= kDirty - 1) report_internal("cache key " + hex(line) + " is beyond the tag store's range");
  return Key{set, static_cast<uint32_t>(tag)};
}

size_t CacheArray::find(const Key& k) const {
  // At most one way can match; kEmpty never does because k.tag < kDirty - 1.
  const uint16_t* block = &blocks_[k.set * stride_];
  unsigned w = 0;
#ifdef __SSE2__
  // Four tags per compare (SSE2 is part of every x86-64).
  const __m128i key = _mm_set1_epi32(static_cast<int>(k.tag));
  const __m128i clean = _mm_set1_epi32(static_cast<int>(~kDirty));
  for (; w + 4 <= ways_; w += 4) {
    const __m128i tags4 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 2 * w));
    const int hits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(tags4, clean), key)));
    if (hits) return k.set * ways_ + w + static_cast<unsigned>(__builtin_ctz(static_cast<unsigned>(hits)));
  }
#endif
  unsigned match = ways_;
  for (; w < ways_; ++w) {
    uint32_t t;
    std::memcpy(&t, block + 2 * w, sizeof t);
    match = ((t & ~kDirty) == k.tag) ? w : match;
  }
  return match == ways_ ? kNone : k.set * ways_ + match;
}

uint16_t CacheArray::newest(const uint16_t* st) const {
#ifdef __SSE2__
  if (ways_ % 8 == 0) {
    // SSE2 compares 16-bit lanes as signed: flip the top bit to order unsigned stamps.
    const __m128i bias = _mm_set1_epi16(static_cast<short>(0x8000));
    __m128i most = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(st)), bias);
    for (unsigned w = 8; w < ways_; w += 8)
      most = _mm_max_epi16(most, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(st + w)), bias));
    most = _mm_max_epi16(most, _mm_shuffle_epi32(most, _MM_SHUFFLE(1, 0, 3, 2)));
    most = _mm_max_epi16(most, _mm_shuffle_epi32(most, _MM_SHUFFLE(2, 3, 0, 1)));
    most = _mm_max_epi16(most, _mm_shufflelo_epi16(most, _MM_SHUFFLE(2, 3, 0, 1)));
    return static_cast<uint16_t>(_mm_extract_epi16(most, 0) ^ 0x8000);
  }
#endif
  uint16_t most = 0;
  for (unsigned w = 0; w < ways_; ++w) most = st[w] > most ? st[w] : most;
  return most;
}

void CacheArray::stamp(uint64_t set, unsigned way) {
  // The newest stamp is the set's clock: only the order of stamps matters, so a clock kept apart
  // would cost a host cache line per access for nothing.
  uint16_t* st = stamps(set);
  uint16_t clock = newest(st);
  if (clock == UINT16_MAX) {
    // The clock would wrap: renumber the valid ways 1..n in recency order (empty ways stay 0).
    std::array<unsigned, 64> order;
    unsigned n = 0;
    for (unsigned w = 0; w < ways_; ++w)
      if (st[w] != 0) order[n++] = w;
    std::sort(order.begin(), order.begin() + n, [st](unsigned a, unsigned b) { return st[a] < st[b]; });
    for (unsigned i = 0; i < n; ++i) st[order[i]] = static_cast<uint16_t>(i + 1);
    clock = static_cast<uint16_t>(n);
  }
  st[way] = static_cast<uint16_t>(clock + 1);
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
  // The way with the smallest stamp (empty ways have 0; ties: the lowest way).
#ifdef __SSE2__
  if (ways_ % 8 == 0) {
    // SSE2 compares 16-bit lanes as signed: flip the top bit to order unsigned stamps.
    const __m128i bias = _mm_set1_epi16(static_cast<short>(0x8000));
    __m128i least = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(st)), bias);
    for (unsigned w = 8; w < ways_; w += 8)
      least = _mm_min_epi16(least, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(st + w)), bias));
    least = _mm_min_epi16(least, _mm_shuffle_epi32(least, _MM_SHUFFLE(1, 0, 3, 2)));
    least = _mm_min_epi16(least, _mm_shuffle_epi32(least, _MM_SHUFFLE(2, 3, 0, 1)));
    least = _mm_min_epi16(least, _mm_shufflelo_epi16(_mm_shufflehi_epi16(least, _MM_SHUFFLE(2, 3, 0, 1)),
                                                      _MM_SHUFFLE(2, 3, 0, 1)));  // every lane: the minimum
    for (unsigned w = 0; w < ways_; w += 8) {
      const __m128i lane = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(st + w)), bias);
      const int hits = _mm_movemask_epi8(_mm_cmpeq_epi16(lane, least));
      if (hits) return w + static_cast<unsigned>(__builtin_ctz(static_cast<unsigned>(hits))) / 2;
    }
  }
#endif
  unsigned oldest = 0;
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
