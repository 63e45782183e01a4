#include "memory/ddr5.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/registry.hpp"

namespace starnuma {

template <>
const std::vector<std::string>& names_of<Ddr5PagePolicy>() {
  static const std::vector<std::string> names{"close", "open", "adaptive"};
  return names;
}

template <>
const std::vector<std::string>& names_of<Ddr5Refresh>() {
  static const std::vector<std::string> names{"all_bank", "same_bank", "none"};
  return names;
}

using namespace literals;

namespace {

constexpr const char* kFieldNames[] = {"row", "column", "rank", "bank", "bankgroup", "subchannel", "channel"};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

// Defaults: DDR5-4800 as the StarNUMA artifact's DRAMsim3 configuration (tCK = 0.41667 ns; the
// clock counts are in each description), with a controller front end that keeps the socket's
// local access at the paper's 80 ns (40 ns on die + 6.666 + 16.667 + 16.667).
Ddr5Controller::Ddr5Controller(sc_core::sc_module_name name, const ScopeContext& ctx, const Ddr5Defaults& defaults)
    : Component(name, ctx),
      channels_(*this, "channels", defaults.channels, "Independent DDR5 channels (DIMMs' 64-bit channels)",
                between(1u, 64u)),
      channel_capacity_(*this, "channel_capacity", defaults.channel_capacity, "Capacity of one channel",
                        between(1_MiB, Size::from_bytes(uint64_t{1} << 42))),
      subchannels_(*this, "subchannels", 2, "Independent subchannels per channel (DDR5: two of 32 bits)",
                   between(1u, 2u)),
      ranks_(*this, "ranks", 1, "Ranks per subchannel", between(1u, 8u)),
      bank_groups_(*this, "bank_groups", 8, "Bank groups per rank", between(1u, 16u)),
      banks_per_group_(*this, "banks_per_group", 4, "Banks per bank group", between(1u, 16u)),
      row_size_(*this, "row_size", 8_KiB, "Bytes of one row (page) of a subchannel's rank", between(256_B, 64_KiB)),
      address_mapping_(*this, "address_mapping", "row-column-rank-bank-bankgroup-subchannel-channel",
                       "Line address bits from most to least significant: a permutation of row, column, rank, bank, "
                       "bankgroup, subchannel, channel (the default puts consecutive lines on alternate "
                       "subchannels and bank groups, as the reference does)"),
      bank_hash_(*this, "bank_hash", "none",
                 "Bank selection: none, or xor (the row's low bits are XORed into the bank and bank group index, "
                 "so strides of whole rows spread over the banks; needs a power-of-two number of banks per rank)",
                 std::vector<std::string>{"none", "xor"}),
      page_policy_(*this, "page_policy", "close",
                   "Row buffer policy: close (precharge after each access, the reference's), open (keep the row "
                   "until another is needed), adaptive (open, closed after row_timeout idle)",
                   names_of<Ddr5PagePolicy>()),
      row_timeout_(*this, "row_timeout", 100_ns, "adaptive page: idle time after which an open row is precharged",
                   latency_range()),
      bus_bandwidth_(
          *this, "bus_bandwidth", Bandwidth::gbps(38.4),
          "Peak data-bus bandwidth of one channel, shared equally by its subchannels (DDR5-4800: 38.4 GB/s); "
          "one line's burst on a subchannel is tCCD_S",
          between(Bandwidth::gbps(0.1), Bandwidth::from_bytes_per_s(1e14))),
      controller_latency_(*this, "controller_latency", Time::from_ps(6666),
                          "Controller front end: queueing logic, command issue and PHY, on every access",
                          latency_range()),
      t_rcd_(*this, "t_rcd", Time::from_ps(16667), "ACT to column command (tRCD, 40 clocks)", latency_range()),
      t_cl_(*this, "t_cl", Time::from_ps(16667), "Read column command to first data (CL, 40 clocks)", latency_range()),
      t_cwl_(*this, "t_cwl", Time::from_ps(15833), "Write column command to first data (CWL, 38 clocks)",
             latency_range()),
      t_rp_(*this, "t_rp", Time::from_ps(16667), "Precharge to ACT (tRP, 40 clocks)", latency_range()),
      t_ras_(*this, "t_ras", Time::from_ps(32083), "ACT to precharge, minimum (tRAS, 77 clocks)", latency_range()),
      t_rtp_(*this, "t_rtp", Time::from_ps(7500), "Read column command to precharge (tRTP, 18 clocks)",
             latency_range()),
      t_wr_(*this, "t_wr", 30_ns, "End of write data to precharge (write recovery tWR, 72 clocks)", latency_range()),
      t_rrd_s_(*this, "t_rrd_s", Time::from_ps(3333), "ACT to ACT in a rank, other bank group (tRRD_S, 8 clocks)",
               latency_range()),
      t_rrd_l_(*this, "t_rrd_l", 5_ns, "ACT to ACT in the same bank group (tRRD_L, 12 clocks)", latency_range()),
      t_faw_(*this, "t_faw", Time::from_ps(13333), "Window holding at most four ACTs per rank (tFAW, 32 clocks)",
             latency_range()),
      t_ccd_l_(*this, "t_ccd_l", 5_ns, "Column command to column command in the same bank group (tCCD_L, 12 clocks)",
               latency_range()),
      t_wtr_s_(*this, "t_wtr_s", Time::from_ps(2500),
               "End of write data to a read command on the subchannel (tWTR_S: max(4 clocks, 2.5 ns))",
               latency_range()),
      t_rtw_(*this, "t_rtw", Time::from_ps(833),
             "Bus turnaround from the end of read data to write data on the subchannel (2 clocks)", latency_range()),
      refresh_(*this, "refresh", "all_bank",
               "Refresh: all_bank (each rank blocked tRFC every tREFI, ranks and subchannels staggered), same_bank "
               "(REFsb: the same bank of every group blocked tRFCsb, banks in turn), none",
               names_of<Ddr5Refresh>()),
      t_refi_(*this, "t_refi", 3900_ns, "Average refresh interval (tREFI, 9360 clocks)", at_least(1_ns)),
      t_rfc_(*this, "t_rfc", 410_ns, "All-bank refresh time (tRFC, 984 clocks)", latency_range()),
      t_rfc_sb_(*this, "t_rfc_sb", 130_ns, "Same-bank refresh time (tRFCsb)", latency_range()),
      write_batch_(*this, "write_batch", 4,
                   "Writes the controller drains per bus turnaround (write to read and back): each batch leaves "
                   "the data bus idle for tWTR_S + CL + tRTW",
                   between(1u, 4096u)),
      write_queue_(*this, "write_queue", 64,
                   "Write queue entries per subchannel: a posted write waits while its burst is further ahead",
                   between(1u, 4096u)) {
  const unsigned banks = bank_groups_ * banks_per_group_;
  if (bank_hash_.get() == "xor" && (banks & (banks - 1)) != 0)
    error_at("bank_hash", "xor needs a power-of-two number of banks per rank; bank_groups x banks_per_group is " +
                              std::to_string(banks));
  xor_banks_ = bank_hash_.get() == "xor";
  policy_ = enum_named<Ddr5PagePolicy>(page_policy_.get());
  refresh_mode_ = enum_named<Ddr5Refresh>(refresh_.get());
  if (refresh_mode_ == Ddr5Refresh::AllBank && t_rfc_.get() >= t_refi_.get())
    error_at("t_rfc", "must be shorter than t_refi");

  // Address mapping: a permutation of the seven fields.
  std::vector<Field> msb_first;
  {
    std::stringstream in(address_mapping_.get());
    std::string word;
    bool seen[kFields] = {};
    bool ok = true;
    while (std::getline(in, word, '-')) {
      const auto* f = std::find(std::begin(kFieldNames), std::end(kFieldNames), word);
      if (f == std::end(kFieldNames) || seen[f - kFieldNames]) {
        ok = false;
        break;
      }
      seen[f - kFieldNames] = true;
      msb_first.push_back(static_cast<Field>(f - kFieldNames));
    }
    if (!ok || msb_first.size() != kFields) {
      error_at("address_mapping",
               "'" + address_mapping_.get() +
                   "' is not a permutation of row, column, rank, bank, bankgroup, subchannel, channel joined by '-'");
      msb_first = {kRow, kColumn, kRank, kBank, kBankGroup, kSubchannel, kChannel};
    }
  }
  for (unsigned i = 0; i < kFields; ++i) lsb_first_[i] = msb_first[kFields - 1 - i];
  const uint64_t others = (row_size_->bytes() / kLineBytes) * ranks_ * banks * subchannels_ * channels_;
  const uint64_t rows = std::max<uint64_t>(1, (capacity().bytes() / kLineBytes + others - 1) / others);
  radix_[kRow] = Divisor(rows);
  radix_[kColumn] = Divisor(std::max<uint64_t>(1, row_size_->bytes() / kLineBytes));
  radix_[kRank] = Divisor(ranks_);
  radix_[kBank] = Divisor(banks_per_group_);
  radix_[kBankGroup] = Divisor(bank_groups_);
  radix_[kSubchannel] = Divisor(subchannels_);
  radix_[kChannel] = Divisor(channels_);
  // Decoding skips fields of one value; the most significant field takes what is left.
  {
    std::array<Field, kFields> order{};
    unsigned n = 0;
    for (unsigned i = 0; i + 1 < kFields; ++i)
      if (radix_[lsb_first_[i]].value() > 1) order[n++] = lsb_first_[i];
    decoded_fields_ = n;
    for (unsigned i = 0; i + 1 < kFields; ++i)
      if (radix_[lsb_first_[i]].value() == 1) order[n++] = lsb_first_[i];
    order[kFields - 1] = lsb_first_[kFields - 1];
    lsb_first_ = order;
    // The usual geometry (every divided field a power of two): each field is a shift and a mask.
    pow2_fields_ = true;
    unsigned shift = 0;
    for (unsigned i = 0; i < decoded_fields_; ++i) {
      const uint64_t r = radix_[lsb_first_[i]].value();
      if ((r & (r - 1)) != 0) pow2_fields_ = false;
      field_shift_[i] = shift;
      while ((uint64_t{1} << shift) < r * (uint64_t{1} << field_shift_[i])) ++shift;
    }
    field_shift_[decoded_fields_] = shift;
  }

  const double subchannel_bytes_per_s = bus_bandwidth_->bytes_per_s() / subchannels_;
  const int64_t burst = std::max<int64_t>(1, std::llround(kLineBytes * 1e12 / subchannel_bytes_per_s));
  tm_.controller = controller_latency_->ps();
  tm_.rcd = t_rcd_->ps();
  tm_.cl = t_cl_->ps();
  tm_.cwl = t_cwl_->ps();
  tm_.rp = t_rp_->ps();
  tm_.ras = t_ras_->ps();
  tm_.rtp = t_rtp_->ps();
  tm_.wr = t_wr_->ps();
  tm_.burst = burst;
  tm_.act_slot = std::max<int64_t>(t_rrd_s_->ps(), ceil_div(t_faw_->ps(), 4));  // 0: no limit
  tm_.rrd_l = t_rrd_l_->ps();
  tm_.ccd_l = t_ccd_l_->ps();
  tm_.refi = Reciprocal(t_refi_->ps());
  tm_.row_timeout = tm_.row_timeout;
  tm_.rfc = t_rfc_->ps();
  tm_.rfc_sb = t_rfc_sb_->ps();
  // A batch's bus idle time: write to read, tWTR then the read's CL before its data; read to
  // write, tRTW.
  tm_.turnaround_slots = static_cast<unsigned>(ceil_div(t_wtr_s_->ps() + tm_.cl + t_rtw_->ps(), burst));
  tm_.write_batch = write_batch_;
  tm_.write_window = static_cast<int64_t>(write_queue_.get()) * burst;

  clear();
}

void Ddr5Controller::clear() {
  const size_t subchannels = static_cast<size_t>(channels_) * subchannels_;
  const size_t ranks = subchannels * ranks_, groups = ranks * bank_groups_;
  subchannels_state_.assign(subchannels, Subchannel{SlotCalendar(tm_.burst)});
  ranks_state_.assign(ranks, RankState{SlotCalendar(tm_.act_slot)});
  groups_state_.assign(groups, GroupState{SlotCalendar(tm_.rrd_l), SlotCalendar(tm_.ccd_l)});
  banks_state_.assign(groups * banks_per_group_, Bank{});
  // Refresh staggered over the ranks and subchannels of a channel.
  const unsigned staggered = subchannels_ * ranks_;
  for (size_t i = 0; i < ranks; ++i) {
    const unsigned k = static_cast<unsigned>(i % staggered);
    ranks_state_[i].refresh_phase = tm_.refi.value() * k / staggered;
  }
}

Ddr5Controller::Bounds Ddr5Controller::bounds() const {
  Bounds b;
  const double line = kLineBytes, subchannels = static_cast<double>(subchannels_state_.size());
  b.peak_gbps = peak_bandwidth().gb_per_s();
  // Refresh: a lone rank serves nothing for tRFC of every tREFI (same-bank: one bank in
  // banks_per_group for tRFCsb, which costs only the accesses that wanted that bank).
  if (refresh_mode_ == Ddr5Refresh::AllBank && ranks_ == 1)
    b.refresh_gbps = b.peak_gbps * (1.0 - static_cast<double>(tm_.rfc) / static_cast<double>(tm_.refi.value()));
  else b.refresh_gbps = b.peak_gbps;
  // Close page: every access activates; a rank takes one ACT per max(tRRD_S, tFAW/4).
  b.activate_gbps =
      tm_.act_slot > 0 ? subchannels * ranks_ * line / static_cast<double>(tm_.act_slot) * 1e3 : b.peak_gbps;
  // Each bank is busy tRC = max(tRAS, tRCD + tRTP) + tRP per read.
  const double trc = static_cast<double>(std::max(tm_.ras, tm_.rcd + tm_.rtp) + tm_.rp);
  b.bank_gbps = subchannels * ranks_ * bank_groups_ * banks_per_group_ * line / trc * 1e3;
  b.bound_gbps = std::min({b.peak_gbps, b.refresh_gbps, b.activate_gbps, b.bank_gbps});
  return b;
}

Ddr5Controller::Location Ddr5Controller::locate(uint64_t offset) const {
  uint64_t x = offset / kLineBytes;
  uint64_t value[kFields] = {};
  if (pow2_fields_) {
    for (unsigned i = 0; i < decoded_fields_; ++i)
      value[lsb_first_[i]] = (x >> field_shift_[i]) & (radix_[lsb_first_[i]].value() - 1);
    x >>= field_shift_[decoded_fields_];
  }
  for (unsigned i = pow2_fields_ ? decoded_fields_ : 0; i < decoded_fields_; ++i) {
    const Field f = lsb_first_[i];
    value[f] = radix_[f].mod(x);
    x = radix_[f].div(x);
  }
  value[lsb_first_[kFields - 1]] = x;  // the most significant field takes the rest
  Location loc{static_cast<unsigned>(value[kChannel]), static_cast<unsigned>(value[kSubchannel]),
               static_cast<unsigned>(value[kRank]),    static_cast<unsigned>(value[kBankGroup]),
               static_cast<unsigned>(value[kBank]),    value[kRow]};
  if (xor_banks_) {
    const uint64_t banks = radix_[kBankGroup].value() * radix_[kBank].value();
    const uint64_t flat = (uint64_t{loc.bank_group} * radix_[kBank].value() + loc.bank) ^ (loc.row & (banks - 1));
    loc.bank_group = static_cast<unsigned>(radix_[kBank].div(flat));
    loc.bank = static_cast<unsigned>(radix_[kBank].mod(flat));
  }
  return loc;
}

int64_t Ddr5Controller::refresh_end(const RankState& rank, unsigned bank, int64_t t) const {
  if (refresh_mode_ == Ddr5Refresh::None || refresh_suspended_) return t;
  int64_t phase = rank.refresh_phase, length = tm_.rfc;
  if (refresh_mode_ == Ddr5Refresh::SameBank) {
    phase += tm_.refi.value() * bank / static_cast<int64_t>(radix_[kBank].value());
    length = tm_.rfc_sb;
  }
  // The refresh interval t falls in, counted from one interval before the phase (never negative).
  const int64_t k = tm_.refi.div(t - phase + tm_.refi.value());
  const int64_t start = phase + (k - 1) * tm_.refi.value();
  return t < start + length ? start + length : t;
}

Time Ddr5Controller::access(Time arrival, MemOp op, uint64_t offset, PathTrace* trace) {
  if (arrival.ps() < request_floor_fs() / kFsPerPs) ++before_floor_;
  const Location loc = locate(offset);
  const size_t sc_index = static_cast<size_t>(loc.channel) * radix_[kSubchannel].value() + loc.subchannel;
  const size_t rank_index = sc_index * radix_[kRank].value() + loc.rank;
  const size_t group_index = rank_index * radix_[kBankGroup].value() + loc.bank_group;
  Subchannel& sc = subchannels_state_[sc_index];
  RankState& rank = ranks_state_[rank_index];
  Bank& bank = banks_state_[group_index * radix_[kBank].value() + loc.bank];
  SlotCalendar& group_acts = groups_state_[group_index].acts;
  SlotCalendar& group_columns = groups_state_[group_index].columns;
  const bool read = op == MemOp::Read;
  const int64_t cas = read ? tm_.cl : tm_.cwl;
  const int64_t cmd = arrival.ps() + tm_.controller;

  // Open and adaptive page: the row the latest access (in time) left open, if it still is.
  bool open_row = false;
  if (policy_ != Ddr5PagePolicy::Close && bank.activated >= 0 && cmd >= bank.last_column)
    open_row = policy_ == Ddr5PagePolicy::Open || cmd - bank.last_end <= tm_.row_timeout;
  const bool hit = open_row && bank.row == loc.row;

  int64_t act = -1, column, data_slot, column_slot, act_slot = 0, group_act_slot = 0;
  int64_t credit = 0;                      // wait taken back from a request issued late but earlier in time (below)
  int64_t booked_from = 0, booked_to = 0;  // the bank's busy stretch for this access
  if (hit) {
    ++row_hits_;
    column = std::max(cmd, bank.last_column + tm_.ccd_l);
    for (;;) {
      column = group_columns.first_time(column, column_slot);
      const int64_t data = sc.bus.first_time(column + cas, data_slot);
      if (data - cas == column) break;
      column = data - cas;
    }
    bank.busy.insert(column, column + tm_.burst, cmd);
    booked_from = column;
    booked_to = column + tm_.burst;
  } else {
    // A conflict precharges the open row first (not before tRAS from its ACT, nor before its last
    // column command's tRTP or write recovery); the bank is busy from the precharge.
    int64_t earliest = cmd;
    const int64_t lead = open_row ? tm_.rp : 0;
    if (open_row) {
      ++row_conflicts_;
      earliest = std::max(cmd, std::max(bank.activated + tm_.ras, bank.last_end)) + tm_.rp;
    } else if (policy_ == Ddr5PagePolicy::Adaptive && bank.activated >= 0 && cmd >= bank.last_column) {
      earliest = std::max(earliest, bank.last_end + tm_.row_timeout + tm_.rp);  // closed in the background
    }
    act = earliest;
    bool refresh_waited = false;
    bool bank_waited = false;
    for (;;) {
      const int64_t after_refresh = refresh_end(rank, loc.bank, act);
      refresh_waited |= after_refresh != act;
      act = rank.acts.first_time(after_refresh, act_slot);
      const int64_t in_group = group_acts.first_time(act, group_act_slot);
      if (in_group != act || (act != after_refresh && refresh_end(rank, loc.bank, act) != act)) {
        act = in_group;
        continue;
      }
      column = group_columns.first_time(act + tm_.rcd, column_slot);
      const int64_t data = sc.bus.first_time(column + cas, data_slot);
      if (data - cas - tm_.rcd > act) {  // the bus is later: activate later, not hold the row open
        act = data - cas - tm_.rcd;
        continue;
      }
      column = data - cas;
      const int64_t end = policy_ == Ddr5PagePolicy::Close
                              ? std::max(act + tm_.ras, column + (read ? tm_.rtp : cas + tm_.burst + tm_.wr)) + tm_.rp
                              : column + tm_.burst;
      const int64_t fits = bank.busy.fit(act - lead, end - (act - lead));
      if (fits != act - lead) {
        // Temporal decoupling: bank accesses that began after this one wanted to were booked
        // first, by requests later in time. In time order this one would have gone before them
        // and they would have waited; they cannot be moved now, so this one is charged only the
        // wait time order gives it, which keeps the total waiting, and the mean latency, what
        // time order gives (docs/memory.md). The bank itself stays booked as it is.
        if (!bank_waited) credit = fits - bank.busy.fit(act - lead, end - (act - lead), cmd);
        bank_waited = true;
        act = fits + lead;
        continue;
      }
      bank.busy.insert(act - lead, end, cmd);
      booked_from = act - lead;
      booked_to = end;
      break;
    }
    if (refresh_waited) ++refresh_waits_;
    ++activates_;
    rank.acts.take_found(act_slot);
    group_acts.take_found(group_act_slot);
  }
  group_columns.take_found(column_slot);
  sc.bus.take(data_slot);
  sc.busy_ps += tm_.burst;
  // The controller drains writes in batches: each batch turns the bus around twice (read to
  // write, write to read), slots in which it carries no data.
  if (!read && ++sc.writes_since_turnaround == tm_.write_batch) {
    sc.writes_since_turnaround = 0;
    for (unsigned k = 0; k < tm_.turnaround_slots; ++k) sc.bus.take(sc.bus.first_free(data_slot + 1));
    turnarounds_ += 1;
  }
  const int64_t data = column + cas;
  if (policy_ != Ddr5PagePolicy::Close && data + tm_.burst >= bank.last_end) {  // the latest access in time
    if (!hit) bank.activated = act;
    bank.row = loc.row;
    bank.last_column = column;
    bank.last_end = read ? column + tm_.rtp : data + tm_.burst + tm_.wr;
  }

  Time done;
  if (read) {
    ++reads_;
    done = Time::from_ps(data - credit);  // critical word first (credit: the bank's, above)
    read_latency_.sample((done - arrival).ns());
  } else {
    ++writes_;
    // Posted: accepted at once unless it queued for longer than write_queue bursts take.
    const int64_t accepted = std::max(cmd, data - tm_.rcd - tm_.cwl - tm_.write_window);
    if (accepted > cmd) ++queue_full_;
    done = Time::from_ps(accepted);
  }
  if (trace) trace->add(path(), read ? "DRAM read" : "DRAM write (posted)", done - arrival);
  if (waves_) {
    const size_t b = group_index * radix_[kBank].value() + loc.bank;
    waves_->add(channel_queue_[loc.channel], arrival.ps(), 1);
    waves_->add(channel_queue_[loc.channel], data + tm_.burst, -1);
    waves_->add(subchannel_bus_[sc_index], data, 1);
    waves_->add(subchannel_bus_[sc_index], data + tm_.burst, -1);
    waves_->add(bank_busy_[b], booked_from, 1);
    waves_->add(bank_busy_[b], booked_to, -1);
    if (!hit) waves_->set(bank_row_[b], act, static_cast<int64_t>(loc.row));
  }
  return done;
}

void Ddr5Controller::attach_waves(Waves& waves) {
  const size_t subs = radix_[kSubchannel].value(), ranks = radix_[kRank].value(), groups = radix_[kBankGroup].value(),
               banks = radix_[kBank].value();
  unsigned row_bits = 1;
  while (row_bits < 63 && (uint64_t{1} << row_bits) < radix_[kRow].value()) ++row_bits;
  bool any = false;
  const auto keep = [&](Waves::Signal s) {
    any = any || s != Waves::kOff;
    return s;
  };
  for (size_t c = 0; c < channels_; ++c) {
    const std::string channel = path() + ".channel" + std::to_string(c);
    channel_queue_.push_back(keep(waves.level(channel, "queue", 16)));
    for (size_t sc = 0; sc < subs; ++sc) {
      const std::string sub = channel + ".subchannel" + std::to_string(sc);
      subchannel_bus_.push_back(keep(waves.level(sub, "bus", 1)));
      for (size_t r = 0; r < ranks; ++r)
        for (size_t g = 0; g < groups; ++g)
          for (size_t b = 0; b < banks; ++b) {
            const std::string bank =
                sub + ".rank" + std::to_string(r) + ".group" + std::to_string(g) + ".bank" + std::to_string(b);
            bank_busy_.push_back(keep(waves.level(bank, "busy", 1)));
            bank_row_.push_back(keep(waves.value(bank, "row", row_bits)));
          }
    }
  }
  if (any) waves_ = &waves;
}

void Ddr5Controller::reset_stats() {
  Component::reset_stats();
  for (Subchannel& sc : subchannels_state_) sc.busy_ps = 0;
}

double Ddr5Controller::bus_utilization(Time elapsed) const {
  if (elapsed.ps() <= 0) return 0.0;
  int64_t busy = 0;
  for (const Subchannel& sc : subchannels_state_) busy += sc.busy_ps;
  return static_cast<double>(busy) / static_cast<double>(elapsed.ps()) / static_cast<double>(subchannels_state_.size());
}

namespace {
struct StandaloneDdr5 : Ddr5Controller {
  StandaloneDdr5(sc_core::sc_module_name n, const ScopeContext& c) : Ddr5Controller(n, c, {6, 32_GiB}) {}
};
}  // namespace

STARNUMA_REGISTER_COMPONENT(StandaloneDdr5, "ddr5", Role::Part, "DDR5 memory controller and its channels");

}  // namespace starnuma
