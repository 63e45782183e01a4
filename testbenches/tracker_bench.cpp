// Constrained-random bench for rtl/tracker_update.sv: every memory request is scored against
// TrackerUpdateModel's, in order, and the metadata is compared at the end.
// Usage: tracker_bench [+seed=N] [+width=0|1|4|8|16] [+cycles=N] [+trace[=file.fst]]
#include <algorithm>
#include <cstdio>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include "bench_common.hpp"
#include "tracking/tracker_update_model.hpp"

#ifdef STARNUMA_BENCH_WRAPBUG
#include "Vtracker_update_wrapbug.h"
#else
#include "Vtracker_update_w0.h"
#include "Vtracker_update_w1.h"
#include "Vtracker_update_w16.h"
#include "Vtracker_update_w4.h"
#include "Vtracker_update_w8.h"
#endif

namespace starnuma::bench {
namespace {

constexpr unsigned kSockets = TRACKER_SOCKETS;  // the -G values the RTL was built with
constexpr uint64_t kPagesPerRegion = TRACKER_PAGES_PER_REGION;
constexpr unsigned kQueueDepth = TRACKER_QUEUE_DEPTH;
constexpr uint64_t kMetaBase = TRACKER_META_BASE;
constexpr uint64_t kRegions = 48;  // a small physical space, so regions are updated repeatedly

struct MemRequest {
  uint64_t addr;
  bool write;
  uint64_t data;  // write data (0 for reads)
  bool operator==(const MemRequest& o) const { return addr == o.addr && write == o.write && data == o.data; }
};

std::string describe(const MemRequest& r) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s 0x%llx data 0x%llx", r.write ? "write" : "read",
                static_cast<unsigned long long>(r.addr), static_cast<unsigned long long>(r.data));
  return buf;
}

// The model's view of memory: a copy of the metadata that logs the requests the RTL must make.
class ShadowMemory : public MetadataMemory {
 public:
  uint64_t read(uint64_t addr) override {
    expected.push_back({addr, false, 0});
    return words[addr];
  }
  void write(uint64_t addr, uint64_t data) override {
    expected.push_back({addr, true, data});
    words[addr] = data;
  }
  std::map<uint64_t, uint64_t> words;
  std::deque<MemRequest> expected;
};

struct Mode {
  const char* name;
  unsigned flush_rate, req_ready, max_latency, boundary, hot_region, count_max;  // percentages
};
constexpr Mode kModes[] = {
    {"mix", 50, 80, 4, 10, 10, 20},
    {"burst", 100, 30, 10, 10, 10, 20},  // slow memory: the queue fills, the annex stalls
    {"boundary", 60, 90, 2, 80, 0, 20},  // first and last pages of regions
    {"hot", 80, 80, 3, 0, 80, 60},       // one region, large counts: saturation, elided writes
    {"fast", 100, 100, 1, 10, 10, 20},   // back-to-back flushes
};

template <class V>
class TrackerBench {
 public:
  TrackerBench(const Options& o, int argc, char** argv)
      : o_(o),
        rng_(o.seed),
        dut_(o, "tracker_bench", argc, argv),
        model_({kSockets, o.width, kPagesPerRegion, kMetaBase}) {
    dut_->meta_base = kMetaBase;
    // Random initial metadata (unused high bits included: the RTL must keep them).
    for (uint64_t r = 0; r < kRegions; ++r)
      memory_[model_.entry_address(r * kPagesPerRegion)] = rng_.next() & model_.entry_mask();
    shadow_.words = memory_;
  }

  int run() {
    dut_.reset();
    directed();
    while ((!script_.empty() || pending_) && !failed()) cycle(nullptr);
    for (uint64_t c = 0; c < o_.cycles && !failed(); ++c) {
      if (c % 2000 == 0) {
        quiesce();
        os_scan();
        mode_ = &kModes[rng_.below(std::size(kModes))];
        hot_region_ = rng_.below(kRegions);
      }
      cycle(mode_);
    }
    quiesce();
    sb_.check(!dut_->busy, "tracker still busy after the drain");
    sb_.check(shadow_.expected.empty(), std::to_string(shadow_.expected.size()) + " memory requests never came");
    for (const auto& [addr, data] : shadow_.words)
      sb_.check(memory_[addr] == data,
                "metadata at " + describe({addr, false, memory_[addr]}) + ", model has 0x" + std::to_string(data));
    return summarize("tracker_bench", o_, sb_, cov_, flushes_, dut_.assertion_failed());
  }

 private:
  FlushRequest flush(uint64_t ppage, unsigned socket, uint32_t count) {
    return {rng_.next() & 0xfffffffffull, ppage, count, socket};
  }
  void push(const FlushRequest& f, unsigned stall = 0) { script_.push_back({f, stall}); }

