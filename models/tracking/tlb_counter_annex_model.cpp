#include "tracking/tlb_counter_annex_model.hpp"

#include <stdexcept>
#include <string>

namespace starnuma {

TlbCounterAnnexModel::TlbCounterAnnexModel(const AnnexConfig& config)
    : entries_(config.entries), max_count_((1u << config.counter_bits) - 1), socket_(config.socket) {
  if (config.entries == 0) throw std::invalid_argument("counter annex: entries must be positive");
  if (config.counter_bits > 16)
    throw std::invalid_argument("counter annex: counter_bits is 0..16, not " + std::to_string(config.counter_bits));
}

void TlbCounterAnnexModel::check(unsigned index) const {
  if (index >= entries_.size())
    throw std::out_of_range("counter annex: entry " + std::to_string(index) + " of " + std::to_string(entries_.size()));
}

// A flush hands the count to the tracker, so the entry starts counting again from 0.
FlushRequest TlbCounterAnnexModel::flush(Entry& e) {
  FlushRequest f{e.vpage, e.ppage, e.count, socket_};
  e.count = 0;
  e.marker = false;
  return f;
}

void TlbCounterAnnexModel::fill(unsigned index, uint64_t vpage, uint64_t ppage) {
  at(index) = Entry{vpage, ppage, 0, false};
}

void TlbCounterAnnexModel::llc_load(unsigned index) {
  Entry& e = at(index);
  if (e.count < max_count_) ++e.count;
}

std::optional<FlushRequest> TlbCounterAnnexModel::hit(unsigned index) {
  Entry& e = at(index);
  if (!e.marker) return std::nullopt;
  return flush(e);
}

FlushRequest TlbCounterAnnexModel::evict(unsigned index) { return flush(at(index)); }

void TlbCounterAnnexModel::phase_mark() {
  for (Entry& e : entries_) e.marker = true;
}

void TlbCounterAnnexModel::apply(const AnnexBeat& beat, std::vector<FlushRequest>& out) {
  if (beat.evict) out.push_back(evict(*beat.evict));
  if (beat.fill) fill(beat.fill->index, beat.fill->vpage, beat.fill->ppage);
  if (beat.hit) {
    if (auto f = hit(*beat.hit)) out.push_back(*f);
  }
  if (beat.load) llc_load(*beat.load);
  if (beat.phase) phase_mark();
}

}  // namespace starnuma
