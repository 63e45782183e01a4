// A DDR5 memory controller and its channels, loosely timed, organised and timed by default as the
// StarNUMA artifact's DRAMsim3 reference (DDR5-4800, docs/memory.md): each channel is two 32-bit
// subchannels, each subchannel ranks of 8 bank groups x 4 banks, BL16 (one 64-byte line per
// burst), close page, refresh, and the address mapping row-column-rank-bank-bankgroup-subchannel-
// channel (channel bits lowest).
//
// Each access is placed in time by the constraints a DRAM scheduler obeys: the bank is busy from
// its activate (ACT) to the end of its precharge (close page); ACTs of a rank are max(tRRD_S,
// tFAW/4) apart, of a bank group tRRD_L apart; column commands of a bank group tCCD_L apart;
// bursts on a subchannel's data bus one burst (tCCD_S) apart; each batch of write_batch writes
// turns the bus around (tWTR_S + CL + tRTW without data); no ACT while the rank (all-bank
// refresh) or the bank (same-bank refresh) refreshes. Every resource keeps a calendar and an
// access takes the first time that satisfies all of them, so the schedule is the one a
// first-ready controller would make in time order, whatever the order of the calls (the
// simulation quantum does not change it). Spacing limits are kept as rates: at most one event per
// slot of the limit's length, at its ready time if that slot is free, so bandwidths are exact and
// two events in neighbouring slots may be closer than the limit by less than one slot.
// Unloaded (idle bank, no refresh under way): controller_latency + tRCD + tCL.
// Writes are posted: they complete at controller_latency unless they queued longer than
// write_queue bursts take (the write queue was full). docs/memory.md has the model and its
// calibration against the reference.
#pragma once

#include <array>
#include <vector>

#include "common/component.hpp"
#include "common/divisor.hpp"
#include "common/enum_names.hpp"
#include "common/interval_calendar.hpp"
#include "debug/waves.hpp"
#include "memory/slot_calendar.hpp"
#include "common/mem_access.hpp"

namespace starnuma {

// The row buffer policy (page_policy) and the refresh scheme (refresh).
enum class Ddr5PagePolicy { Close, Open, Adaptive };
template <>
const std::vector<std::string>& names_of<Ddr5PagePolicy>();
enum class Ddr5Refresh { AllBank, SameBank, None };
template <>
const std::vector<std::string>& names_of<Ddr5Refresh>();

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
  // Latency of a read to an idle, precharged bank outside refresh.
  Time unloaded_read_latency() const { return controller_latency_.get() + t_rcd_.get() + t_cl_.get(); }
  // One burst (a 64-byte line) on a subchannel's data bus.
  Time burst_time() const { return Time::from_ps(tm_.burst); }

  // Serves one line at `offset` inside this controller's range, arriving at `arrival`; returns
  // the completion time.
  Time access(Time arrival, MemOp op, uint64_t offset, PathTrace* trace);

  // Refresh off or back on (as configured): `starnuma latency` measures with it off, so the
  // unloaded figures are the paper's nominal ones.
  void suspend_refresh(bool suspended) { refresh_suspended_ = suspended; }

  // Forgets every bank, bus and refresh state (parameters and statistics stay).
  void clear();

  // Closed-form limits of the reads this organisation can deliver (docs/memory.md), GB/s.
  struct Bounds {
    double peak_gbps;      // every subchannel's data bus always busy
    double refresh_gbps;   // the peak less all-bank refresh's share (tRFC / tREFI) of a lone rank
    double activate_gbps;  // close page: one ACT per access, max(tRRD_S, tFAW/4) apart in a rank
    double bank_gbps;      // every bank busy tRC per access
    double bound_gbps;     // the least of them
  };
  Bounds bounds() const;

  // Busy fraction of the data buses over `elapsed`, averaged over subchannels.
  double bus_utilization(Time elapsed) const;
  void reset_stats() override;
  // Per channel `queue` (accesses arrived and not yet through their burst), per subchannel `bus`
  // (a burst on the data bus), per bank `busy` (activate to precharge, or a row hit's burst) and
  // `row` (the row last activated).
  void attach_waves(Waves& waves) override;

  // Where a line lives (exposed for tests and docs).
  struct Location {
    unsigned channel, subchannel, rank, bank_group, bank;
    uint64_t row;
  };
  Location locate(uint64_t offset) const;

