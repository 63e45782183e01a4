// The Masstree-like store's build (the parallel load, as rounds of one insertion per thread) and
// its request streams. A get descends the layer-0 B+-tree by the key's first slice, then, when the
// slice leads to a layer, that layer's tree by the second, and copies the value; a put does the same
// descent, locks the border node (a store to its version word) and writes the value in place.
//
// Per node visited the stream reads the version word (a load that depends on the pointer that led
// here), the slices the binary search compares, and the child or value pointer; Masstree prefetches
// a node's lines on arrival, so only the version load is marked dependent. In layer 0 a key that
// ends there is confirmed by comparing its stored suffix (one more load of the node).
#include "stimulus/micro/masstree.hpp"

#include <algorithm>

#include "common/text.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace micro {

namespace {

// splitmix64's finaliser, for the key numbering's offset.
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Key i's digits are (i * kMultiplier + offset) mod 10^12: a bijection of the key space (the
// multiplier is prime to 10), so keys are distinct and scattered over it as YCSB's hashed ones.
constexpr uint64_t kMultiplier = 618033988749ull;

uint64_t ascii_digits(uint64_t value, unsigned count) {  // `count` decimal digits, big-endian bytes
  uint64_t out = 0;
  for (unsigned i = 0; i < count; ++i) {
    out |= ('0' + value % 10) << (8 * i);
    value /= 10;
  }
  return out;
}

}  // namespace

Masstree::Masstree(uint64_t keys, unsigned threads, uint64_t seed)
    : keys_(keys), multiplier_(kMultiplier), offset_(mix64(seed ^ 0x6d74) % kKeySpace), pool_size_(threads, 0) {
  nodes_.reserve(keys / 6 + 16);
  roots_.push_back(allocate(0, true));
  parallel_load_order(keys, threads, [this](uint64_t key, unsigned t) { insert(key, t); });
}

std::string Masstree::key(uint64_t index) const {
  std::string k(16, ' ');
  for (unsigned layer = 0; layer < 2; ++layer) {
    const uint64_t s = slice(index, layer);
    for (unsigned b = 0; b < 8; ++b) k[8 * layer + b] = static_cast<char>(s >> (56 - 8 * b));
  }
  return k;
}

uint64_t Masstree::slice(uint64_t index, unsigned layer) const {
  const auto digits = static_cast<uint64_t>((u128{index} * multiplier_ + offset_) % kKeySpace);
  if (layer == 1) return ascii_digits(digits % 100000000, 8);
  // "user" then the first four digits, as one big-endian word.
  const uint64_t user = (uint64_t{'u'} << 56) | (uint64_t{'s'} << 48) | (uint64_t{'e'} << 40) | (uint64_t{'r'} << 32);
  return user | ascii_digits(digits / 100000000, 4);
}

