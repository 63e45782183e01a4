// Constrained-random bench for rtl/tlb_counter_annex.sv, scored flush by flush against
// TlbCounterAnnexModel. Usage: annex_bench [+seed=N] [+width=0|1|4|8|16] [+cycles=N] [+trace]
#include <cstdio>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "tracking/tlb_counter_annex_model.hpp"

#ifdef STARNUMA_BENCH_WRAPBUG
#include "Vtlb_counter_annex_wrapbug.h"
#else
#include "Vtlb_counter_annex_w0.h"
#include "Vtlb_counter_annex_w1.h"
#include "Vtlb_counter_annex_w16.h"
#include "Vtlb_counter_annex_w4.h"
#include "Vtlb_counter_annex_w8.h"
#endif

namespace starnuma::bench {
namespace {

constexpr unsigned kEntries = ANNEX_ENTRIES;  // the -G values the RTL was built with
constexpr unsigned kFifoDepth = ANNEX_FIFO_DEPTH;
constexpr uint64_t kVpageMask = (uint64_t{1} << 36) - 1;
constexpr uint64_t kPpageMask = (uint64_t{1} << 40) - 1;

// Stimulus regimes, switched every few thousand cycles so every interaction is reached.
struct Mode {
  const char* name;
  unsigned evict, fill, hit, load, phase_permille, ready, hot;  // percentages
};
constexpr Mode kModes[] = {
    {"mix", 10, 20, 40, 50, 5, 80, 0},    {"hot", 2, 5, 30, 95, 0, 90, 90},  // one entry takes most loads: saturation
    {"churn", 50, 60, 50, 40, 50, 50, 0},  // marked hits beside evictions: two flushes a cycle
    {"stall", 40, 40, 40, 20, 30, 5, 0},   // the tracker is slow: full FIFO, stalled TLB
    {"flood", 60, 60, 10, 10, 0, 100, 0},  // back-to-back flushes
};

// Builds a beat: Beat().evict(2).hit(3).
struct Beat {
  AnnexBeat b;
  Beat& evict(unsigned i) {
    b.evict = i;
    return *this;
  }
  Beat& fill(const AnnexBeat::Fill& f) {
    b.fill = f;
    return *this;
  }
  Beat& hit(unsigned i) {
    b.hit = i;
    return *this;
  }
  Beat& load(unsigned i) {
    b.load = i;
    return *this;
  }
  Beat& phase() {
    b.phase = true;
    return *this;
  }
};

struct Step {
  AnnexBeat beat;
  unsigned stall = 0;  // cycles the tracker refuses flushes, from this step's first cycle
};

template <class V>
class AnnexBench {
 public:
  AnnexBench(const Options& o, int argc, char** argv)
      : o_(o),
        rng_(o.seed),
        dut_(o, "annex_bench", argc, argv),
        model_({kEntries, o.width, static_cast<unsigned>(o.seed % 16)}),
        valid_(kEntries, false) {
    dut_->socket_id = static_cast<unsigned>(o.seed % 16);
  }

  int run() {
    dut_.reset();
    directed();
    while ((!script_.empty() || pending_) && !failed()) cycle(nullptr);
    for (uint64_t c = 0; c < o_.cycles && !failed(); ++c) {
      if (c % 2500 == 0) {
        mode_ = &kModes[rng_.below(std::size(kModes))];
        ready_ = mode_->ready;
      }
      cycle(mode_);
    }
    drain();
    sb_.check(expected_.empty(), std::to_string(expected_.size()) + " flushes never came out");
    return summarize("annex_bench", o_, sb_, cov_, beats_, dut_.assertion_failed());
  }

 private:
  // Directed corner cases first; they use entries 0..7 and leave every entry filled.
  void directed() {
    for (unsigned i = 0; i < kEntries; ++i) push(Beat().fill(fill(i)));
    for (uint32_t n = 0; n < model_.max_count() + 2; ++n) push(Beat().load(0));  // saturate
    push(Beat().evict(0).fill(fill(0)));                                         // replacement flushes the maximum
    for (int n = 0; n < 3; ++n) push(Beat().load(1));
    push(Beat().phase());
    push(Beat().hit(1));           // marked hit: flush and unmark
    push(Beat().hit(1));           // unmarked: nothing
    push(Beat().evict(2).hit(3));  // two flushes in one cycle
    push(Beat().fill(fill(2)));
    push(Beat().evict(4).fill(fill(4)).phase());  // a fill during a phase mark is marked
    push(Beat().hit(4));
    push(Beat().evict(5).fill(fill(5)).load(5));  // the new translation counts the load
    push(Beat());                                 // (the FIFO empties)
    push(Beat().evict(5), 3 * kFifoDepth);        // the tracker stalls:
    push(Beat().evict(6));
    push(Beat().evict(7).hit(3));  // two flushes fill the FIFO,
    push(Beat().evict(0));         // so the TLB waits
    push(Beat().evict(1));
    for (unsigned i : {5u, 6u, 7u, 0u, 1u}) push(Beat().fill(fill(i)));
  }

