// Constrained-random bench for rtl/chmu.sv, scored against ChmuModel: ring pointers, status bits,
// statistics and hotlist entries compared whenever the RTL is idle, a ring entry every cycle.
// Usage: chmu_bench [+seed=N] [+cycles=N] [+trace]
#include <cstdio>
#include <deque>
#include <iterator>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "pool/chmu_model.hpp"

#ifdef STARNUMA_BENCH_WRAPBUG
#include "Vchmu_wrapbug.h"
using Dut = Vchmu_wrapbug;
#else
#include "Vchmu_bench.h"
using Dut = Vchmu_bench;
#endif

namespace starnuma::bench {
namespace {

// The -G values the RTL was built with.
constexpr ChmuGeometry kGeometry{CHMU_SETS, CHMU_WAYS, 40, CHMU_COUNTER_BITS, CHMU_HOTLIST};
constexpr unsigned kUnitShifts[] = {8, 12, 16, 21, 30};

struct Request {
  enum Op : unsigned { kRead, kWrite, kEpoch, kHead, kConfig, kClear } op = kRead;
  uint64_t addr = 0;
  unsigned head = 0;
  ChmuConfig config;
};

// Stimulus regimes, switched every 2500 cycles; each reconfigures the unit its own way.
struct Mode {
  const char* name;
  unsigned units;  // distinct units the accesses touch
  unsigned sets;   // ... spread over this many sets (conflicts when units > sets * ways)
  unsigned hot;    // percent of accesses to one unit
  unsigned epoch_per_mille, drain_per_mille;
  bool always_on;
  unsigned threshold_max, ds_shift_max;
  bool filter;  // track reads or writes only
};
constexpr Mode kModes[] = {
    {"epoch", 24, CHMU_SETS, 0, 8, 30, false, 6, 0, false},
    {"conflict", 40, 2, 0, 5, 30, false, 3, 0, false},          // a set holds ways units: replacement
    {"hot", 8, CHMU_SETS, 90, 1, 20, false, 255, 0, false},     // saturation
    {"always_on", 16, CHMU_SETS, 30, 3, 4, true, 4, 0, false},  // a slow host: overflow
    {"sampled", 16, CHMU_SETS, 20, 6, 30, false, 4, 3, false},
    {"filtered", 16, CHMU_SETS, 0, 6, 30, false, 3, 0, true},
};

class ChmuBench {
 public:
  ChmuBench(const Options& o, int argc, char** argv) : o_(o), rng_(o.seed), dut_(o, "chmu_bench", argc, argv) {}

  int run() {
    dut_.reset();
    directed();
    while ((!script_.empty() || pending_) && !failed()) cycle();
    for (uint64_t c = 0; c < o_.cycles && !failed(); ++c) {
      if (c % 2500 == 0) switch_mode();
      cycle();
    }
    finish();
    return summarize("chmu_bench", o_, sb_, cov_, requests_, dut_.assertion_failed());
  }

 private:
  bool failed() const { return sb_.errors() || dut_.assertion_failed(); }
  void push(const Request& r) { script_.push_back(r); }
  uint64_t addr_of(unsigned unit_shift, uint64_t unit) {
    return (unit << unit_shift) | (rng_.next() & ((uint64_t{1} << unit_shift) - 1));
  }
  Request access(uint64_t addr, bool write = false) { return {write ? Request::kWrite : Request::kRead, addr, 0, {}}; }
  Request op(Request::Op o) { return {o, 0, 0, {}}; }
  Request config(const ChmuConfig& c) { return {Request::kConfig, 0, 0, c}; }
  Request head(unsigned h) { return {Request::kHead, 0, h, {}}; }

