#include "pool/chmu_model.hpp"

#include <stdexcept>
#include <string>

#include "common/bits.hpp"

namespace starnuma {
namespace {

constexpr uint16_t kLfsrSeed = 0xACE1;
// x^16 + x^14 + x^13 + x^11 + 1, a maximal-length Galois LFSR (the RTL's taps).
uint16_t lfsr_step(uint16_t l) { return (l & 1) ? static_cast<uint16_t>((l >> 1) ^ 0xB400) : (l >> 1); }

bool table_size(unsigned v) { return v >= 2 && is_power_of_two(v); }  // a table of one entry is none
[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("CHMU: " + what); }

}  // namespace

uint64_t chmu_storage_bits(const ChmuGeometry& g) {
  const uint64_t unit_bits = g.addr_bits - 8, tag_bits = unit_bits - log2_of_power(g.sets);
  return uint64_t{g.sets} * g.ways * (tag_bits + g.counter_bits + 1) +
         uint64_t{g.hotlist} * (unit_bits + g.counter_bits);
}

ChmuModel::ChmuModel(const ChmuGeometry& g) : geometry_(g) {
  if (!table_size(g.sets)) bad("sets must be a power of two, 2 or more, not " + std::to_string(g.sets));
  if (!table_size(g.ways)) bad("ways must be a power of two, 2 or more, not " + std::to_string(g.ways));
  if (!table_size(g.hotlist)) bad("hotlist must be a power of two, 2 or more, not " + std::to_string(g.hotlist));
  if (g.counter_bits < 2 || g.counter_bits > 32) bad("counter_bits is 2..32, not " + std::to_string(g.counter_bits));
  set_bits_ = log2_of_power(g.sets);
  way_bits_ = log2_of_power(g.ways);
  if (g.addr_bits < 8 + set_bits_ + 1 || g.addr_bits > 64)
    bad("addr_bits must leave a tag above 256 B units and the set index, not " + std::to_string(g.addr_bits));
  unit_mask_ = g.addr_bits - 8 >= 64 ? ~uint64_t{0} : (uint64_t{1} << (g.addr_bits - 8)) - 1;
  max_count_ = g.counter_bits >= 32 ? 0xFFFFFFFFu : (1u << g.counter_bits) - 1;
  table_.resize(size_t{g.sets} * g.ways);
  ring_.resize(g.hotlist);
  lfsr_ = kLfsrSeed;
}

void ChmuModel::configure(const ChmuConfig& c) {
  if (c.threshold < 1 || c.threshold > max_count_)
    bad("threshold is 1.." + std::to_string(max_count_) + ", not " + std::to_string(c.threshold));
  if (c.unit_shift < 8 || c.unit_shift > 30)
    bad("the unit is 256 B to 1 GiB (unit_shift 8..30), not unit_shift " + std::to_string(c.unit_shift));
  if (c.ds_shift > 15) bad("down-sampling is 2^0..2^15, not 2^" + std::to_string(c.ds_shift));
  if (c.notify_level >= geometry_.hotlist)
    bad("notify_level is 0.." + std::to_string(geometry_.hotlist - 1) + ", not " + std::to_string(c.notify_level));
  config_ = c;
  enabled_ = true;
  for (Entry& e : table_) e.valid = false;
  head_ = tail_ = 0;
  overflow_ = level_ = false;
  ds_count_ = 0;
  lfsr_ = kLfsrSeed;
}

uint64_t ChmuModel::unit_of(uint64_t addr) const {
  if (geometry_.addr_bits < 64) addr &= (uint64_t{1} << geometry_.addr_bits) - 1;
  return (addr >> config_.unit_shift) & unit_mask_;
}

bool ChmuModel::next_sampled() const {
  const uint16_t mask = static_cast<uint16_t>((1u << config_.ds_shift) - 1);
  return ((config_.random_ds ? lfsr_ : ds_count_) & mask) == 0;
}

bool ChmuModel::set_full(uint64_t unit) const {
  const size_t base = (unit & (geometry_.sets - 1)) << way_bits_;
  for (unsigned w = 0; w < geometry_.ways; ++w)
    if (!table_[base + w].valid) return false;
  return true;
}

uint32_t ChmuModel::held_count(uint64_t unit) const {
  const size_t base = (unit & (geometry_.sets - 1)) << way_bits_;
  const uint64_t tag = unit >> set_bits_;
  for (unsigned w = 0; w < geometry_.ways; ++w)
    if (table_[base + w].valid && table_[base + w].tag == tag) return table_[base + w].count;
  return 0;
}

void ChmuModel::push(uint64_t unit, uint32_t count) {
  if (full()) {
    overflow_ = true;
    ++stats_.dropped;
    return;
  }
  ring_[tail_] = {unit, count};
  tail_ = (tail_ + 1) & (geometry_.hotlist - 1);
  ++stats_.reported;
  if (config_.notify_level && occupancy() >= config_.notify_level) level_ = true;
}

void ChmuModel::access(uint64_t addr, bool write) {
  if (!enabled_) return;
  if (!(write ? config_.track_writes : config_.track_reads)) {
    ++stats_.filtered;
    return;
  }
  const bool sampled = next_sampled();
  ++ds_count_;
  lfsr_ = lfsr_step(lfsr_);
  if (!sampled) {
    ++stats_.sampled_out;
    return;
  }
  ++stats_.counted;
  const uint64_t unit = unit_of(addr);
  const size_t base = (unit & (geometry_.sets - 1)) << way_bits_;
  const uint64_t tag = unit >> set_bits_;
  // The unit's way, else the lowest free way, else the lowest way of the smallest count, whose
  // count the newcomer inherits (Space-Saving).
  Entry* slot = nullptr;
  Entry* free = nullptr;
  Entry* least = &table_[base];
  for (unsigned w = 0; w < geometry_.ways; ++w) {
    Entry& e = table_[base + w];
    if (e.valid && e.tag == tag) {
      slot = &e;
      break;
    }
    if (!e.valid && !free) free = &e;
    if (e.count < least->count) least = &e;
  }
  uint32_t count;
  if (slot) {
    count = slot->count;
  } else if (free) {
    slot = free;
    count = 0;
  } else {
    slot = least;
    count = least->count;
    ++stats_.replaced;
  }
  if (count < max_count_) ++count;
  *slot = {tag, count, true};
  if (config_.always_on && count >= config_.threshold) {
    slot->count = 0;
    push(unit, count);
  }
}

void ChmuModel::end_epoch() {
  if (!enabled_) return;
  if (!config_.always_on) {
    for (size_t i = 0; i < table_.size(); ++i) {
      const Entry& e = table_[i];
      if (e.valid && e.count >= config_.threshold) push((e.tag << set_bits_) | (i >> way_bits_), e.count);
    }
  }
  for (Entry& e : table_) e.valid = false;
}

void ChmuModel::set_head(unsigned head) {
  const unsigned mask = geometry_.hotlist - 1;
  if (head > mask || ((head - head_) & mask) > occupancy())
    throw std::out_of_range("CHMU: head " + std::to_string(head) + " is outside the ring's entries " +
                            std::to_string(head_) + ".." + std::to_string(tail_));
  head_ = head;
}

void ChmuModel::clear_status() { overflow_ = level_ = false; }

void ChmuModel::drain(std::vector<HotlistEntry>& out) {
  for (unsigned i = head_; i != tail_; i = (i + 1) & (geometry_.hotlist - 1)) out.push_back(ring_[i]);
  head_ = tail_;
}

}  // namespace starnuma
