// `kv`: a key-value store as in StarNUMA's Masstree setup (uniform key popularity, half reads,
// half writes), built on an open-addressing hash table with linear probing (16-byte slots
// {key, value}, a power-of-two number of them). The threads first load the N keys in parallel,
// each its static share, so a page of slots is first touched by whichever thread inserts into it
// first; the load is emitted as those first touches (one store per page, as the other workloads'
// initialisations), and a barrier that starts measurement ends it. Each thread then issues
// requests: a get loads the slots of the probe path up to the key's slot; a put does the same,
// then stores the value. The table is really built, so the probe paths follow the real keys and
// collisions.
#include <algorithm>

#include "stimulus/micro/micro.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace micro {

namespace {

constexpr uint64_t kKvBase = uint64_t{1} << 43;
constexpr uint64_t kSlot = 16;
// Instruction cost model, from a compiled get/put: drawing the request (random numbers, key
// mixing, the multiplicative hash, the dispatch) before the first probe; the key compare, branch
// and index advance with wrap-around per further probe; moving the value before a store.
constexpr uint32_t kKvPerRequest = 20, kKvPerProbe = 3, kKvBeforeStore = 1;

// A bijection of 64-bit words (splitmix64's finaliser): distinct key indices give distinct keys.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class KvStream : public StepStream<KvStream> {
 public:
  KvStream(std::shared_ptr<const KvTable> table, uint64_t base, Share load, KvRequests requests, uint64_t operations)
      : table_(std::move(table)),
        base_(base),
        mask_(table_->capacity() - 1),
        load_(load),
        requests_(requests),
        operations_(operations) {
    for (KvRequest& r : ahead_) {
      r = requests_.next();
      table_->prefetch(r.key);
    }
  }

  size_t step(StreamOp* out) {
    if (loading_) return load_step(out);
    if (!probing_) {
      if (done_ == operations_) return 0;
      // Requests are drawn kAhead early, so their home slots are in the host cache when probed.
      KvRequest& r = ahead_[done_++ % kAhead];
      pos_ = table_->home(r.key);
      target_ = table_->slot_of(r.key);
      put_ = r.put;
      probing_ = first_ = true;
      r = requests_.next();
      table_->prefetch(r.key);
    }
    // One slot of the probe path; at the key's slot a put then stores the value.
    const uint64_t address = base_ + pos_ * kSlot;
    out[0] = load(address, first_ ? kKvPerRequest : kKvPerProbe);
    first_ = false;
    if (pos_ != target_) {
      pos_ = (pos_ + 1) & mask_;
      return 1;
    }
    probing_ = false;
    if (!put_) return 1;
    out[1] = store(address + 8, kKvBeforeStore);
    return 2;
  }

 private:
  static constexpr uint64_t kAhead = 8;

  // The load: a store to each page this thread's insertions reach first, then the barrier.
  size_t load_step(StreamOp* out) {
    while (page_ < table_->pages()) {
      const uint32_t slot = table_->first_insert(page_++);
      if (slot != KvTable::kEmpty && table_->at(slot) >= load_.begin && table_->at(slot) < load_.end) {
        out[0] = store(base_ + slot * kSlot, 0);
        return 1;
      }
    }
    loading_ = false;
    out[0] = barrier(true);
    return 1;
  }

  std::shared_ptr<const KvTable> table_;
  uint64_t base_, mask_;
  Share load_;
  uint64_t page_ = 0;
  KvRequests requests_;
  std::array<KvRequest, kAhead> ahead_;
  uint64_t operations_, done_ = 0;
  bool loading_ = true, probing_ = false, first_ = false, put_ = false;
  uint64_t pos_ = 0, target_ = 0;
};

}  // namespace