  // Corner cases first, each reached on purpose.
  void directed() {
    const uint64_t page = 4096;
    push(access(5 * page));  // before the unit is enabled: ignored
    ChmuConfig c;
    c.threshold = 1;
    push(config(c));
    for (uint32_t n = 0; n < model_.max_count() + 2; ++n) push(access(3 * page + 64));  // saturates
    push(access(7 * page));
    for (int n = 0; n < 3; ++n) push(access(9 * page, true));
    push(op(Request::kEpoch));  // units 3 (max), 7 (1), 9 (3) reported in table order
    push(access(11 * page));    // waits for the scan
    push(head(1));              // a partial drain
    push(head(3));
    // One set filled with its ways, then a newcomer takes the least-counted way and its count.
    for (unsigned w = 0; w <= kGeometry.ways; ++w)
      for (unsigned n = 0; n <= w % 3; ++n) push(access((1 + w * kGeometry.sets) * page));
    push(op(Request::kEpoch));
    // Always-on at threshold 2 with a level of 3, never drained: level crossed, then overflow.
    c.always_on = true;
    c.threshold = 2;
    c.notify_level = 3;
    push(config(c));
    for (unsigned n = 0; n < 8 * kGeometry.hotlist; ++n) push(access((n % 5) * page, n % 2));
    push(op(Request::kEpoch));  // ageing only
    push(op(Request::kClear));
    // The smallest and the largest unit, randomized down-sampling, writes only.
    c = ChmuConfig{};
    c.unit_shift = 8;
    c.ds_shift = 2;
    c.random_ds = true;
    c.track_reads = false;
    push(config(c));
    for (int n = 0; n < 64; ++n) push(access(rng_.below(1024) * 256, n % 3 == 0));
    push(op(Request::kEpoch));
    // Sequential down-sampling (one in two), reads only.
    c = ChmuConfig{};
    c.ds_shift = 1;
    c.track_writes = false;
    push(config(c));
    for (int n = 0; n < 8; ++n) push(access(rng_.below(64) * page, n % 4 == 0));
    c = ChmuConfig{};
    c.unit_shift = 30;
    push(config(c));
    for (int n = 0; n < 16; ++n) push(access(rng_.below(4) << 30));
    push(op(Request::kEpoch));
  }

  void switch_mode() {
    mode_ = &kModes[rng_.below(std::size(kModes))];
    ChmuConfig c;
    c.unit_shift = kUnitShifts[rng_.below(std::size(kUnitShifts))];
    c.always_on = mode_->always_on;
    c.threshold = 1 + static_cast<uint32_t>(rng_.below(mode_->threshold_max));
    c.ds_shift = static_cast<unsigned>(rng_.below(mode_->ds_shift_max + 1));
    c.random_ds = rng_.percent(50);
    if (mode_->filter) (rng_.percent(50) ? c.track_reads : c.track_writes) = false;
    c.notify_level = static_cast<unsigned>(rng_.below(kGeometry.hotlist));
    // The units: `units` of them over `sets` sets, one of them hot.
    units_.clear();
    const uint64_t max_unit = (uint64_t{1} << (kGeometry.addr_bits - c.unit_shift)) - 1;
    for (unsigned i = 0; i < mode_->units; ++i) {
      const uint64_t set = rng_.below(mode_->sets);
      const uint64_t tag = rng_.below((max_unit >> 3) / kGeometry.sets + 1);
      units_.push_back(std::min(max_unit, tag * kGeometry.sets + set));
    }
    unit_shift_ = c.unit_shift;
    push(config(c));
  }

  Request random_request() {
    const Mode& m = *mode_;
    if (rng_.below(1000) < m.epoch_per_mille) return op(Request::kEpoch);
    if (rng_.below(1000) < m.drain_per_mille) {
      // The host drains part or all of what the ring holds (as the model holds it now: requests
      // are taken in order, so that is what the RTL will hold when it takes this one).
      const unsigned h =
          (model_.head() + static_cast<unsigned>(rng_.below(model_.occupancy() + 1))) & (kGeometry.hotlist - 1);
      return head(h);
    }
    if (rng_.below(1000) < 3) return op(Request::kClear);
    const uint64_t unit = rng_.percent(m.hot) ? units_[0] : units_[rng_.below(units_.size())];
    return access(addr_of(unit_shift_, unit), rng_.percent(40));
  }

  void drive(const Request& r) {
    dut_->req_op = r.op;
    dut_->req_addr = r.addr;
    dut_->req_head = r.head;
    dut_->cfg_threshold = r.config.threshold;
    dut_->cfg_unit_shift = r.config.unit_shift;
    dut_->cfg_ds_shift = r.config.ds_shift;
    dut_->cfg_random_ds = r.config.random_ds;
    dut_->cfg_always_on = r.config.always_on;
    dut_->cfg_track_reads = r.config.track_reads;
    dut_->cfg_track_writes = r.config.track_writes;
    dut_->cfg_notify_level = r.config.notify_level;
  }

  std::string at() const { return "cycle " + std::to_string(dut_.cycle()) + ": "; }
  template <class A, class B>
  void same(const char* what, A rtl, B model) {
    sb_.check(static_cast<uint64_t>(rtl) == static_cast<uint64_t>(model),
              at() + what + " " + std::to_string(static_cast<uint64_t>(rtl)) + ", model " +
                  std::to_string(static_cast<uint64_t>(model)));
  }

