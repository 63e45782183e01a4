#include "memory/ddr5.hpp"

#include <algorithm>
#include <cmath>

#include "common/registry.hpp"

namespace starnuma {

using namespace literals;

namespace {
Time later(Time a, Time b) { return a > b ? a : b; }
}  // namespace

// DDR5-4800 (JEDEC speed bin 4800B rounded to whole nanoseconds): tCL = tRCD = tRP = 16 ns,
// tRAS = 32 ns, 32 banks per rank, 8 KiB rows, one 64-bit channel = 38.4 GB/s peak.
Ddr5Controller::Ddr5Controller(sc_core::sc_module_name name, const ScopeContext& ctx, const Ddr5Defaults& defaults)
    : Component(name, ctx),
      channels_(*this, "channels", defaults.channels, "Independent DDR5 channels", between(1u, 64u)),
      channel_capacity_(*this, "channel_capacity", defaults.channel_capacity, "Capacity of one channel",
                        between(1_MiB, Size::from_bytes(uint64_t{1} << 42))),
      ranks_(*this, "ranks", 1, "Ranks per channel", between(1u, 8u)),
      banks_per_rank_(*this, "banks_per_rank", 32, "Banks per rank (DDR5: 8 bank groups x 4)", between(1u, 64u)),
      row_size_(*this, "row_size", 8_KiB, "Bytes of one row (page) across the rank", between(256_B, 64_KiB)),
      channel_interleave_(*this, "channel_interleave", 256_B, "Consecutive bytes mapped to one channel before the next",
                          between(64_B, 1_MiB)),
      bus_bandwidth_(*this, "bus_bandwidth", Bandwidth::gbps(38.4),
                     "Peak data-bus bandwidth of one channel (DDR5-4800 x 8 bytes)",
                     at_least(Bandwidth::gbps(0.1))),
      controller_latency_(*this, "controller_latency", 8_ns, "Controller front end: queueing logic and command issue",
                          at_least(0_ns)),
      t_rcd_(*this, "t_rcd", 16_ns, "ACT to column command (tRCD)", at_least(0_ns)),
      t_cl_(*this, "t_cl", 16_ns, "Read column command to first data (CAS latency)", at_least(0_ns)),
      t_cwl_(*this, "t_cwl", 14_ns, "Write column command to first data (CAS write latency)", at_least(0_ns)),
      t_rp_(*this, "t_rp", 16_ns, "Precharge to ACT (tRP)", at_least(0_ns)),
      t_ras_(*this, "t_ras", 32_ns, "ACT to precharge, minimum (tRAS)", at_least(0_ns)),
      t_rrd_(*this, "t_rrd", Time::from_ps(3333), "ACT to ACT in the same rank, minimum (tRRD_S, 8 clocks)",
             at_least(0_ns)),
      t_faw_(*this, "t_faw", Time::from_ps(13333), "Window holding at most four ACTs per rank (tFAW, 32 clocks)",
             at_least(0_ns)),
      bank_hash_(*this, "bank_hash", "none",
                 "Bank selection: none (row pieces go to banks in turn) or xor (the row's low bits are XORed into "
                 "the bank index, as controllers do so that strides of whole rows spread over the banks; needs a "
                 "power-of-two number of banks per channel)",
                 std::vector<std::string>{"none", "xor"}),
      row_timeout_(*this, "row_timeout", 100_ns, "Idle time after which an open row is precharged (0: close at once)",
                   at_least(0_ns)),
      read_queue_(*this, "read_queue", 64, "Read queue entries per channel", between(1u, 4096u)),
      write_queue_(*this, "write_queue", 64, "Write queue entries per channel", between(1u, 4096u)) {
  const unsigned banks = ranks_ * banks_per_rank_;
  if (bank_hash_.get() == "xor" && (banks & (banks - 1)) != 0)
    error(config() ? config()->find("bank_hash") : nullptr, "bank_hash",
          "xor needs a power-of-two number of banks per channel; ranks x banks_per_rank is " + std::to_string(banks));
  xor_banks_ = bank_hash_.get() == "xor";
  timing_ = Timing{Divisor(channel_interleave_->bytes()), Divisor(channels_), Divisor(row_size_->bytes()), Divisor(banks),
                   Divisor(banks_per_rank_), controller_latency_, t_rcd_, t_cl_, t_cwl_, t_rp_, t_ras_, row_timeout_};
  t_burst_ = Time::from_ps(static_cast<int64_t>(std::llround(kLineBytes * 1e12 / bus_bandwidth_->bytes_per_s())));
  act_slot_ = Time::from_ps(std::max<int64_t>({t_rrd_->ps(), t_faw_->ps() / 4, 1}));
  state_.resize(channels_);
  for (ChannelState& ch : state_) {
    ch.banks.resize(static_cast<size_t>(ranks_) * banks_per_rank_);
    ch.acts.resize(ranks_);
    ch.read_done.assign(read_queue_, Time());
    ch.write_done.assign(write_queue_, Time());
  }
}

Time Ddr5Controller::activate(ChannelState& ch, unsigned rank, Time earliest) {
  return take_slot(ch.acts[rank], earliest, act_slot_);
}

Time Ddr5Controller::take_slot(BusCalendar& calendar, Time ready, Time slot_length) {
  // An event ready inside a free slot happens at once; otherwise at the start of the next free one.
  const int64_t ready_slot = ready.ps() / slot_length.ps();
  const int64_t slot = calendar.reserve(ready_slot);
  return slot == ready_slot ? ready : Time::from_ps(slot * slot_length.ps());
}

Time Ddr5Controller::access(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  const Timing& tm = timing_;
  const uint64_t chunk = tm.interleave.div(offset);
  ChannelState& ch = state_[tm.channels.mod(chunk)];
  const uint64_t local = tm.interleave.mul(tm.channels.div(chunk)) + tm.interleave.mod(offset);
  const uint64_t row_piece = tm.row_size.div(local);
  const uint64_t row = tm.banks.div(row_piece);
  // With xor, a bank's rows are still distinct pieces: for one row, piece -> bank is a bijection.
  const size_t bank_index = tm.banks.mod(xor_banks_ ? row_piece ^ row : row_piece);
  Bank& bank = ch.banks[bank_index];
  const unsigned rank = static_cast<unsigned>(tm.banks_per_rank.div(bank_index));

  const bool is_read = op == MemOp::Read;
  std::vector<Time>& ring = is_read ? ch.read_done : ch.write_done;
  size_t& head = is_read ? ch.read_head : ch.write_head;
  Time cmd = arrival + tm.controller;
  if (ring[head] > cmd) {  // the access issued queue-depth accesses ago has not completed
    cmd = ring[head];
    ++queue_full_;
  }

  // Adaptive open page: a row idle for row_timeout was closed in the background.
  if (bank.open && cmd - bank.last_use > tm.row_timeout) {
    bank.open = false;
    bank.ready = later(bank.ready, bank.last_use + tm.row_timeout + tm.rp);
  }
  Time column;
  if (bank.open && bank.row == row) {
    ++row_hits_;
    column = later(cmd, bank.ready);
  } else {
    Time earliest = later(cmd, bank.ready);
    if (bank.open) {
      ++row_conflicts_;
      earliest = later(earliest, bank.activated + tm.ras) + tm.rp;
    } else {
      ++row_misses_;
    }
    bank.activated = activate(ch, rank, earliest);
    bank.open = true;
    bank.row = row;
    column = bank.activated + tm.rcd;
  }
  const Time data = column + (is_read ? tm.cl : tm.cwl);
  const Time burst = take_slot(ch.bus, data, t_burst_);
  ch.bus_busy_ps += t_burst_.ps();
  bank.ready = column + t_burst_;  // next column command to this bank (tCCD)
  bank.last_use = burst + t_burst_;

  Time done;
  if (is_read) {
    ++reads_;
    done = burst;  // critical word first
    ring[head] = done;
    read_latency_.sample((done - arrival).ns());
  } else {
    ++writes_;
    ring[head] = burst + t_burst_;
    done = cmd;  // posted
  }
  if (++head == ring.size()) head = 0;
  if (trace) trace->add(path(), is_read ? "DRAM read" : "DRAM write (posted)", done - arrival);
  return done;
}

void Ddr5Controller::reset_stats() {
  Component::reset_stats();
  for (ChannelState& ch : state_) ch.bus_busy_ps = 0;
}

double Ddr5Controller::bus_utilization(Time elapsed) const {
  if (elapsed.ps() <= 0) return 0.0;
  int64_t busy = 0;
  for (const ChannelState& ch : state_) busy += ch.bus_busy_ps;
  return static_cast<double>(busy) / static_cast<double>(elapsed.ps()) / static_cast<double>(state_.size());
}

namespace {
struct StandaloneDdr5 : Ddr5Controller {
  StandaloneDdr5(sc_core::sc_module_name n, const ScopeContext& c) : Ddr5Controller(n, c, {6, 32_GiB}) {}
};
}  // namespace

STARNUMA_REGISTER_COMPONENT(StandaloneDdr5, "ddr5", Role::Part, "DDR5 memory controller and its channels");

}  // namespace starnuma
