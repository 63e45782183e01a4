// A DDR5 memory controller and its channels, loosely timed with per-bank row-buffer state and
// per-channel data-bus occupancy (DDR5-4800 by default).
//
// Address interleaving inside the controller's range: consecutive `channel_interleave` chunks go
// to consecutive channels; inside a channel, consecutive `row_size` pieces go to consecutive banks
// (across ranks), so a sequential stream hits open rows and spreads over banks; `bank_hash: xor`
// also folds the row's low bits into the bank index, so strides of whole rows spread too.
//
// A read completes when its critical word is on the bus: controller latency + (tRP if the bank
// holds another row) + (tRCD if no row is open) + tCL, plus any wait for the bank, the
// activate-window limits (tRRD, tFAW), a free data-bus slot and the read queue. Banks serve their
// accesses in arrival order; the data bus and the activate slots do not (each takes the first free
// slot after it is ready), the reordering a DRAM scheduler does so that one bank's conflict does
// not hold up the others. ACT slots of max(tRRD, tFAW/4) keep both limits. Unloaded (bank idle and
// precharged) that is controller_latency + tRCD + tCL. Rows left idle for `row_timeout` are
// precharged in the background (adaptive open page). Writes are posted: they complete at
// controller_latency unless the write queue is full, and occupy bank and bus like reads.
#pragma once

#include <vector>

#include "common/component.hpp"
#include "common/divisor.hpp"
#include "memory/bus_calendar.hpp"
#include "memory/mem_access.hpp"

namespace starnuma {

struct Ddr5Defaults {
  unsigned channels;
  Size channel_capacity;
};

class Ddr5Controller : public Component {
 public:
  Ddr5Controller(sc_core::sc_module_name name, const ScopeContext& ctx, const Ddr5Defaults& defaults);

  unsigned channels() const { return channels_; }
  Size capacity() const { return Size::from_bytes(channel_capacity_->bytes() * channels_); }
  Bandwidth peak_bandwidth() const { return Bandwidth::from_bytes_per_s(bus_bandwidth_->bytes_per_s() * channels_); }
  // Latency of a read to an idle, precharged bank.
  Time unloaded_read_latency() const { return controller_latency_.get() + t_rcd_.get() + t_cl_.get(); }

  // Serves one line at `offset` inside this controller's range, arriving at `arrival`; returns
  // the completion time.
  Time access(Time arrival, MemOp op, uint64_t offset, PathTrace* trace);

  // Busy fraction of the data buses over `elapsed`, averaged over channels.
  double bus_utilization(Time elapsed) const;
  void reset_stats() override;

 private:
  struct Bank {
    uint64_t row = 0;
    bool open = false;
    Time ready;     // earliest next column command
    Time activated; // time of the last ACT (for tRAS)
    Time last_use;  // end of the last burst (for the row timeout)
  };
  struct ChannelState {
    BusCalendar bus;
    int64_t bus_busy_ps = 0;
    std::vector<Bank> banks;
    std::vector<BusCalendar> acts;  // per rank: ACT slots of max(tRRD, tFAW/4)
    std::vector<Time> read_done, write_done;  // rings: completions of the last queue-depth accesses
    size_t read_head = 0, write_head = 0;
  };

  Time activate(ChannelState& ch, unsigned rank, Time earliest);
  static Time take_slot(BusCalendar& calendar, Time ready, Time slot_length);

  Param<unsigned> channels_;
  Param<Size> channel_capacity_;
  Param<unsigned> ranks_;
  Param<unsigned> banks_per_rank_;
  Param<Size> row_size_;
  Param<Size> channel_interleave_;
  Param<Bandwidth> bus_bandwidth_;
  Param<Time> controller_latency_;
  Param<Time> t_rcd_;
  Param<Time> t_cl_;
  Param<Time> t_cwl_;
  Param<Time> t_rp_;
  Param<Time> t_ras_;
  Param<Time> t_rrd_;
  Param<Time> t_faw_;
  Param<std::string> bank_hash_;
  Param<Time> row_timeout_;
  Param<unsigned> read_queue_;
  Param<unsigned> write_queue_;

  // What access() needs, read once from the parameters: each Param is a large object of its own,
  // and the hot path would touch a host cache line per parameter.
  struct Timing {
    Divisor interleave, channels, row_size, banks, banks_per_rank;
    Time controller, rcd, cl, cwl, rp, ras, row_timeout;
  };
  Timing timing_;
  bool xor_banks_ = false;
  Time t_burst_;
  Time act_slot_;
  std::vector<ChannelState> state_;

  Counter reads_{*this, "reads", "lines", "Reads served"};
  Counter writes_{*this, "writes", "lines", "Writes served"};
  Counter row_hits_{*this, "row_hits", "accesses", "Accesses to the open row"};
  Counter row_misses_{*this, "row_misses", "accesses", "Accesses to a precharged bank (activate)"};
  Counter row_conflicts_{*this, "row_conflicts", "accesses", "Accesses to a bank holding another row (precharge, activate)"};
  Counter queue_full_{*this, "queue_full_stalls", "accesses", "Accesses that waited for a read or write queue slot"};
  Average read_latency_{*this, "read_latency", "ns", "Read latency inside the controller"};
};

}  // namespace starnuma