uint32_t Masstree::allocate(unsigned thread, bool border) {
  Node n;
  n.border = border;
  n.thread = static_cast<uint16_t>(thread);
  n.pooled = pool_size_[thread]++;
  nodes_.push_back(n);
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void Masstree::insert(uint64_t index, unsigned thread) {
  const uint64_t first = slice(index, 0);
  uint32_t id = roots_[0];
  while (!nodes_[id].border) id = nodes_[id].child[search(nodes_[id], first, [](unsigned) {})];
  const unsigned pos = search(nodes_[id], first, [](unsigned) {});
  if (pos == nodes_[id].count || nodes_[id].slice[pos] != first) {
    insert_into(0, first, static_cast<uint32_t>(index), thread);
    return;
  }
  const uint32_t entry = nodes_[id].child[pos];
  if (entry & kLayer) {
    insert_into(entry & ~kLayer, slice(index, 1), static_cast<uint32_t>(index), thread);
    return;
  }
  // A second key with this slice: the first one's suffix moves into a new layer with it.
  const auto layer = static_cast<uint32_t>(roots_.size());
  roots_.push_back(allocate(thread, true));
  nodes_[id].child[pos] = kLayer | layer;
  insert_into(layer, slice(entry, 1), entry, thread);
  insert_into(layer, slice(index, 1), static_cast<uint32_t>(index), thread);
}

void Masstree::insert_into(uint32_t layer, uint64_t key_slice, uint32_t value, unsigned thread) {
  std::array<std::pair<uint32_t, unsigned>, 64> path;  // interior nodes and the child taken
  size_t depth = 0;
  uint32_t id = roots_[layer];
  while (!nodes_[id].border) {
    const unsigned pos = search(nodes_[id], key_slice, [](unsigned) {});
    path.at(depth++) = {id, pos};
    id = nodes_[id].child[pos];
  }
  unsigned pos = search(nodes_[id], key_slice, [](unsigned) {});
  // Insert (slice, pointer) at `pos` of `id`; a full node splits and passes its separator up.
  uint64_t up_slice = key_slice;
  uint32_t up_pointer = value;
  for (;;) {
    Node& n = nodes_[id];
    const bool border = n.border;
    // Border entries pair slice[i] with child[i]; interior separators pair slice[i] with child[i + 1].
    const unsigned shift = border ? 0 : 1;
    std::array<uint64_t, kWidth + 1> s;
    std::array<uint32_t, kWidth + 2> c;
    std::copy_n(n.slice.begin(), pos, s.begin());
    s[pos] = up_slice;
    std::copy(n.slice.begin() + pos, n.slice.begin() + n.count, s.begin() + pos + 1);
    const unsigned pointers = n.count + shift;
    std::copy_n(n.child.begin(), pos + shift, c.begin());
    c[pos + shift] = up_pointer;
    std::copy(n.child.begin() + pos + shift, n.child.begin() + pointers, c.begin() + pos + shift + 1);
    const unsigned count = n.count + 1u;
    if (count <= kWidth) {
      std::copy_n(s.begin(), count, n.slice.begin());
      std::copy_n(c.begin(), count + shift, n.child.begin());
      n.count = static_cast<uint8_t>(count);
      return;
    }
    // Split the kWidth + 1 entries in half. A border node's right half starts with the separator;
    // an interior node passes its middle separator up and keeps neither copy.
    const unsigned left = count / 2;
    const uint32_t right = allocate(thread, border);
    Node& l = nodes_[id];
    Node& r = nodes_[right];
    std::copy_n(s.begin(), left, l.slice.begin());
    std::copy_n(c.begin(), left + shift, l.child.begin());
    l.count = static_cast<uint8_t>(left);
    const unsigned from = border ? left : left + 1;
    std::copy(s.begin() + from, s.begin() + count, r.slice.begin());
    std::copy(c.begin() + from, c.begin() + count + shift, r.child.begin());
    r.count = static_cast<uint8_t>(count - from);
    up_slice = s[left];
    up_pointer = right;
    if (depth == 0) {  // the root split: a new root above the two halves
      const uint32_t root = allocate(thread, false);
      Node& top = nodes_[root];
      top.slice[0] = up_slice;
      top.child[0] = id;
      top.child[1] = right;
      top.count = 1;
      roots_[layer] = root;
      return;
    }
    std::tie(id, pos) = path[--depth];
  }
}

// ---- the workload -------------------------------------------------------------------------------

namespace {

// Instruction cost model, estimated from Masstree's get and put paths (mttest's client loop and
// masstree_get.hh/masstree_insert.hh; not counted on a compiled binary, so each is a named estimate):
// per request, drawing it and formatting its 12-digit key as text (about 20 instructions a digit)
// and setting up the cursor; per node, the version's stability check, the prefetch of the node's
// five lines, the permutation decode and the loop; per binary-search probe, compare, branch and
// halving; per pointer, its load and the node-type test; per 64 bytes of value, eight 8-byte moves;
// per put, allocating the new value from the thread's pool, the lock, the pointer swap, the version
// bump and handing the old value to RCU.
constexpr uint32_t kPerRequest = 300, kPerNode = 30, kPerProbe = 6, kPerPointer = 6, kPerValueLine = 8, kPerPut = 120;

class MasstreeStream : public ThreadStream {
 public:
  MasstreeStream(const MasstreeWorkload& w, std::shared_ptr<const Masstree> tree, std::vector<uint64_t> first_touch,
                 KvRequests requests, uint64_t operations)
      : w_(w),
        tree_(std::move(tree)),
        first_touch_(std::move(first_touch)),
        requests_(requests),
        operations_(operations) {
    buffer_.reserve(kBuffer);
  }

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max) {
      if (head_ == buffer_.size()) {
        buffer_.clear();
        head_ = 0;
        if (!refill()) break;
      }
      const size_t k = std::min(max - n, buffer_.size() - head_);
      std::copy_n(buffer_.begin() + static_cast<std::ptrdiff_t>(head_), k, out + n);
      head_ += k;
      n += k;
    }
    return n;
  }

 private:
  static constexpr size_t kBuffer = 512;

  bool refill() {
    if (touched_ < first_touch_.size()) {  // the load: one store per page, then the barrier
      for (; touched_ < first_touch_.size() && buffer_.size() < kBuffer; ++touched_)
        buffer_.push_back(StreamOp{StreamOp::Kind::Store, false, false, 0, first_touch_[touched_]});
      if (touched_ == first_touch_.size()) buffer_.push_back(StreamOp{StreamOp::Kind::Barrier, false, true, 0, 1});
      return true;
    }
    if (done_ == operations_) return false;
    ++done_;
    request(requests_.next());
    return true;
  }

  void op(StreamOp::Kind kind, uint64_t address, uint32_t instructions, bool dependent) {
    buffer_.push_back(StreamOp{kind, dependent, false, instructions, address});
  }

  void request(const KvRequest& r) {
    uint32_t pending = kPerRequest;  // instructions before the next operation
    uint32_t id = tree_->root();
    unsigned layer = 0;
    for (;;) {
      const Masstree::Node& node = tree_->node(id);
      const uint64_t at = w_.node_address(id);
      op(StreamOp::Kind::Load, at, pending + kPerNode, true);
      pending = 0;
      const uint64_t slice = tree_->slice(r.key, layer);
      const unsigned pos = Masstree::search(node, slice, [&](unsigned probe) {
        op(StreamOp::Kind::Load, at + MasstreeWorkload::kSliceOffset + 8 * probe, kPerProbe, false);
      });
      if (!node.border) {
        op(StreamOp::Kind::Load, at + MasstreeWorkload::kPointerOffset + 8 * pos, kPerPointer, false);
        id = node.child[pos];
        continue;
      }
      const uint32_t entry = node.child[pos];
      if (entry & Masstree::kLayer) {
        op(StreamOp::Kind::Load, at + MasstreeWorkload::kPointerOffset + 8 * pos, kPerPointer, false);
        id = tree_->layer_root(entry & ~Masstree::kLayer);
        layer = 1;
        continue;
      }
      if (layer == 0) op(StreamOp::Kind::Load, at + MasstreeWorkload::kSuffixOffset, kPerProbe, false);
      op(StreamOp::Kind::Load, at + MasstreeWorkload::kPointerOffset + 8 * pos, kPerPointer, false);
      const uint64_t value = w_.value_address(r.key);
      if (r.put) op(StreamOp::Kind::Store, at, kPerPut, false);  // the lock, in the version word
      const auto kind = r.put ? StreamOp::Kind::Store : StreamOp::Kind::Load;
      for (uint64_t line = 0; line < w_.value_bytes(); line += kLineBytes)
        op(kind, value + line, kPerValueLine, line == 0);
      return;
    }
  }

  const MasstreeWorkload& w_;
  std::shared_ptr<const Masstree> tree_;
  std::vector<uint64_t> first_touch_;
  size_t touched_ = 0;
  KvRequests requests_;
  uint64_t operations_, done_ = 0;
  std::vector<StreamOp> buffer_;
  size_t head_ = 0;
};