  // The RTL is idle (it has done everything it took): its visible state is the model's.
  void compare_state() {
    same("head", dut_->head, model_.head());
    same("tail", dut_->tail, model_.tail());
    same("enabled", dut_->enabled, model_.enabled());
    same("overflow", dut_->overflow, model_.overflow());
    same("level_crossed", dut_->level_crossed, model_.level_crossed());
    const ChmuStats& s = model_.stats();
    same("counted", dut_->stat_counted, s.counted);
    same("filtered", dut_->stat_filtered, s.filtered);
    same("sampled_out", dut_->stat_sampled_out, s.sampled_out);
    same("replaced", dut_->stat_replaced, s.replaced);
    same("reported", dut_->stat_reported, s.reported);
    same("dropped", dut_->stat_dropped, s.dropped);
  }

  // rd_index was driven before settling; a slot the ring holds must read as the model's.
  void compare_entry(unsigned index) {
    if (((index - model_.head()) & (kGeometry.hotlist - 1)) >= model_.occupancy()) return;
    const HotlistEntry& want = model_.entry(index);
    sb_.check(dut_->rd_unit == want.unit && dut_->rd_count == want.count,
              at() + "hotlist[" + std::to_string(index) + "] = (unit " + std::to_string(dut_->rd_unit) + ", count " +
                  std::to_string(dut_->rd_count) + "), model (" + std::to_string(want.unit) + ", " +
                  std::to_string(want.count) + ")");
  }

  void cycle() {
    if (!pending_) {
      if (!script_.empty()) {
        pending_ = script_.front();
        script_.pop_front();
      } else if (mode_) {
        pending_ = random_request();
      }
    }
    if (pending_) drive(*pending_);
    dut_->req_valid = pending_.has_value();
    const unsigned index = static_cast<unsigned>(rng_.below(kGeometry.hotlist));
    dut_->rd_index = index;
    dut_.settle();
    const bool idle = dut_->req_ready;
    if (idle) {
      compare_state();
      compare_entry(index);
    }
    cov_.hit(c_.stalled_by_scan, pending_ && !idle);
    if (pending_ && idle) {
      accept(*pending_);
      pending_.reset();
    }
    dut_.rise();
  }

  // The RTL takes the request at this edge; the model takes it too. Coverage from its state before.
  void accept(const Request& r) {
    ++requests_;
    const ChmuStats before = model_.stats();
    const unsigned tail0 = model_.tail(), head0 = model_.head();
    const bool overflow = model_.overflow(), level = model_.level_crossed(), enabled = model_.enabled();
    switch (r.op) {
      case Request::kRead:
      case Request::kWrite: {
        const bool write = r.op == Request::kWrite;
        const bool tracked = write ? model_.config().track_writes : model_.config().track_reads;
        const bool counts = enabled && tracked && model_.next_sampled();
        const uint64_t unit = model_.unit_of(r.addr);
        const uint32_t held = model_.held_count(unit);
        const bool full_set = model_.set_full(unit);
        cov_.hit(c_.access_disabled, !enabled);
        model_.access(r.addr, write);
        const ChmuStats& s = model_.stats();
        const bool replaced = s.replaced > before.replaced;
        cov_.hit(c_.hit, counts && held > 0);
        cov_.hit(c_.miss_free_way, counts && held == 0 && !full_set);
        cov_.hit(c_.replacement, replaced);
        cov_.hit(c_.replacement_inherits, replaced && model_.held_count(unit) > 1);
        cov_.hit(c_.saturated_increment, counts && held == model_.max_count());
        cov_.hit(c_.always_on_report, s.reported > before.reported);
        cov_.hit(c_.filtered_read, s.filtered > before.filtered && !write);
        cov_.hit(c_.filtered_write, s.filtered > before.filtered && write);
        cov_.hit(c_.sampled_out, s.sampled_out > before.sampled_out && !model_.config().random_ds);
        cov_.hit(c_.sampled_out_random, s.sampled_out > before.sampled_out && model_.config().random_ds);
        cov_.hit(c_.unit_smallest, counts && model_.config().unit_shift == 8);
        cov_.hit(c_.unit_largest, counts && model_.config().unit_shift == 30);
        break;
      }
      case Request::kEpoch:
        model_.end_epoch();
        cov_.hit(c_.epoch_report, model_.stats().reported > before.reported && !model_.config().always_on);
        cov_.hit(c_.epoch_several_reports, model_.stats().reported > before.reported + 1);
        cov_.hit(c_.epoch_ageing, enabled && model_.config().always_on);
        break;
      case Request::kHead:
        cov_.hit(c_.partial_drain, r.head != head0 && r.head != tail0);
        cov_.hit(c_.full_drain, r.head == tail0 && head0 != tail0);
        model_.set_head(r.head);
        break;
      case Request::kConfig:
        cov_.hit(c_.reconfigure_nonempty, head0 != tail0);
        model_.configure(r.config);
        break;
      case Request::kClear:
        cov_.hit(c_.clear_status, overflow || level);
        model_.clear_status();
        break;
    }
    const ChmuStats& s = model_.stats();
    cov_.hit(c_.overflow, s.dropped > before.dropped);
    cov_.hit(c_.level_crossed, model_.level_crossed() && !level);
    cov_.hit(c_.ring_wraps, s.reported > before.reported && model_.tail() < tail0);
    cov_.hit(c_.ring_full, model_.full());
  }

