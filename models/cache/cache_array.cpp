#include "cache/cache_array.hpp"

#include <algorithm>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <cstring>
#include <string>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

template <>
const std::vector<std::string>& names_of<Replacement>() {
  static const std::vector<std::string> names{"lru", "random"};
  return names;
}

CacheArray::CacheArray(uint64_t lines, unsigned ways, Replacement policy, uint64_t seed, bool payloads,
                       unsigned state_bits)
    : sets_(ways ? lines / ways : 0),
      ways_(ways),
      policy_(policy),
      state_shift_(31 - state_bits),
      states_(static_cast<uint32_t>(((uint64_t{1} << state_bits) - 1) << state_shift_)),
      key_mask_(~(kDirty | states_)),
      stride_(0),
      rng_(seed ? seed : 1) {
  if (ways == 0 || lines == 0 || lines % ways != 0)
    report_internal("cache array of " + std::to_string(lines) + " lines cannot have " + std::to_string(ways) + " ways");
  if (state_bits > kMaxStateBits)
    report_internal("a cache array keeps at most " + std::to_string(kMaxStateBits) + " state bits per tag, not " +
                    std::to_string(state_bits));
  // Up to 16 ways, a power of two (a set never straddles two host lines); beyond, whole lines.
  stride_ = 1;
  while (stride_ < ways_ && stride_ < 16) stride_ *= 2;
  if (ways_ > 16) stride_ = (ways_ + 15) / 16 * 16;
  const size_t bytes = (sets_.value() * stride_ * sizeof(uint32_t) + 63) / 64 * 64;
  tags_.reset(static_cast<uint32_t*>(std::aligned_alloc(64, bytes)));
  if (!tags_) report_internal("cannot allocate a cache array of " + std::to_string(bytes) + " bytes");
  std::fill(tags_.get(), tags_.get() + bytes / sizeof(uint32_t), kEmpty);
  if (payloads) payload_.assign(sets_.value() * ways_, 0);
}

unsigned CacheArray::state_bits_for(uint64_t lines, unsigned ways, uint64_t line_end) {
  const uint64_t sets = ways ? lines / ways : 0;
  if (sets == 0) return 0;
  // The largest key, (line_end - 1) / sets, must stay below the key mask, 2^(31 - bits) - 1.
  const uint64_t top_key = line_end == 0 ? 0 : (line_end - 1) / sets;
  unsigned bits = kMaxStateBits;
  while (bits > 0 && top_key >= (uint64_t{1} << (31 - bits)) - 1) --bits;
  return bits;
}

void CacheArray::out_of_range(uint64_t line) {
  report_internal("cache key " + hex(line) + " is beyond the tag store's range");
}

size_t CacheArray::find(const Key& k) const {
  // At most one way can match; kEmpty never does because k.tag < key_mask_.
  const uint32_t* b = &tags_[k.set * stride_];
  unsigned w = 0;
#ifdef __SSE2__
  // Four tags per compare (SSE2 is part of every x86-64).
  const __m128i key = _mm_set1_epi32(static_cast<int>(k.tag));
  const __m128i clean = _mm_set1_epi32(static_cast<int>(key_mask_));
  for (; w + 4 <= ways_; w += 4) {
    const __m128i tags4 = _mm_load_si128(reinterpret_cast<const __m128i*>(b + w));
    const int hits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(tags4, clean), key)));
    if (hits) return w + static_cast<unsigned>(__builtin_ctz(static_cast<unsigned>(hits)));
  }
#endif
  for (; w < ways_; ++w)
    if ((b[w] & key_mask_) == k.tag) return w;
  return kNone;
}

