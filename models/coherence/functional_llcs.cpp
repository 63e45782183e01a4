#include "coherence/functional_llcs.hpp"

#include "coherence/functional_l2s.hpp"

#include <algorithm>
#include <utility>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

namespace {

constexpr unsigned kStateBits = 2;  // a MesiState in each tag
constexpr auto kS = static_cast<unsigned>(MesiState::S), kE = static_cast<unsigned>(MesiState::E),
               kM = static_cast<unsigned>(MesiState::M);

uint64_t socket_bit(size_t s) { return uint64_t{1} << s; }

// A directory's records by block: a radix sort, 11 bits a pass from the lowest, as many passes as
// the largest block needs (a checkpoint's millions of records, where a comparison sort was a tenth
// of a pass with units).
void sort_by_block(std::vector<CacheContents::Entry>& records) {
  constexpr unsigned kBits = 11;
  constexpr size_t kBuckets = size_t{1} << kBits;
  uint64_t largest = 0;
  for (const CacheContents::Entry& e : records) largest = std::max(largest, e.block);
  std::vector<CacheContents::Entry> other(records.size());
  std::vector<size_t> start(kBuckets);
  for (unsigned shift = 0; shift < 64 && (largest >> shift) != 0; shift += kBits) {
    std::fill(start.begin(), start.end(), 0);
    for (const CacheContents::Entry& e : records) ++start[(e.block >> shift) & (kBuckets - 1)];
    size_t at = 0;
    for (size_t& n : start) at += std::exchange(n, at);
    for (const CacheContents::Entry& e : records) other[start[(e.block >> shift) & (kBuckets - 1)]++] = e;
    records.swap(other);
  }
}

}  // namespace

FunctionalLlcs::FunctionalLlcs(const Fabric& fabric, const std::vector<Geometry>& llcs, const Coherence& coherence,
                               uint64_t seed, bool coherent)
    : fabric_(fabric), coherent_(coherent) {
  for (size_t s = 0; s < llcs.size(); ++s)
    llcs_.emplace_back(llcs[s].lines, llcs[s].ways, llcs[s].replacement, seed + s, false, coherent ? kStateBits : 0);
  if (coherent)
    for (const Fabric::Home& home : fabric.homes()) directories_.push_back(coherence.new_directory(home));
}

Directory& FunctionalLlcs::directory_of(uint64_t line) const {
  const uint64_t address = line * kLineBytes;
  const Fabric::Range* range = fabric_.home_of(address);
  if (!range) report_internal("line " + hex(line) + " is outside the physical address map");
  uint64_t offset;
  return *directories_[fabric_.serving_home(*range, address, offset)];
}

void FunctionalLlcs::prefetch_dependents(size_t s, uint64_t line, bool store) const {
  if (!coherent_) return;
  const unsigned held = llcs_[s].state(line);
  if (held == kE || held == kM || (held == kS && !store)) return;  // a hit that asks nothing beyond the LLC
  uint64_t victim;
  unsigned state;
  if (!held && llcs_[s].lru_victim(line, victim, state) && (state == kE || state == kM))
    directory_of(victim).prefetch(victim);
  if (const DirEntry* e = directory_of(line).peek(line))
    for (uint64_t others = e->holders() & ~socket_bit(s); others != 0; others &= others - 1)
      llcs_[static_cast<size_t>(__builtin_ctzll(others))].prefetch(line);
}

void FunctionalLlcs::take(uint64_t sockets, uint64_t line) {
  for (uint64_t left = sockets; left != 0; left &= left - 1) {
    const auto s = static_cast<size_t>(__builtin_ctzll(left));
    if (llcs_[s].invalidate(line).valid) lost(s, line);
  }
}

void FunctionalLlcs::lost(size_t s, uint64_t line) {
  if (l2s_ && coherent_) l2s_->drop(s, line);
}

bool FunctionalLlcs::store_in_place(size_t s, uint64_t line) {
  if (!coherent_) return true;
  const unsigned held = llcs_[s].state_promoting(line, kE, kM);
  return held == kE || held == kM;
}

void FunctionalLlcs::leave(size_t s, uint64_t line, unsigned held, Outcome* o) {
  if (held != kM && held != kE) return;  // S leaves silently: the directory keeps a superset
  Directory& d = directory_of(line);
  DirEntry* e = d.find(line);
  if (!e || e->owner != static_cast<int>(s))
    report_internal("functional coherence: socket " + std::to_string(s) + " evicts line " + hex(line) +
                    " its home does not list it owning");
  e->owner = -1;
  if (e->empty()) d.release(line);
  if (!o) return;
  if (held == kM) wrote(*o, line);
  o->put = held == kM ? kPutM : kPutE;
  o->put_line = line;
}

