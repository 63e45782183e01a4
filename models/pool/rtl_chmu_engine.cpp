// `chmu.impl: rtl`: the Verilated rtl/chmu.sv at the platform's geometry, driven from C++ without
// SystemC and clocked only while it has a request or its epoch scan runs.
#include <verilated.h>

#include <stdexcept>

#include "Vchmu.h"
#include "pool/chmu_engine.hpp"

namespace starnuma {
namespace {

enum Op : unsigned { kRead, kWrite, kEpoch, kHead, kConfig, kClear };

class RtlChmu final : public ChmuEngine {
 public:
  explicit RtlChmu(const ChmuConfig& c) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);  // an RTL assertion becomes a reported model error
    Verilated::threadContextp(ctx_.get());
    top_ = std::make_unique<Vchmu>(ctx_.get(), "chmu");
    top_->rst = 1;
    for (int i = 0; i < 4; ++i) tick();
    top_->rst = 0;
    top_->cfg_threshold = c.threshold;
    top_->cfg_unit_shift = c.unit_shift;
    top_->cfg_ds_shift = c.ds_shift;
    top_->cfg_random_ds = c.random_ds;
    top_->cfg_always_on = c.always_on;
    top_->cfg_track_reads = c.track_reads;
    top_->cfg_track_writes = c.track_writes;
    top_->cfg_notify_level = c.notify_level;
    request(kConfig);
  }
  ~RtlChmu() override {
    Verilated::threadContextp(ctx_.get());
    top_->final();
    top_.reset();
    Verilated::threadContextp(Verilated::defaultContextp());  // one that outlives ours
  }

  void access(uint64_t offset, bool write) override { request(write ? kWrite : kRead, offset); }
  void end_epoch() override { request(kEpoch); }
  void drain(std::vector<HotlistEntry>& out) override {
    const unsigned tail = top_->tail;
    for (unsigned i = top_->head; i != tail; i = (i + 1) & (rtl_chmu_geometry().hotlist - 1)) {
      top_->rd_index = i;
      top_->eval();
      out.push_back({top_->rd_unit, top_->rd_count});
    }
    request(kHead, 0, tail);
  }
  const ChmuStats& stats() const override { return stats_; }

 private:
  void tick() {
    top_->clk = 0;
    top_->eval();
    top_->clk = 1;
    top_->eval();
  }
  // Holds the request until the RTL takes it, then clocks until it is idle again (an epoch's scan).
  void request(unsigned op, uint64_t addr = 0, unsigned head = 0) {
    top_->req_valid = 1;
    top_->req_op = op;
    top_->req_addr = addr;
    top_->req_head = head;
    for (bool taken = false; !taken;) {
      top_->clk = 0;
      top_->eval();
      taken = top_->req_ready;
      top_->clk = 1;
      top_->eval();
    }
    top_->req_valid = 0;
    while (top_->busy) tick();
    if (ctx_->gotError()) throw std::runtime_error("CHMU RTL: an assertion failed (see above)");
    stats_ = {top_->stat_counted,  top_->stat_filtered, top_->stat_sampled_out,
              top_->stat_replaced, top_->stat_reported, top_->stat_dropped};
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vchmu> top_;
  ChmuStats stats_;
};

}  // namespace

ChmuGeometry rtl_chmu_geometry() {
  return {STARNUMA_RTL_CHMU_SETS, STARNUMA_RTL_CHMU_WAYS, STARNUMA_RTL_CHMU_ADDR_BITS, STARNUMA_RTL_CHMU_COUNTER_BITS,
          STARNUMA_RTL_CHMU_HOTLIST};
}

std::unique_ptr<ChmuEngine> make_rtl_chmu(const ChmuConfig& config) { return std::make_unique<RtlChmu>(config); }

}  // namespace starnuma