 private:
  enum Field : unsigned { kRow, kColumn, kRank, kBank, kBankGroup, kSubchannel, kChannel, kFields };
  struct Bank {
    IntervalCalendar busy;  // ACT to the end of the precharge (close page), or ACT to the last column
    // The latest access in time (open and adaptive page: the row it left open).
    uint64_t row = 0;
    int64_t activated = -1, last_column = 0, last_end = 0;
  };
  struct Subchannel {
    SlotCalendar bus;  // bursts and turnarounds
    int64_t busy_ps = 0;
    unsigned writes_since_turnaround = 0;
  };
  // Calendars side by side (no pointer to follow per access), indexed subchannel-major:
  // subchannel x ranks for a rank's, x bank groups for a group's, x banks per group for a bank.
  struct RankState {
    SlotCalendar acts;  // slots of max(tRRD_S, tFAW/4)
    int64_t refresh_phase = 0;
  };
  struct GroupState {
    SlotCalendar acts;     // slots of tRRD_L
    SlotCalendar columns;  // slots of tCCD_L
  };

  int64_t refresh_end(const RankState& rank, unsigned bank, int64_t t) const;

  Param<unsigned> channels_;
  Param<Size> channel_capacity_;
  Param<unsigned> subchannels_;
  Param<unsigned> ranks_;
  Param<unsigned> bank_groups_;
  Param<unsigned> banks_per_group_;
  Param<Size> row_size_;
  Param<std::string> address_mapping_;
  Param<std::string> bank_hash_;
  Param<std::string> page_policy_;
  Param<Time> row_timeout_;
  Param<Bandwidth> bus_bandwidth_;
  Param<Time> controller_latency_;
  Param<Time> t_rcd_, t_cl_, t_cwl_, t_rp_, t_ras_, t_rtp_, t_wr_;
  Param<Time> t_rrd_s_, t_rrd_l_, t_faw_, t_ccd_l_;
  Param<Time> t_wtr_s_, t_rtw_;
  Param<std::string> refresh_;
  Param<Time> t_refi_, t_rfc_, t_rfc_sb_;
  Param<unsigned> write_batch_;
  Param<unsigned> write_queue_;

  // What access() needs, read once from the parameters (each Param is a large object of its own).
  struct Timing {
    int64_t controller, rcd, cl, cwl, rp, ras, rtp, wr, burst, act_slot, rrd_l, ccd_l, rfc, rfc_sb, row_timeout;
    Reciprocal refi;
    unsigned turnaround_slots, write_batch;  // a write batch's turnarounds, in bursts
    int64_t write_window;                    // queueing a posted write absorbs before it stalls its sender
  };
  Timing tm_{};
  std::array<Divisor, kFields> radix_;
  std::array<Field, kFields> lsb_first_{};       // decoding order: fields of several values first, the MSB last
  unsigned decoded_fields_ = 0;                  // how many of them to divide out before the MSB
  bool pow2_fields_ = false;                     // all of those powers of two: shifts and masks
  std::array<unsigned, kFields> field_shift_{};  // then each field's lowest bit in the line address
  Ddr5PagePolicy policy_ = Ddr5PagePolicy::Close;
  Ddr5Refresh refresh_mode_ = Ddr5Refresh::AllBank;
  bool xor_banks_ = false;
  bool refresh_suspended_ = false;
  std::vector<Subchannel> subchannels_state_;  // channel-major
  std::vector<RankState> ranks_state_;
  std::vector<GroupState> groups_state_;
  std::vector<Bank> banks_state_;
  Waves* waves_ = nullptr;
  std::vector<Waves::Signal> channel_queue_, subchannel_bus_, bank_busy_, bank_row_;

  Counter reads_{*this, "reads", "lines", "Reads served"};
  Counter writes_{*this, "writes", "lines", "Writes served"};
  Counter activates_{*this, "activates", "commands", "Row activations"};
  Counter row_hits_{*this, "row_hits", "accesses", "Accesses to the row left open (open or adaptive page)"};
  Counter row_conflicts_{*this, "row_conflicts", "accesses", "Accesses that found another row open (precharge first)"};
  Counter refresh_waits_{*this, "refresh_waits", "accesses", "Accesses whose activate waited for a refresh to end"};
  Counter turnarounds_{*this, "turnarounds", "batches", "Write batches, each turning the bus around twice"};
  // A model check: no initiator sends before the floor (request_floor_fs), so this stays 0.
  Counter before_floor_{*this, "arrivals_before_floor", "accesses",
                        "Accesses that arrived before the floor, where the banks may have forgotten their bookings "
                        "(a model error)"};
  Counter queue_full_{*this, "queue_full_stalls", "accesses", "Writes that waited for a write queue slot"};
  Average read_latency_{*this, "read_latency", "ns", "Read latency inside the controller"};
};

}  // namespace starnuma