uint64_t page_round(uint64_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

}  // namespace

MasstreeWorkload::MasstreeWorkload(uint64_t keys, uint64_t value_bytes, double read_fraction, uint64_t operations,
                                   unsigned threads, uint64_t seed)
    : tree_(std::make_shared<Masstree>(keys, threads, seed)),
      value_bytes_(value_bytes),
      read_fraction_(read_fraction),
      operations_(operations),
      threads_(threads),
      seed_(seed) {
  // Each thread's node pool, then each thread's values (in key order: a thread inserts its share in order).
  uint64_t at = kBase;
  for (unsigned t = 0; t < threads; ++t) {
    pool_base_.push_back(at);
    at += page_round(tree_->pool_size(t) * Masstree::kNodeBytes);
  }
  values_ = at;
  end_ = values_ + page_round(keys * value_bytes_);
  // A page of values is first touched by the load's first insertion into it (rounds of one per thread).
  value_touch_.assign((end_ - values_) / kPageBytes, ValueTouch{});
  parallel_load_order(keys, threads, [this](uint64_t key, unsigned t) {
    ValueTouch& v = value_touch_[(value_address(key) - values_) / kPageBytes];
    if (v.address == 0) v = ValueTouch{t, value_address(key)};
  });
}

uint64_t MasstreeWorkload::node_address(uint32_t id) const {
  const Masstree::Node& n = tree_->node(id);
  return pool_base_[n.thread] + n.pooled * Masstree::kNodeBytes;
}

KvRequests MasstreeWorkload::requests(unsigned t) const {
  return KvRequests(tree_->keys(), read_fraction_, thread_seed(seed_, t));
}

std::unique_ptr<ThreadStream> MasstreeWorkload::stream(unsigned t) const {
  std::vector<uint64_t> pages;
  for (uint64_t p = 0; p < tree_->pool_size(t) * Masstree::kNodeBytes; p += kPageBytes)
    pages.push_back(pool_base_[t] + p);
  for (const ValueTouch& v : value_touch_)
    if (v.thread == t) pages.push_back(v.address);
  return std::make_unique<MasstreeStream>(*this, tree_, std::move(pages), requests(t), operations_);
}

namespace {

class MasstreeSpec : public WorkloadSpec {
 public:
  explicit MasstreeSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    if (value_bytes_ % 8 != 0)
      report_error(msg::kConfig,
                   "masstree.value_bytes: " + std::to_string(value_bytes_.get()) + " is not a multiple of 8 bytes");
    return std::make_unique<MasstreeWorkload>(keys_, value_bytes_, requests_.read_fraction, requests_.operations,
                                              threads, seed);
  }

 private:
  // The trees are really built: about 30 host bytes per key.
  Param<uint64_t> keys_{*this, "keys", uint64_t{1} << 22, "Keys loaded into the store (16-byte YCSB-style keys)",
                        between(uint64_t{16}, uint64_t{1} << 27)};
  Param<uint64_t> value_bytes_{*this, "value_bytes", 64, "Bytes of each key's value (a multiple of 8)",
                               between(uint64_t{8}, uint64_t{1024})};
  KvRequestParams requests_{*this};
};

}  // namespace
}  // namespace micro

STARNUMA_REGISTER_WORKLOAD(micro::MasstreeSpec, "masstree",
                           "Masstree-like store: a trie of B+-trees loaded in parallel, uniform gets and puts");

}  // namespace starnuma
