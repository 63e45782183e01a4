// `impl: rtl`: the Verilated tlb_counter_annex (one per core) and tracker_update (one per socket, or
// one per core), driven from C++ without SystemC. They are clocked only while they have work: apply() drives one
// beat and ticks until the annex and the tracker are idle again, answering each memory request
// the cycle after it is taken (the memory's timing is the fabric's, applied by SocketTracking).
#include <verilated.h>

#include <string>
#include <type_traits>

#include "Vtlb_counter_annex_l1_w0.h"
#include "Vtlb_counter_annex_l1_w1.h"
#include "Vtlb_counter_annex_l1_w16.h"
#include "Vtlb_counter_annex_l1_w4.h"
#include "Vtlb_counter_annex_l1_w8.h"
#include "Vtlb_counter_annex_l2_w0.h"
#include "Vtlb_counter_annex_l2_w1.h"
#include "Vtlb_counter_annex_l2_w16.h"
#include "Vtlb_counter_annex_l2_w4.h"
#include "Vtlb_counter_annex_l2_w8.h"
#include "Vtracker_update_w0.h"
#include "Vtracker_update_w1.h"
#include "Vtracker_update_w16.h"
#include "Vtracker_update_w4.h"
#include "Vtracker_update_w8.h"
#include "common/diagnostics.hpp"
#include "tracking/tracking_engine.hpp"

namespace starnuma {
namespace {

// Assigns to a Verilated port of whatever width (CData .. QData).
template <class Port, class V>
void drive(Port& port, V value) {
  port = static_cast<Port>(value);
}

template <class Annex, class Tracker>
class RtlEngine final : public TrackingEngine {
 public:
  explicit RtlEngine(const EngineConfig& c) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);  // an RTL assertion becomes a reported model error
    for (unsigned k = 0; k < c.cores; ++k) {
      annexes_.push_back(std::make_unique<Annex>(ctx_.get(), ("annex" + std::to_string(k)).c_str()));
      drive(annexes_.back()->socket_id, c.socket);
    }
    for (unsigned k = 0; k < c.trackers; ++k) {
      trackers_.push_back(std::make_unique<Tracker>(ctx_.get(), ("tracker" + std::to_string(k)).c_str()));
      drive(trackers_.back()->meta_base, c.tracker.meta_base);
      trackers_.back()->mem_req_ready = 1;  // the fabric takes every request at once
    }
    entry_mask_ = TrackerUpdateModel(c.tracker).entry_mask();
    reset();
  }
  ~RtlEngine() override {
    for (auto& a : annexes_) a->final();
    for (auto& t : trackers_) t->final();
  }

  void apply(unsigned core, const AnnexBeat& beat, MetadataMemory& memory) override {
    Annex& a = *annexes_[core];
    Tracker& t = *trackers_[trackers_.size() == 1 ? 0 : core];
    bool pending = !beat.empty();
    drive_beat(a, beat);
    bool respond = false;  // a memory response is due this cycle
    uint64_t rdata = 0;
    for (;;) {
      const bool annex_on = pending || a.busy;
      const bool tracker_on = t.busy || respond || (annex_on && a.flush_valid);
      if (!annex_on && !tracker_on) break;
      // Clock low: outputs settle, handshakes are sampled.
      if (annex_on) settle(a);
      t.in_valid = annex_on && a.flush_valid;
      drive(t.in_ppage, a.flush_ppage);
      drive(t.in_count, a.flush_count);
      drive(t.in_socket, a.flush_socket);
      t.mem_resp_valid = respond;
      drive(t.mem_resp_rdata, rdata);
      if (tracker_on) settle(t);
      a.flush_ready = t.in_ready;
      const bool taken = pending && a.in_ready;
      respond = tracker_on && t.mem_req_valid;
      if (respond) {
        if (t.mem_req_write) {
          memory.write(t.mem_req_addr, t.mem_req_wdata);
        } else {
          rdata = memory.read(t.mem_req_addr) & entry_mask_;
        }
      }
      // The rising edge.
      if (annex_on) rise(a);
      if (tracker_on) rise(t);
      if (taken) {
        pending = false;
        drive_beat(a, AnnexBeat{});
      }
    }
    t.mem_resp_valid = 0;
    if (ctx_->gotError()) report_error(msg::kModel, "tracking: an RTL assertion failed (see the message above)");
  }