namespace {

#ifdef __SSE2__
// The lane numbers k to k + 3; and the store of four tags, `moved` in the lanes `move` marks and
// `kept` in the others.
__m128i lanes_from(size_t k) {
  return _mm_setr_epi32(static_cast<int>(k), static_cast<int>(k + 1), static_cast<int>(k + 2), static_cast<int>(k + 3));
}
void select_store(uint32_t* at, __m128i move, __m128i moved, __m128i kept) {
  _mm_store_si128(reinterpret_cast<__m128i*>(at),
                  _mm_or_si128(_mm_and_si128(move, moved), _mm_andnot_si128(move, kept)));
}

// Moves the tag at position `from` of a `Stride`-tag block (aligned, a multiple of four) to the
// front, the ones before it back by one: four tags a register, every lane at or before `from`
// takes its left neighbour, the others keep theirs, and lane 0 takes the moved tag. Branch-free
// and unrolled.
template <size_t Stride>
void rotate_to_front(uint32_t* b, size_t from) {
  const __m128i limit = _mm_set1_epi32(static_cast<int>(from) + 1);
  __m128i carry = _mm_cvtsi32_si128(static_cast<int>(b[from]));
  carry = _mm_slli_si128(carry, 12);  // enters lane 0 as the shift below carries it in
  for (size_t k = 0; k < Stride; k += 4) {
    const __m128i cur = _mm_load_si128(reinterpret_cast<const __m128i*>(b + k));
    const __m128i shifted = _mm_or_si128(_mm_slli_si128(cur, 4), _mm_srli_si128(carry, 12));
    select_store(b + k, _mm_cmplt_epi32(lanes_from(k), limit), shifted, cur);
    carry = cur;
  }
}

// Enters `tag` at the front of a full `Stride`-tag block, every tag moving back one and the last
// one falling off: a fill evicting the last way when every lane of the block is a way. No lane
// keeps its tag, so no mask, unlike rotate_to_front.
template <size_t Stride>
void push_front(uint32_t* b, uint32_t tag) {
  __m128i carry = _mm_cvtsi32_si128(static_cast<int>(tag));
  for (size_t k = 0; k < Stride; k += 4) {
    const __m128i cur = _mm_load_si128(reinterpret_cast<const __m128i*>(b + k));
    _mm_store_si128(reinterpret_cast<__m128i*>(b + k), _mm_or_si128(_mm_slli_si128(cur, 4), carry));
    carry = _mm_srli_si128(cur, 12);
  }
}

// Removes the tag at position `at` of a `Stride`-tag block, the ones after it moving up one and an
// empty way entering last (the lanes beyond the ways are empty already): every lane after `at`
// takes its right neighbour, branch-free, as rotate_to_front.
template <size_t Stride>
void remove_at(uint32_t* b, size_t at) {
  const __m128i before = _mm_set1_epi32(static_cast<int>(at) - 1);
  __m128i cur = _mm_load_si128(reinterpret_cast<const __m128i*>(b));
  for (size_t k = 0; k < Stride; k += 4) {
    const __m128i next =
        k + 4 < Stride ? _mm_load_si128(reinterpret_cast<const __m128i*>(b + k + 4)) : _mm_set1_epi32(-1);  // kEmpty
    const __m128i shifted = _mm_or_si128(_mm_srli_si128(cur, 4), _mm_slli_si128(next, 12));
    select_store(b + k, _mm_cmpgt_epi32(lanes_from(k), before), shifted, cur);
    cur = next;
  }
}
#endif

}  // namespace

// Moves at most a set's worth, 15 tags for a full 16-way set on every fill.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))  // the loops stay loops, not calls to memmove
#endif
void CacheArray::to_front(uint64_t set, size_t from) {
  if (from == 0) return;
  uint32_t* b = block(set);
  switch (stride_) {
#ifdef __SSE2__
    case 4: rotate_to_front<4>(b, from); break;
    case 8: rotate_to_front<8>(b, from); break;
    case 16: rotate_to_front<16>(b, from); break;
#endif
    default: {
      const uint32_t t = b[from];
      for (size_t i = from; i > 0; --i) b[i] = b[i - 1];
      b[0] = t;
    }
  }
  if (!payload_.empty()) {
    uint64_t* p = &payload_[set * ways_];
    const uint64_t v = p[from];
    for (size_t i = from; i > 0; --i) p[i] = p[i - 1];
    p[0] = v;
  }
}

bool CacheArray::touch(const Key& k, bool write, uint32_t add) {
  const size_t i = find(k);
  if (i == kNone) return false;
  block(k.set)[i] |= (write ? kDirty : 0) | add;
  to_front(k.set, i);
  return true;
}

const uint64_t* CacheArray::lookup(uint64_t line, bool write) {
  static const uint64_t present = 0;
  const Key k = key_of(line);
  if (!touch(k, write)) return nullptr;
  return payload_.empty() ? &present : &payload_[k.set * ways_];  // now the front
}

const uint64_t* CacheArray::peek(uint64_t line) const {
  static const uint64_t present = 0;
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return nullptr;
  return payload_.empty() ? &present : &payload_[k.set * ways_ + i];
}