  void directed() {
    const uint32_t max = model_.max_count();
    const uint64_t last = kRegions * kPagesPerRegion - 1;
    for (uint64_t p : {kPagesPerRegion - 1, kPagesPerRegion, uint64_t{0}, last})  // boundaries
      push(flush(p, 3, max));
    push(flush(5, 7, max));              // region 0 again: saturates (T>0)
    push(flush(6, 7, 0));                // bit set, nothing to add: the write is elided
    push(flush(7, 8, max ? 1 : 0), 30);  // memory stalls: the queue fills behind this one
    for (unsigned s = 0; s < kQueueDepth + 2; ++s) push(flush(2 * kPagesPerRegion + s, s, s & max));
    for (unsigned s = 0; s < kSockets; ++s) push(flush(3 * kPagesPerRegion + s, s, 0));  // sharers
  }

  bool failed() const { return sb_.errors() || dut_.assertion_failed(); }

  // Lets every accepted update finish (no new flushes).
  void quiesce() {
    for (int idle = 0; idle < 10000 && (dut_->busy || pending_) && !failed(); ++idle) cycle(nullptr);
  }

  // The OS's once-per-phase metadata scan resets the entries (most to zero, some left random).
  void os_scan() {
    for (auto& [addr, data] : memory_) data = rng_.percent(70) ? 0 : rng_.next() & model_.entry_mask();
    shadow_.words = memory_;
  }

  std::optional<FlushRequest> random_flush(const Mode& m) {
    if (!rng_.percent(m.flush_rate)) return std::nullopt;
    uint64_t region = rng_.percent(m.hot_region) ? hot_region_ : rng_.below(kRegions);
    uint64_t offset = rng_.below(kPagesPerRegion);
    if (rng_.percent(m.boundary)) {
      offset = rng_.percent(50) ? 0 : kPagesPerRegion - 1;
      if (offset == 0 && region == 0) region = 1;  // so the page before exists below
    }
    const uint32_t max = model_.max_count();
    uint32_t count = 0;  // T0 flushes always carry 0
    if (max > 0) {
      count = rng_.percent(m.count_max) ? max
              : rng_.percent(25)        ? 0
                                        : 1 + static_cast<uint32_t>(rng_.below(std::min(max, 16u)));
    }
    return flush(region * kPagesPerRegion + offset, static_cast<unsigned>(rng_.below(kSockets)), count);
  }

  void cycle(const Mode* m) {
    if (!pending_) {
      if (!script_.empty()) {
        pending_ = script_.front().flush;
        if (script_.front().stall) stall_ = script_.front().stall;
        script_.pop_front();
      } else if (m) {
        pending_ = random_flush(*m);
      }
    }
    dut_->in_valid = pending_.has_value();
    dut_->in_ppage = pending_ ? pending_->ppage : rng_.next();  // junk when not valid
    dut_->in_count = pending_ ? pending_->count : 0;
    dut_->in_socket = pending_ ? pending_->socket : 0;
    dut_->mem_req_ready = !stall_ && rng_.percent(m ? m->req_ready : 100);
    dut_->mem_resp_valid = resp_in_ == 1;
    dut_->mem_resp_rdata = resp_in_ == 1 ? resp_data_ : rng_.next();
    if (stall_) --stall_;
    if (resp_in_) --resp_in_;
    dut_.settle();

    const bool took = dut_->in_valid && dut_->in_ready;
    cov_.hit(c_.queue_full, dut_->in_valid && !dut_->in_ready);
    cov_.hit(c_.back_to_back, took && took_last_);
    took_last_ = took;
    if (took) accept(*pending_);
    if (dut_->mem_req_valid && dut_->mem_req_ready) serve(m);
    cov_.hit(c_.req_backpressure, dut_->mem_req_valid && !dut_->mem_req_ready);
    if (took) pending_.reset();
    dut_.rise();
  }

  void accept(const FlushRequest& f) {
    ++flushes_;
    const uint64_t addr = model_.entry_address(f.ppage);
    const uint64_t before = shadow_.words[addr];
    const uint64_t bit = uint64_t{1} << f.socket;
    const uint32_t max = model_.max_count();
    const uint64_t offset = f.ppage % kPagesPerRegion;
    cov_.hit(c_.region_first_page, offset == 0);
    cov_.hit(c_.region_last_page, offset == kPagesPerRegion - 1);
    cov_.hit(c_.crosses_boundary, last_ppage_ && f.ppage + 1 == *last_ppage_ && offset == kPagesPerRegion - 1);
    cov_.hit(c_.crosses_boundary, last_ppage_ && *last_ppage_ + 1 == f.ppage && offset == 0);
    cov_.hit(c_.same_region_next,
             last_ppage_ && *last_ppage_ != f.ppage && model_.region(*last_ppage_) == model_.region(f.ppage));
    for (const Inflight& i : inflight_) cov_.hit(c_.same_region_in_flight, i.addr == addr);
    cov_.hit(c_.new_sharer, !(before & bit));
    cov_.hit(c_.count_added, f.count > 0 && model_.count(before) + f.count <= max);
    cov_.hit(c_.count_saturates, f.count > 0 && model_.count(before) + f.count > max);
    cov_.hit(c_.count_zero, f.count == 0);
    cov_.hit(c_.count_max, f.count == max);
    sockets_seen_ |= bit;
    cov_.hit(c_.all_sockets, sockets_seen_ == (uint64_t{1} << kSockets) - 1);
    last_ppage_ = f.ppage;
    const bool wrote = model_.update(f, shadow_);
    cov_.hit(c_.write_elided, !wrote);
    inflight_.push_back({addr, wrote ? 2u : 1u});
  }