// The timed protocol's transitions (Coherence::request), without messages or time.
FunctionalLlcs::Outcome FunctionalLlcs::coherent_access(size_t s, uint64_t line, bool store) {
  CacheArray& llc = llcs_[s];
  Outcome o;
  if (llc.access(line, store)) {
    o.hit = true;
    if (!store) return o;
    const unsigned mine = llc.state(line);
    if (mine == kS) {  // Upgrade: the other sharers lose their copies
      DirEntry* e = directory_of(line).find(line);
      if (!e) report_internal("functional coherence: a shared copy of line " + hex(line) + " with no directory entry");
      o.upgrade = true;
      o.invalidated = e->sharers & ~socket_bit(s);
      take(o.invalidated, line);
      e->sharers = 0;
      e->owner = static_cast<int8_t>(s);
    }
    if (mine != kM) llc.set_state(line, kM);
    return o;
  }
  Directory& d = directory_of(line);
  Directory::Victim victim;
  DirEntry& e = d.obtain(line, victim);
  if (victim.evicted) {  // back-invalidation: every copy of the victim's block leaves, a dirty one home
    const uint64_t holders = victim.entry.holders();
    o.back_invalidated = holders;
    o.back_dirty = victim.entry.owner >= 0 && llcs_[static_cast<size_t>(victim.entry.owner)].state(victim.block) == kM;
    if (o.back_dirty) wrote(o, victim.block);
    take(holders, victim.block);
  }
  if (store) {
    o.invalidated = e.sharers & ~socket_bit(s);
    take(o.invalidated, line);
  }
  if (e.owner >= 0 && static_cast<size_t>(e.owner) != s) {  // the owner supplies the block
    const auto owner = static_cast<size_t>(e.owner);
    o.supplier = e.owner;
    o.supplier_dirty = llcs_[owner].state(line) == kM;
    if (store) {
      llcs_[owner].invalidate(line);
      lost(owner, line);
    } else {
      if (o.supplier_dirty) wrote(o, line);  // a load's owner also puts the data home
      llcs_[owner].set_state(line, kS);
      e.sharers |= socket_bit(owner);
    }
    e.owner = -1;
  } else {
    o.memory_read = true;
  }
  unsigned granted;
  if (store) {
    e.owner = static_cast<int8_t>(s);
    e.sharers = 0;
    granted = kM;
  } else if (e.sharers == 0) {
    e.owner = static_cast<int8_t>(s);
    granted = kE;
  } else {
    e.sharers |= socket_bit(s);
    granted = kS;
  }
  // `e` is not used past here: the victim's leaving may move the directory's entries.
  const CacheArray::Victim v = llc.fill(line, store, 0, granted);
  if (v.valid) {
    leave(s, v.line, v.state, &o);
    lost(s, v.line);
  }
  return o;
}

void FunctionalLlcs::evict_lines(uint64_t first, uint64_t lines) {
  for (size_t s = 0; s < llcs_.size(); ++s)
    for (uint64_t line = first; line < first + lines; ++line) {
      const CacheArray::Victim v = llcs_[s].invalidate(line);
      if (v.valid && coherent_) leave(s, line, v.state, nullptr);
      if (l2s_) l2s_->drop(s, line);
    }
}

CacheContents FunctionalLlcs::contents() const {
  CacheContents c;
  c.coherent = coherent_;
  for (const CacheArray& llc : llcs_) {
    CacheContents::Llc& l = c.llcs.emplace_back();
    l.lines = llc.sets() * llc.ways();
    l.ways = llc.ways();
    l.entries.reserve(l.lines);
    llc.for_each_oldest_first([&](const CacheArray::Victim& e) {
      l.entries.push_back(e.line << 2 | (coherent_ ? e.state : e.dirty ? kM : kE));
    });
  }
  for (size_t h = 0; h < directories_.size(); ++h) {
    const Directory& d = *directories_[h];
    CacheContents::Directory& b = c.directories.emplace_back();
    b.home = h;
    b.entries = d.entries();
    b.ways = d.ways();
    b.records.reserve(d.entries_in_use());
    d.for_each_oldest_first([&](uint64_t block, const DirEntry& e) {
      b.records.push_back({block, e.sharers, e.owner});
    });
    if (!d.bounded()) sort_by_block(b.records);
  }
  return c;
}

}  // namespace starnuma