KvTable::KvTable(uint64_t keys, double load_factor, unsigned threads, uint64_t seed)
    : keys_(keys), seed_(mix(seed ^ 0x6b76)) {
  const uint64_t capacity = capacity_for(keys, load_factor);
  unsigned log2 = 0;
  while ((uint64_t{1} << log2) < capacity) ++log2;
  shift_ = 64 - log2;
  slot_.assign(capacity, kEmpty);
  first_insert_.assign((capacity * kSlot + kPageBytes - 1) / kPageBytes, kEmpty);
  parallel_load_order(keys, threads, [&](uint64_t key, unsigned) {
    uint64_t at = home(key);
    while (slot_[at] != kEmpty) at = (at + 1) & (capacity - 1);
    slot_[at] = static_cast<uint32_t>(key);
    uint32_t& first = first_insert_[at * kSlot / kPageBytes];
    if (first == kEmpty) first = static_cast<uint32_t>(at);
  });
}

uint64_t KvTable::capacity_for(uint64_t keys, double load_factor) {
  uint64_t capacity = 16;
  while (static_cast<double>(capacity) * load_factor < static_cast<double>(keys)) capacity *= 2;
  return capacity;
}

uint64_t KvTable::key(uint64_t index) const { return mix(index + seed_); }
uint64_t KvTable::home(uint64_t index) const { return (key(index) * 0x9e3779b97f4a7c15ull) >> shift_; }
uint64_t KvTable::slot_of(uint64_t index) const {
  uint64_t at = home(index);
  while (slot_[at] != index) at = (at + 1) & (capacity() - 1);
  return at;
}

KvRequest KvRequests::next() {
  // splitmix64: one draw picks the key (multiply-high: uniform over the keys), one the kind/value.
  const uint64_t a = mix(state_ += 0x9e3779b97f4a7c15ull), b = mix(state_ += 0x9e3779b97f4a7c15ull);
  const auto key = static_cast<uint64_t>((u128{a} * keys_) >> 64);
  const bool put = static_cast<double>(b >> 11) * 0x1.0p-53 >= read_fraction_;
  return KvRequest{key, put, b};
}

KvWorkload::KvWorkload(uint64_t keys, double load_factor, double read_fraction, uint64_t operations, unsigned threads,
                       uint64_t seed)
    : table_(std::make_shared<KvTable>(keys, load_factor, threads, seed)),
      read_fraction_(read_fraction),
      operations_(operations),
      threads_(threads),
      seed_(seed),
      base_(kKvBase) {}

KvRequests KvWorkload::requests(unsigned t) const {
  return KvRequests(table_->keys(), read_fraction_, thread_seed(seed_, t));
}

std::unique_ptr<ThreadStream> KvWorkload::stream(unsigned t) const {
  return std::make_unique<KvStream>(table_, base_, static_share(table_->keys(), t, threads_), requests(t), operations_);
}

namespace {

class KvSpec : public WorkloadSpec {
 public:
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 29;
  explicit KvSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    // The table is really built: 4 host bytes per slot.
    const uint64_t slots = KvTable::capacity_for(keys_, load_factor_);
    if (slots > kMaxSlots)
      report_error(msg::kConfig, "kv: " + std::to_string(keys_.get()) + " keys at load_factor " +
                                     format_real(load_factor_) + " need " + std::to_string(slots) + " slots; at most " +
                                     std::to_string(kMaxSlots) + " are supported");
    return std::make_unique<KvWorkload>(keys_, load_factor_, requests_.read_fraction, requests_.operations, threads,
                                        seed);
  }

 private:
  Param<uint64_t> keys_{*this, "keys", uint64_t{1} << 22, "Keys loaded into the table (16 bytes each with its value)",
                        between(uint64_t{16}, uint64_t{1} << 28)};
  Param<double> load_factor_{*this, "load_factor", 0.5,
                             "Largest fraction of the slots the keys fill (the table has a power-of-two slot count)",
                             between(0.05, 0.95)};
  KvRequestParams requests_{*this};
};

}  // namespace
}  // namespace micro

STARNUMA_REGISTER_WORKLOAD(micro::KvSpec, "kv",
                           "Key-value store (Masstree setup): hash table loaded in parallel, uniform gets and puts");

}  // namespace starnuma