  // The RTL's memory request was accepted: score it, perform it, schedule its response.
  void serve(const Mode* m) {
    const MemRequest got{dut_->mem_req_addr, static_cast<bool>(dut_->mem_req_write),
                         dut_->mem_req_write ? static_cast<uint64_t>(dut_->mem_req_wdata) : 0};
    if (!inflight_.empty() && --inflight_.front().requests_left == 0) inflight_.pop_front();
    if (shadow_.expected.empty()) {
      sb_.error("cycle " + std::to_string(dut_.cycle()) + ": unexpected " + describe(got));
    } else {
      const MemRequest want = shadow_.expected.front();
      shadow_.expected.pop_front();
      sb_.check(got == want,
                "cycle " + std::to_string(dut_.cycle()) + ": " + describe(got) + ", expected " + describe(want));
    }
    cov_.hit(c_.write_request, got.write);
    resp_data_ = memory_[got.addr];
    if (got.write) memory_[got.addr] = got.data;
    resp_in_ = 1 + static_cast<unsigned>(rng_.below(m ? m->max_latency : 3));
    cov_.hit(c_.slow_response, resp_in_ > 1);
  }

  struct Inflight {
    uint64_t addr;
    unsigned requests_left;  // requests of this update the RTL has not issued yet
  };
  struct Scripted {
    FlushRequest flush;
    unsigned stall;  // cycles the memory refuses requests, from this flush on
  };
  struct Points {
    Points(Coverage& c, unsigned width)
        : region_first_page(c.add("region_first_page")),
          region_last_page(c.add("region_last_page")),
          crosses_boundary(c.add("adjacent_pages_across_regions")),
          same_region_next(c.add("same_region_consecutive")),
          same_region_in_flight(c.add("same_region_in_flight")),
          new_sharer(c.add("new_sharer_bit")),
          write_elided(c.add("write_elided")),
          count_added(c.add("count_added", width > 0)),  // T0: no counter
          count_saturates(c.add("count_saturates", width > 0)),
          count_zero(c.add("flush_count_zero")),
          count_max(c.add("flush_count_max")),
          all_sockets(c.add("every_socket")),
          write_request(c.add("write_request")),
          req_backpressure(c.add("memory_backpressure")),
          slow_response(c.add("slow_response")),
          queue_full(c.add("queue_full_stall")),
          back_to_back(c.add("back_to_back_flushes")) {}
    int region_first_page, region_last_page, crosses_boundary, same_region_next, same_region_in_flight, new_sharer,
        write_elided, count_added, count_saturates, count_zero, count_max, all_sockets, write_request, req_backpressure,
        slow_response, queue_full, back_to_back;
  };

  Options o_;
  Rng rng_;
  Clocked<V> dut_;
  TrackerUpdateModel model_;
  Coverage cov_;
  Points c_{cov_, o_.width};
  Scoreboard sb_;
  std::map<uint64_t, uint64_t> memory_;  // what the RTL reads and writes
  ShadowMemory shadow_;                  // what the model reads and writes
  std::deque<Scripted> script_;
  std::optional<FlushRequest> pending_;
  std::deque<Inflight> inflight_;
  std::optional<uint64_t> last_ppage_;
  const Mode* mode_ = nullptr;
  uint64_t hot_region_ = 0;
  uint64_t sockets_seen_ = 0;
  uint64_t resp_data_ = 0;
  unsigned resp_in_ = 0;  // cycles until the response (1: this cycle)
  unsigned stall_ = 0;
  bool took_last_ = false;
  uint64_t flushes_ = 0;
};

template <class V>
int run(const Options& o, int argc, char** argv) {
  return TrackerBench<V>(o, argc, argv).run();
}

}  // namespace
}  // namespace starnuma::bench

int main(int argc, char** argv) {
  using namespace starnuma::bench;
  Options o = parse_options(argc, argv, "tracker_bench");
#ifdef STARNUMA_BENCH_WRAPBUG
  o.width = 4;  // built from the RTL with STARNUMA_INJECT_WRAP_BUG at T4
  return run<Vtracker_update_wrapbug>(o, argc, argv);
#else
  switch (o.width) {
    case 0: return run<Vtracker_update_w0>(o, argc, argv);
    case 1: return run<Vtracker_update_w1>(o, argc, argv);
    case 4: return run<Vtracker_update_w4>(o, argc, argv);
    case 8: return run<Vtracker_update_w8>(o, argc, argv);
    case 16: return run<Vtracker_update_w16>(o, argc, argv);
  }
  std::fprintf(stderr, "tracker_bench: +width must be 0, 1, 4, 8 or 16\n");
  return 2;
#endif
}