 private:
  template <class V>
  static void settle(V& v) {
    v.clk = 0;
    v.eval();
  }
  template <class V>
  static void rise(V& v) {
    v.clk = 1;
    v.eval();
  }

  static void drive_beat(Annex& a, const AnnexBeat& b) {
    a.evict_valid = b.evict.has_value();
    drive(a.evict_index, b.evict.value_or(0));
    a.fill_valid = b.fill.has_value();
    if (b.fill) {
      drive(a.fill_index, b.fill->index);
      drive(a.fill_vpage, b.fill->vpage);
      drive(a.fill_ppage, b.fill->ppage);
    }
    a.hit_valid = b.hit.has_value();
    drive(a.hit_index, b.hit.value_or(0));
    a.load_valid = b.load.has_value();
    drive(a.load_index, b.load.value_or(0));
    a.phase_valid = b.phase;
  }

  void reset() {
    for (auto& a : annexes_) a->rst = 1;
    for (auto& t : trackers_) t->rst = 1;
    for (int i = 0; i < 4; ++i) {
      for (auto& a : annexes_) settle(*a), rise(*a);
      for (auto& t : trackers_) settle(*t), rise(*t);
    }
    for (auto& a : annexes_) a->rst = 0, settle(*a);
    for (auto& t : trackers_) t->rst = 0, settle(*t);
  }

  std::unique_ptr<VerilatedContext> ctx_;  // first member: destroyed after the models
  std::vector<std::unique_ptr<Annex>> annexes_;
  std::vector<std::unique_ptr<Tracker>> trackers_;
  uint64_t entry_mask_ = 0;
};

std::string join(const std::vector<unsigned>& v) {
  std::string s;
  for (unsigned x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

}  // namespace

const RtlBuild& rtl_build() {
  static const RtlBuild build{STARNUMA_RTL_L1_ANNEX_ENTRIES, STARNUMA_RTL_L2_ANNEX_ENTRIES, STARNUMA_RTL_SOCKETS,
                              STARNUMA_RTL_QUEUE_DEPTH,      STARNUMA_RTL_PAGES_PER_REGION, {0, 1, 4, 8, 16}};
  return build;
}

namespace {
template <class L1Annex, class L2Annex, class Tracker>
std::unique_ptr<TrackingEngine> make_engine(const EngineConfig& c) {
  if (c.tlb_entries == rtl_build().l1_annex_entries) return std::make_unique<RtlEngine<L1Annex, Tracker>>(c);
  if (c.tlb_entries == rtl_build().l2_annex_entries) return std::make_unique<RtlEngine<L2Annex, Tracker>>(c);
  report_error(msg::kConfig, "tracking: impl: rtl has no annex of " + std::to_string(c.tlb_entries) +
                                 " entries; the RTL library holds " + std::to_string(rtl_build().l1_annex_entries) +
                                 " (L1 DTLB) and " + std::to_string(rtl_build().l2_annex_entries) + " (STLB)");
}
}  // namespace

std::unique_ptr<TrackingEngine> make_rtl_engine(const EngineConfig& c) {
  switch (c.tracker.counter_bits) {
#define STARNUMA_RTL_WIDTH(w) \
  case w: return make_engine<Vtlb_counter_annex_l1_w##w, Vtlb_counter_annex_l2_w##w, Vtracker_update_w##w>(c);
    STARNUMA_RTL_WIDTH(0)
    STARNUMA_RTL_WIDTH(1)
    STARNUMA_RTL_WIDTH(4)
    STARNUMA_RTL_WIDTH(8)
    STARNUMA_RTL_WIDTH(16)
#undef STARNUMA_RTL_WIDTH
    default:
      report_error(msg::kConfig, "tracking: impl: rtl has no T" + std::to_string(c.tracker.counter_bits) +
                                     " build; the RTL library holds counter_bits " + join(rtl_build().widths));
  }
}

}  // namespace starnuma
