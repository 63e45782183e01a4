// An open-addressing hash map from 64-bit keys (block or page numbers) to small values, for state
// kept per block on a simulation's hot path: one allocation when it grows, none per insert or
// erase (std::unordered_map allocates a node for each).
//
// Linear probing. Erasing leaves a tombstone, so an erase never moves other entries: a reference
// to an entry stays valid across erases of others, and until the next insert of a new key (which
// may rehash). An empty slot and a tombstone are told by their key, so a slot is the key and the
// value, aligned to a power of two (up to a host cache line) so that no slot straddles two lines:
// a lookup that finds its key at once costs one host memory access. The two largest keys are
// reserved for this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.hpp"
#include "common/host_prefetch.hpp"

namespace starnuma {

template <class V>
class FlatMap {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return slots_.size(); }

  V* find(uint64_t key) {
    const size_t i = locate(key);
    return i == kNone ? nullptr : &slots_[i].value;
  }
  const V* find(uint64_t key) const {
    const size_t i = locate(key);
    return i == kNone ? nullptr : &slots_[i].value;
  }

  // The value of `key`, inserted as V{} if absent.
  V& operator[](uint64_t key) {
    if (key >= kGone) report_internal("flat map key " + std::to_string(key) + " is reserved");
    if ((used_ + 1) * 4 > slots_.size() * 3)
      rehash(size_ * 2 + 2 > slots_.size() / 2 ? slots_.size() * 2 : slots_.size());
    size_t i = hash(key) & mask_, grave = kNone;
    for (;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return s.value;
      if (s.key == kGone && grave == kNone) grave = i;
      if (s.key == kEmpty) break;
    }
    if (grave != kNone) i = grave;
    else ++used_;
    ++size_;
    slots_[i].key = key;
    slots_[i].value = V{};
    return slots_[i].value;
  }

  // Calls f(key, value) for every entry, in the table's order (deterministic for the same inserts).
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key < kGone) f(s.key, s.value);
  }
  void clear() {
    slots_.clear();
    mask_ = size_ = used_ = 0;
  }

  // Brings the slot `key` hashes to into the host's caches (no effect on the map).
  void prefetch(uint64_t key) const {
    if (!slots_.empty()) host_prefetch(&slots_[hash(key) & mask_]);
  }

  bool erase(uint64_t key) {
    const size_t i = locate(key);
    if (i == kNone) return false;
    erase_at(i);
    return true;
  }
  // Erases `key` and returns its value (nothing if absent), with one probe.
  std::optional<V> take(uint64_t key) {
    const size_t i = locate(key);
    if (i == kNone) return std::nullopt;
    std::optional<V> value(std::move(slots_[i].value));
    erase_at(i);
    return value;
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0}, kGone = kEmpty - 1;  // reserved keys
  static constexpr size_t kNone = ~size_t{0};
  struct Entry {
    uint64_t key;
    V value;
  };
  static constexpr size_t slot_align() {
    size_t a = alignof(Entry);
    while (a < sizeof(Entry) && a < 64) a *= 2;
    return a;
  }
  struct alignas(slot_align()) Slot {
    uint64_t key = kEmpty;
    V value{};
  };

  static uint64_t hash(uint64_t k) {  // a 64-bit finalizer: consecutive blocks spread over the table
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
  }

  void erase_at(size_t i) {
    slots_[i].key = kGone;
    slots_[i].value = V{};
    --size_;
  }

  size_t locate(uint64_t key) const {
    if (slots_.empty() || key >= kGone) return kNone;
    for (size_t i = hash(key) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return i;
      if (s.key == kEmpty) return kNone;
    }
  }

  // Rebuilds the table with `capacity` slots (a power of two, at least 16), dropping tombstones.
  // Rare: out of line, so that every insert inlined on a hot path stays small.
  [[gnu::noinline, gnu::cold]] void rehash(size_t capacity) {
    if (capacity < 16) capacity = 16;
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    mask_ = capacity - 1;
    used_ = size_;
    for (const Slot& s : old) {
      if (s.key >= kGone) continue;
      size_t i = hash(s.key) & mask_;
      while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;  // full slots
  size_t used_ = 0;  // full and tombstone slots
};

}  // namespace starnuma
