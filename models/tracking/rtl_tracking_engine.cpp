// `impl: rtl`: the Verilated tlb_counter_annex (one per core) and tracker_update (one per socket, or
// one per core), driven from C++ without SystemC. They are clocked only while they have work: apply() drives one
// beat and ticks until the annex and the tracker are idle again, answering each memory request
// the cycle after it is taken (the memory's timing is the fabric's, applied by SocketTracking).
#include <verilated.h>
#include <verilated_syms.h>

#include <algorithm>
#include <cstring>
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
#include "debug/waves.hpp"
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
    // Verilator 5.006 files a model's scopes (its public signals, for the waves) in the thread's
    // context, not the model's: that is ours while the models are made and unmade, so each
    // socket's engine finds its own.
    Verilated::threadContextp(ctx_.get());
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
    Verilated::threadContextp(ctx_.get());
    for (auto& a : annexes_) a->final();
    for (auto& t : trackers_) t->final();
    annexes_.clear();
    trackers_.clear();
    Verilated::threadContextp(Verilated::defaultContextp());  // one that outlives ours
  }

  void attach_waves(Waves& waves, const std::string& scope, int64_t cycle_ps) override {
    cycle_ps_ = std::max<int64_t>(cycle_ps, 2);
    for (size_t k = 0; k < annexes_.size(); ++k) {
      Annex& a = *annexes_[k];
      Ports p(waves, scope + ".annex" + std::to_string(k));
      p.add("clk", a.clk).add("evict_valid", a.evict_valid).add("fill_valid", a.fill_valid);
      p.add("hit_valid", a.hit_valid).add("load_valid", a.load_valid).add("phase_valid", a.phase_valid);
      p.add("in_ready", a.in_ready).add("busy", a.busy).add("flush_valid", a.flush_valid);
      p.add("flush_ready", a.flush_ready)
          .add("flush_ppage", a.flush_ppage, false)
          .add("flush_count", a.flush_count, false);
      p.add_internals(*ctx_, "annex" + std::to_string(k));
      annex_ports_.push_back(std::move(p));
    }
    for (size_t k = 0; k < trackers_.size(); ++k) {
      Tracker& t = *trackers_[k];
      Ports p(waves, scope + ".tracker" + std::to_string(k));
      p.add("clk", t.clk).add("in_valid", t.in_valid).add("in_ready", t.in_ready).add("in_ppage", t.in_ppage, false);
      p.add("in_count", t.in_count, false).add("busy", t.busy).add("mem_req_valid", t.mem_req_valid);
      p.add("mem_req_write", t.mem_req_write).add("mem_req_addr", t.mem_req_addr, false);
      p.add("mem_req_wdata", t.mem_req_wdata, false).add("mem_resp_valid", t.mem_resp_valid);
      p.add("mem_resp_rdata", t.mem_resp_rdata, false);
      p.add_internals(*ctx_, "tracker" + std::to_string(k));
      tracker_ports_.push_back(std::move(p));
    }
    drawn_until_.assign(annexes_.size(), 0);
    waves_ = &waves;
  }

  void apply(unsigned core, const AnnexBeat& beat, MetadataMemory& memory) override {
    Annex& a = *annexes_[core];
    Tracker& t = *trackers_[trackers_.size() == 1 ? 0 : core];
    Ports* annex_ports = waves_ ? &annex_ports_[core] : nullptr;
    Ports* tracker_ports = waves_ ? &tracker_ports_[trackers_.size() == 1 ? 0 : core] : nullptr;
    // The waves' time of this cycle: a core's beats come in its time order, and its annex finishes
    // one beat's cycles before the next begins.
    int64_t cycle_at = waves_ ? std::max(beat_ps_, drawn_until_[core]) : 0;
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
      if (waves_) {  // the values the edge samples, settled in the clock's low half
        annex_ports->sample(cycle_at, cycle_at + cycle_ps_ / 2);
        tracker_ports->sample(cycle_at, cycle_at + cycle_ps_ / 2);
        cycle_at += cycle_ps_;
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
    if (waves_) drawn_until_[core] = cycle_at;
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

  // A model's ports and marked internal signals: each sampled value recorded when it changes, and
  // its clock.
  class Ports {
   public:
    Ports(Waves& waves, std::string scope) : waves_(&waves), scope_(std::move(scope)) {}
    template <class Port>
    Ports& add(const char* name, Port& port, bool flag = true) {
      const unsigned width = flag ? 1 : static_cast<unsigned>(sizeof(Port) * 8);
      add_probe(scope_, name, &port, sizeof(Port), 1, width, name == std::string("clk"));
      return *this;
    }
    // The signals the RTL marks /*verilator public_flat_rd*/ (states, pointers, counters), found in
    // the model's scopes: `model.top.inst.var` becomes `scope.inst.var`, and an unpacked array's
    // elements `var(i)`, as Verilator's own traces name them. Vectors over 64 bits are left out.
    void add_internals(VerilatedContext& ctx, const std::string& model) {
      for (const auto& [scope_name, verilated] : *ctx.scopeNameMap()) {
        const std::string full(scope_name);
        if (full.rfind(model + ".", 0) != 0 || !verilated->varsp()) continue;
        const size_t top_end = full.find('.', model.size() + 1);  // past the top module's name
        const std::string scope = top_end == std::string::npos ? scope_ : scope_ + full.substr(top_end);
        for (const auto& [name, var] : *verilated->varsp()) {
          const size_t bytes = var.vltype() == VLVT_UINT8    ? 1
                               : var.vltype() == VLVT_UINT16 ? 2
                               : var.vltype() == VLVT_UINT32 ? 4
                               : var.vltype() == VLVT_UINT64 ? 8
                                                             : 0;
          if (var.isParam() || bytes == 0 || var.udims() > 1) continue;
          const int elements = var.udims() == 1 ? var.unpacked().elements() : 1;
          add_probe(scope, name, var.datap(), bytes, elements, static_cast<unsigned>(var.packed().elements()), false,
                    var.udims() == 1);
        }
      }
    }
    // The clock rises at `edge` after the settled values (taken at `settled`, its low half).
    void sample(int64_t settled, int64_t edge) {
      for (Probe& p : probes_) {
        if (p.clock) {
          waves_->set(p.signals[0], settled, 0);
          waves_->set(p.signals[0], edge, 1);
          continue;
        }
        const size_t size = p.bytes * p.signals.size();
        if (!p.first && std::memcmp(p.data, p.shadow.data(), size) == 0) continue;
        for (size_t i = 0; i < p.signals.size(); ++i) {
          const size_t at = i * p.bytes;
          if (!p.first && std::memcmp(p.data + at, p.shadow.data() + at, p.bytes) == 0) continue;
          uint64_t v = 0;
          std::memcpy(&v, p.data + at, p.bytes);
          waves_->set(p.signals[i], settled, static_cast<int64_t>(v));
        }
        std::memcpy(p.shadow.data(), p.data, size);
        p.first = false;
      }
    }

   private:
    // `elements` values of `bytes` each (an unpacked array's, or one), compared as a block first.
    struct Probe {
      std::vector<Waves::Signal> signals;
      const unsigned char* data;
      size_t bytes;
      std::vector<unsigned char> shadow;
      bool clock;
      bool first = true;
    };
    void add_probe(const std::string& scope, const std::string& name, const void* data, size_t bytes, int elements,
                   unsigned width, bool clock, bool array = false) {
      Probe p{{}, static_cast<const unsigned char*>(data), bytes, std::vector<unsigned char>(bytes * elements), clock};
      for (int i = 0; i < elements; ++i) {
        const std::string n = array ? name + "(" + std::to_string(i) + ")" : name;
        const Waves::Signal s = waves_->value(scope, n, width);
        if (s == Waves::kOff) return;  // the filters take a scope whole
        p.signals.push_back(s);
      }
      probes_.push_back(std::move(p));
    }
    Waves* waves_;
    std::string scope_;
    std::vector<Probe> probes_;
  };

  std::unique_ptr<VerilatedContext> ctx_;  // first member: destroyed after the models
  std::vector<std::unique_ptr<Annex>> annexes_;
  std::vector<std::unique_ptr<Tracker>> trackers_;
  uint64_t entry_mask_ = 0;
  Waves* waves_ = nullptr;
  int64_t cycle_ps_ = 2;
  std::vector<Ports> annex_ports_, tracker_ports_;
  std::vector<int64_t> drawn_until_;  // per annex: the end of its last beat's cycles in the waves
};

std::string join_widths(const std::vector<unsigned>& v) {
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
                                     " build; the RTL library holds counter_bits " + join_widths(rtl_build().widths));
  }
}

}  // namespace starnuma
