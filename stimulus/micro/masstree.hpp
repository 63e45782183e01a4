// `masstree`: a key-value store built as Masstree is (Mao, Kohler, Morris, EuroSys 2012): a trie
// whose layers are B+-trees over 8-byte slices of the key. Keys are 16-byte strings ("user" and 12
// digits, as YCSB names its records), so layer 0 orders the first slice ("userDDDD") and each slice
// shared by several keys leads to a layer-1 B+-tree over the next eight digits; a slice held by one
// key keeps the rest of that key as a suffix in its border node, and becomes a layer when a second
// key arrives, as Masstree does. The trees are really built by the parallel load, so node splits,
// fill factors and depths are those of random insertion; nodes come from the inserting thread's
// pool (Masstree's per-thread allocators), which decides their first touch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stimulus/micro/micro.hpp"

namespace starnuma::micro {

class Masstree {
 public:
  static constexpr unsigned kWidth = 15;                   // keys per node, Masstree's default
  static constexpr uint64_t kNodeBytes = 320;              // version, permutation, 15 slices, lengths, 16 pointers
  static constexpr uint32_t kLayer = 1u << 31;             // a border entry that leads to a layer (its id below)
  static constexpr uint64_t kKeySpace = 1000000000000ull;  // the 12 digits

  struct Node {
    std::array<uint64_t, kWidth> slice{};
    // Interior: children (node ids), count + 1 of them. Border: per slice a key index (the key
    // ends in this layer, its suffix stored in the node in layer 0) or kLayer | layer id.
    std::array<uint32_t, kWidth + 1> child{};
    uint8_t count = 0;
    bool border = true;
    uint16_t thread = 0;  // the pool it was allocated from ...
    uint32_t pooled = 0;  // ... and its place there
  };

  // Loads keys 0..n-1, `threads` inserting their static shares in rounds of one each.
  Masstree(uint64_t keys, unsigned threads, uint64_t seed);
  uint64_t keys() const { return keys_; }
  // Key `index`'s 16 bytes and its two slices (big-endian, so integer order is byte order).
  std::string key(uint64_t index) const;
  uint64_t slice(uint64_t index, unsigned layer) const;

  const Node& node(uint32_t id) const { return nodes_[id]; }
  size_t nodes() const { return nodes_.size(); }
  uint32_t root() const { return roots_[0]; }
  uint32_t layer_root(uint32_t layer) const { return roots_[layer]; }
  size_t layers() const { return roots_.size(); }
  // Nodes allocated from thread t's pool.
  uint32_t pool_size(unsigned thread) const { return pool_size_[thread]; }

  // The position of `slice` in a node: interior, the child to descend into; border, the entry
  // holding it (count when absent). `probe` is told each slice index the binary search reads.
  template <typename Probe>
  static unsigned search(const Node& n, uint64_t slice, Probe&& probe);

 private:
  uint32_t allocate(unsigned thread, bool border);
  void insert(uint64_t index, unsigned thread);
  // Inserts (slice, value) into the tree of `layer`, splitting full nodes on the way back up.
  void insert_into(uint32_t layer, uint64_t slice, uint32_t value, unsigned thread);

  uint64_t keys_, multiplier_, offset_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> roots_;  // per layer: its root node (layer 0 is the trie's top)
  std::vector<uint32_t> pool_size_;
};

template <typename Probe>
unsigned Masstree::search(const Node& n, uint64_t slice, Probe&& probe) {
  // Lower bound for a border node (the entry equal to the slice); upper bound for an interior one
  // (separators are the first slice of their right child).
  unsigned lo = 0, hi = n.count;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    probe(mid);
    if (n.border ? n.slice[mid] < slice : n.slice[mid] <= slice) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class MasstreeWorkload : public Workload {
 public:
  MasstreeWorkload(uint64_t keys, uint64_t value_bytes, double read_fraction, uint64_t operations, unsigned threads,
                   uint64_t seed);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return end_ - kBase; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  const Masstree& tree() const { return *tree_; }
  uint64_t node_address(uint32_t id) const;
  uint64_t value_address(uint64_t key) const { return values_ + key * value_bytes_; }
  uint64_t value_bytes() const { return value_bytes_; }
  uint64_t values_begin() const { return values_; }
  KvRequests requests(unsigned thread) const;

  static constexpr uint64_t kBase = uint64_t{1} << 41;
  // Node layout: where the slices, the border entries' pointers and layer 0's key suffixes sit.
  static constexpr uint64_t kSliceOffset = 16, kPointerOffset = 152, kSuffixOffset = 280;

 private:
  std::shared_ptr<const Masstree> tree_;
  uint64_t value_bytes_;
  double read_fraction_;
  uint64_t operations_;
  unsigned threads_;
  uint64_t seed_;
  std::vector<uint64_t> pool_base_;
  uint64_t values_ = 0, end_ = 0;
  struct ValueTouch {
    unsigned thread = 0;
    uint64_t address = 0;  // 0: not yet touched
  };
  std::vector<ValueTouch> value_touch_;  // per page of values: its first store
};

}  // namespace starnuma::micro