  // What was started finishes (a scan included), then every slot of the ring is read back.
  void finish() {
    mode_ = nullptr;
    while ((!script_.empty() || pending_) && !failed()) cycle();
    for (unsigned n = 0; n < kGeometry.sets * kGeometry.ways + 4; ++n) cycle();
    for (unsigned i = 0; i < kGeometry.hotlist; ++i) {
      dut_->req_valid = 0;
      dut_->rd_index = i;
      dut_.settle();
      compare_entry(i);
      dut_.rise();
    }
    compare_state();
    sb_.check(!dut_->busy, "the CHMU still scans after the run");
  }

  struct Points {
    explicit Points(Coverage& c)
        : access_disabled(c.add("access_while_disabled")),
          hit(c.add("table_hit")),
          miss_free_way(c.add("miss_into_free_way")),
          replacement(c.add("replacement")),
          replacement_inherits(c.add("replacement_inherits_count")),
          saturated_increment(c.add("saturated_increment")),
          always_on_report(c.add("always_on_report")),
          epoch_report(c.add("epoch_report")),
          epoch_several_reports(c.add("epoch_several_reports")),
          epoch_ageing(c.add("always_on_epoch_ageing")),
          filtered_read(c.add("filtered_read")),
          filtered_write(c.add("filtered_write")),
          sampled_out(c.add("sampled_out")),
          sampled_out_random(c.add("sampled_out_randomized")),
          unit_smallest(c.add("unit_256B")),
          unit_largest(c.add("unit_1GiB")),
          partial_drain(c.add("partial_drain")),
          full_drain(c.add("full_drain")),
          reconfigure_nonempty(c.add("reconfigure_nonempty_ring")),
          clear_status(c.add("clear_status_set")),
          overflow(c.add("hotlist_overflow")),
          level_crossed(c.add("level_crossed")),
          ring_wraps(c.add("ring_wraps")),
          ring_full(c.add("ring_full")),
          stalled_by_scan(c.add("request_stalled_by_scan")) {}
    int access_disabled, hit, miss_free_way, replacement, replacement_inherits, saturated_increment, always_on_report,
        epoch_report, epoch_several_reports, epoch_ageing, filtered_read, filtered_write, sampled_out,
        sampled_out_random, unit_smallest, unit_largest, partial_drain, full_drain, reconfigure_nonempty, clear_status,
        overflow, level_crossed, ring_wraps, ring_full, stalled_by_scan;
  };

  Options o_;
  Rng rng_;
  Clocked<Dut> dut_;
  ChmuModel model_{kGeometry};
  Coverage cov_;
  Points c_{cov_};
  Scoreboard sb_;
  std::deque<Request> script_;
  std::optional<Request> pending_;  // presented to the RTL, not yet taken
  const Mode* mode_ = nullptr;
  std::vector<uint64_t> units_;
  unsigned unit_shift_ = 12;
  uint64_t requests_ = 0;
};

}  // namespace
}  // namespace starnuma::bench

int main(int argc, char** argv) {
  using namespace starnuma::bench;
  Options o = parse_options(argc, argv, "chmu_bench");
  if (o.width != 4 && o.width != CHMU_COUNTER_BITS) {  // 4: parse_options' default
    std::fprintf(stderr, "chmu_bench: the RTL is built with %u-bit counters; +width takes no other value\n",
                 CHMU_COUNTER_BITS);
    return 2;
  }
  o.width = CHMU_COUNTER_BITS;
  return ChmuBench(o, argc, argv).run();
}