  bool failed() const { return sb_.errors() || dut_.assertion_failed(); }
  AnnexBeat::Fill fill(unsigned i) { return {i, rng_.next() & kVpageMask, rng_.next() & kPpageMask}; }
  void push(const Beat& b, unsigned stall = 0) { script_.push_back({b.b, stall}); }

  unsigned pick(const std::vector<unsigned>& from) {
    if (mode_ && mode_->hot && hot_ < kEntries && rng_.percent(mode_->hot)) {
      for (unsigned i : from)
        if (i == hot_) return i;
    }
    return from[rng_.below(from.size())];
  }

  // A random beat that a real TLB could produce: evictions, hits and loads only on entries that
  // hold a translation (after this beat's eviction and fill), fills only into free entries.
  AnnexBeat random_beat(const Mode& m) {
    std::vector<unsigned> live, free;
    for (unsigned i = 0; i < kEntries; ++i) (valid_[i] ? live : free).push_back(i);
    if (m.hot && (hot_ >= kEntries || !valid_[hot_])) hot_ = live.empty() ? kEntries : pick(live);
    AnnexBeat b;
    if (!live.empty() && rng_.percent(m.evict)) {
      std::vector<unsigned> victims;
      for (unsigned i : live)
        if (i != hot_ || !m.hot) victims.push_back(i);
      if (!victims.empty()) b.evict = victims[rng_.below(victims.size())];
    }
    if (rng_.percent(m.fill)) {
      if (b.evict && (free.empty() || rng_.percent(50))) b.fill = fill(*b.evict);
      else if (!free.empty()) b.fill = fill(free[rng_.below(free.size())]);
    }
    std::vector<unsigned> after;
    for (unsigned i = 0; i < kEntries; ++i)
      if ((valid_[i] && b.evict != i) || (b.fill && b.fill->index == i)) after.push_back(i);
    if (!after.empty() && rng_.percent(m.hit)) b.hit = pick(after);
    if (!after.empty() && rng_.percent(m.load)) b.load = pick(after);
    b.phase = rng_.below(1000) < m.phase_permille;
    return b;
  }

  void drive(const AnnexBeat& b) {
    dut_->evict_valid = b.evict.has_value();
    dut_->evict_index = b.evict.value_or(0);
    dut_->fill_valid = b.fill.has_value();
    dut_->fill_index = b.fill ? b.fill->index : 0;
    dut_->fill_vpage = b.fill ? b.fill->vpage : 0;
    dut_->fill_ppage = b.fill ? b.fill->ppage : 0;
    dut_->hit_valid = b.hit.has_value();
    dut_->hit_index = b.hit.value_or(0);
    dut_->load_valid = b.load.has_value();
    dut_->load_index = b.load.value_or(0);
    dut_->phase_valid = b.phase;
  }

  void cycle(const Mode* m) {
    if (!pending_) {
      if (!script_.empty()) {
        if (script_.front().stall) stall_ = script_.front().stall;
        pending_ = script_.front().beat;
        script_.pop_front();
      } else {
        pending_ = m ? random_beat(*m) : AnnexBeat{};
      }
    }
    drive(*pending_);
    dut_->flush_ready = stall_ ? 0 : rng_.percent(ready_);
    if (stall_) --stall_;
    dut_.settle();
    const bool accepted = dut_->in_ready;
    cov_.hit(c_.input_stall, !accepted && !pending_->empty());
    cov_.hit(c_.backpressure, dut_->flush_valid && !dut_->flush_ready);
    const bool popped = dut_->flush_valid && dut_->flush_ready;
    if (popped) check_flush();
    cov_.hit(c_.back_to_back, popped && popped_last_);
    popped_last_ = popped;
    if (accepted) {
      if (!pending_->empty()) accept(*pending_);
      pending_.reset();
    }
    dut_.rise();
    cov_.hit(c_.fifo_full, expected_.size() == kFifoDepth);
  }

  void check_flush() {
    const FlushRequest got{dut_->flush_vpage, dut_->flush_ppage, dut_->flush_count, dut_->flush_socket};
    if (expected_.empty()) {
      sb_.error("cycle " + std::to_string(dut_.cycle()) + ": unexpected flush of ppage " + std::to_string(got.ppage));
      return;
    }
    const FlushRequest want = expected_.front();
    expected_.pop_front();
    sb_.check(got == want, "cycle " + std::to_string(dut_.cycle()) + ": flush (vpage " + std::to_string(got.vpage) +
                               ", ppage " + std::to_string(got.ppage) + ", count " + std::to_string(got.count) +
                               ", socket " + std::to_string(got.socket) + "), expected (" + std::to_string(want.vpage) +
                               ", " + std::to_string(want.ppage) + ", " + std::to_string(want.count) + ", " +
                               std::to_string(want.socket) + ")");
  }