size_t CacheArray::choose_victim(uint64_t set) {
  // Empty ways are last: the last way is empty if any is, else the least recently used line.
  if (policy_ == Replacement::Lru || block(set)[ways_ - 1] == kEmpty) return ways_ - 1;
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  return static_cast<size_t>(rng_ % ways_);
}

namespace {
// Moves a set's payloads one way down and puts `payload` first, by copies of constant size through
// a buffer, which the compiler inlines (an overlapping move of a run-time size is a library call).
template <size_t N>
void shift_in_n(uint64_t* p, uint64_t payload) {
  uint64_t buffer[N];
  std::memcpy(buffer, p, (N - 1) * sizeof(uint64_t));
  std::memcpy(p + 1, buffer, (N - 1) * sizeof(uint64_t));
  p[0] = payload;
}
}  // namespace

void CacheArray::shift_in(uint64_t* p, uint64_t payload) const {
  switch (ways_) {
    case 4: shift_in_n<4>(p, payload); break;
    case 8: shift_in_n<8>(p, payload); break;
    case 16: shift_in_n<16>(p, payload); break;
    default: std::memmove(p + 1, p, (ways_ - 1) * sizeof(uint64_t)); p[0] = payload;
  }
}

void CacheArray::set_state(uint64_t line, unsigned state, unsigned mask) {
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return;
  uint32_t& tag = block(k.set)[i];
  const uint32_t changed = state_bits(mask);
  tag = (tag & ~changed) | (state_bits(state) & changed);
}

unsigned CacheArray::state_promoting(uint64_t line, unsigned from, unsigned to) {
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return 0;
  uint32_t& tag = block(k.set)[i];
  const unsigned held = state_of(tag);
  if (held == from) tag = (tag & ~states_) | state_bits(to);
  return held;
}

CacheArray::Victim CacheArray::fill(uint64_t line, bool dirty, uint64_t payload, unsigned state) {
  const Key k = key_of(line);
#ifndef NDEBUG
  if (find(k) != kNone) report_internal("cache fill of a line already present");
#endif
  const size_t w = choose_victim(k.set);
  uint32_t* b = block(k.set);
  const uint32_t old = b[w];
  Victim v;
  if (old != kEmpty)
    v = Victim{true, line_of_tag(k.set, old), (old & kDirty) != 0, payload_.empty() ? 0 : payload_[k.set * ways_ + w],
               state_of(old)};
  const uint32_t tag = k.tag | (dirty ? kDirty : 0) | state_bits(state);
#ifdef __SSE2__
  // The usual fill: the last way goes and the set is one full block of 4, 8 or 16 ways.
  if (w == ways_ - 1 && stride_ == ways_ && stride_ % 4 == 0 && stride_ <= 16) {
    switch (stride_) {
      case 4: push_front<4>(b, tag); break;
      case 8: push_front<8>(b, tag); break;
      default: push_front<16>(b, tag); break;
    }
    if (!payload_.empty()) shift_in(&payload_[k.set * ways_], payload);
    return v;
  }
#endif
  b[w] = tag;
  if (!payload_.empty()) payload_[k.set * ways_ + w] = payload;
  to_front(k.set, w);
  return v;
}

CacheArray::Victim CacheArray::invalidate(uint64_t line) {
  const Key k = key_of(line);
  const size_t i = find(k);
  if (i == kNone) return {};
  uint32_t* b = block(k.set);
  Victim v{true, line, (b[i] & kDirty) != 0, payload_.empty() ? 0 : payload_[k.set * ways_ + i], state_of(b[i])};
  // The ways after it move up one: empty ways stay last. (A few words: a loop, not a library call.)
  switch (stride_) {
#ifdef __SSE2__
    case 4: remove_at<4>(b, i); break;
    case 8: remove_at<8>(b, i); break;
    case 16: remove_at<16>(b, i); break;
#endif
    default:
      for (size_t j = i; j + 1 < ways_; ++j) b[j] = b[j + 1];
      b[ways_ - 1] = kEmpty;
  }
  if (!payload_.empty()) {
    uint64_t* p = &payload_[k.set * ways_];
    for (size_t j = i; j + 1 < ways_; ++j) p[j] = p[j + 1];
    p[ways_ - 1] = 0;
  }
  return v;
}

}  // namespace starnuma