  // The RTL took the beat at this edge: the model takes it too; coverage from the state before.
  void accept(const AnnexBeat& b) {
    ++beats_;
    const uint32_t max = model_.max_count();
    const bool touched = b.load && ((b.evict == b.load) || (b.fill && b.fill->index == *b.load) ||
                                    (b.hit == b.load && model_.marked(*b.load)));
    cov_.hit(c_.saturated_increment, b.load && !touched && model_.count(*b.load) == max);
    cov_.hit(c_.marked_evict, b.evict && model_.marked(*b.evict));
    cov_.hit(c_.unmarked_evict, b.evict && !model_.marked(*b.evict));
    cov_.hit(c_.replacement, b.evict && b.fill && b.fill->index == *b.evict);
    cov_.hit(c_.fill_during_phase, b.fill && b.phase);
    cov_.hit(c_.load_on_new_entry, b.load && b.fill && b.fill->index == *b.load);
    cov_.hit(c_.phase_mark, b.phase);
    std::vector<FlushRequest> out;
    model_.apply(b, out);
    const size_t hit_flushes = out.size() - (b.evict ? 1 : 0);
    cov_.hit(c_.marked_hit, b.hit && hit_flushes == 1);
    cov_.hit(c_.unmarked_hit, b.hit && hit_flushes == 0);
    cov_.hit(c_.two_flushes, out.size() == 2);
    for (const FlushRequest& f : out) {
      cov_.hit(c_.flush_count_max, f.count == max);
      cov_.hit(c_.flush_count_zero, f.count == 0);
      expected_.push_back(f);
    }
    if (b.evict) valid_[*b.evict] = false;
    if (b.fill) valid_[b.fill->index] = true;
  }

  // Shoot down every translation so every count comes out, then let the FIFO empty.
  void drain() {
    ready_ = 100;
    for (unsigned i = 0; i < kEntries; ++i)
      if (valid_[i]) push(Beat().evict(i));
    while ((!script_.empty() || pending_) && !failed()) cycle(nullptr);
    for (int idle = 0; idle < 4 * static_cast<int>(kFifoDepth) + 4; ++idle) cycle(nullptr);
    sb_.check(!dut_->busy, "annex still busy after the drain");
  }

  struct Points {
    explicit Points(Coverage& c, unsigned width)
        : saturated_increment(c.add("saturated_increment")),
          flush_count_max(c.add("flush_count_max")),
          flush_count_zero(c.add("flush_count_zero", width > 0)),  // T0: every flush is 0
          marked_evict(c.add("marked_evict")),
          unmarked_evict(c.add("unmarked_evict")),
          marked_hit(c.add("marked_hit_flush")),
          unmarked_hit(c.add("unmarked_hit")),
          phase_mark(c.add("phase_mark")),
          two_flushes(c.add("two_flushes_one_cycle")),
          replacement(c.add("evict_fill_same_entry")),
          fill_during_phase(c.add("fill_during_phase")),
          load_on_new_entry(c.add("load_on_entry_filled")),
          back_to_back(c.add("back_to_back_flushes")),
          backpressure(c.add("flush_backpressure")),
          input_stall(c.add("input_stalled")),
          fifo_full(c.add("fifo_full")) {}
    int saturated_increment, flush_count_max, flush_count_zero, marked_evict, unmarked_evict, marked_hit, unmarked_hit,
        phase_mark, two_flushes, replacement, fill_during_phase, load_on_new_entry, back_to_back, backpressure,
        input_stall, fifo_full;
  };

  Options o_;
  Rng rng_;
  Clocked<V> dut_;
  TlbCounterAnnexModel model_;
  Coverage cov_;
  Points c_{cov_, o_.width};
  Scoreboard sb_;
  std::deque<FlushRequest> expected_;
  std::deque<Step> script_;
  std::optional<AnnexBeat> pending_;  // presented to the RTL, not yet taken
  std::vector<bool> valid_;           // which entries hold a translation
  const Mode* mode_ = nullptr;
  unsigned hot_ = kEntries;
  unsigned ready_ = 100;  // flush_ready percentage
  unsigned stall_ = 0;
  bool popped_last_ = false;
  uint64_t beats_ = 0;
};

template <class V>
int run(const Options& o, int argc, char** argv) {
  return AnnexBench<V>(o, argc, argv).run();
}

}  // namespace
}  // namespace starnuma::bench

int main(int argc, char** argv) {
  using namespace starnuma::bench;
  Options o = parse_options(argc, argv, "annex_bench");
#ifdef STARNUMA_BENCH_WRAPBUG
  o.width = 4;  // built from the RTL with STARNUMA_INJECT_WRAP_BUG at T4
  return run<Vtlb_counter_annex_wrapbug>(o, argc, argv);
#else
  switch (o.width) {
    case 0: return run<Vtlb_counter_annex_w0>(o, argc, argv);
    case 1: return run<Vtlb_counter_annex_w1>(o, argc, argv);
    case 4: return run<Vtlb_counter_annex_w4>(o, argc, argv);
    case 8: return run<Vtlb_counter_annex_w8>(o, argc, argv);
    case 16: return run<Vtlb_counter_annex_w16>(o, argc, argv);
  }
  std::fprintf(stderr, "annex_bench: +width must be 0, 1, 4, 8 or 16\n");
  return 2;
#endif
}
