// CXL Hotness Monitoring Unit (CHMU; CXL 3.2 section 8.2.8), one instance in the pool device.
// It sees every request that reaches the device (the host-side trackers see every socket's loads,
// this sees only the pool's) and counts them per unit of device memory (2^unit_shift bytes, 256 B
// and up) in a SETS x WAYS counter table; hot units go to a hotlist ring that the host drains.
//
// What the specification fixes and this follows: unit size, hotness threshold, down-sampling by
// 2^k (sequential or randomized), which requests count (reads, writes), epoch-based or always-on
// reporting, a hotlist ring read at head and written at tail (empty when equal, full when the tail
// is one behind the head), sticky overflow and level-crossed status bits, and the notification
// level. What it leaves to the implementation, and the choices here (docs/decisions.md, "The
// CHMU's counter table"): the counter table is set-associative, indexed by the unit's low bits; a
// miss in a full set takes the way with the smallest count and inherits that count plus one
// (Space-Saving, Metwally et al., ICDT 2005: a unit's count is never under its true count); in
// epoch mode the epoch's end scans the table one entry a cycle, reports every count at or above
// the threshold and empties the table; in always-on mode a unit is reported when its count reaches
// the threshold and starts again from 0, and the epoch's end only empties the table (ageing).
//
// One request a cycle on one bus (req_valid/req_ready; held until taken). req_ready is low while
// the epoch scan runs, so a burst of requests waits instead of being lost or reordered: the
// transaction-level model (models/pool/chmu_model.hpp) gives the same hotlist, status and counts.
// lint: --assert -GCOUNTER_BITS=2 -GSETS=2 -GWAYS=2 -GHOTLIST=2
// lint: --assert -GCOUNTER_BITS=32 -GSETS=512 -GWAYS=8 -GHOTLIST=1024
// lint: --assert -GCOUNTER_BITS=8 -DSTARNUMA_INJECT_WRAP_BUG
module chmu #(
    parameter int SETS = 64,
    parameter int WAYS = 4,
    parameter int ADDR_BITS = 40,      // device physical address, bytes
    parameter int COUNTER_BITS = 16,
    parameter int HOTLIST = 64,        // ring slots (holds HOTLIST - 1 units); a power of two
    localparam int SW = $clog2(SETS),
    localparam int WW = $clog2(WAYS),
    localparam int NE = SETS * WAYS,
    localparam int EW = $clog2(NE),
    localparam int UW = ADDR_BITS - 8,  // unit index bits at the smallest unit, 256 B
    localparam int TW = UW - SW,
    localparam int CW = COUNTER_BITS,
    localparam int HW = $clog2(HOTLIST)
) (
    input  logic                 clk,
    input  logic                 rst,
    // Requests: OP_READ/OP_WRITE (a device access at req_addr), OP_EPOCH (the epoch ended),
    // OP_HEAD (the host consumed the hotlist up to req_head), OP_CONFIG (enable with the cfg_*
    // fields: empties the table and the hotlist and clears the status), OP_CLEAR (the host clears
    // the sticky status bits).
    input  logic                 req_valid,
    output logic                 req_ready,
    input  logic [2:0]           req_op,
    input  logic [ADDR_BITS-1:0] req_addr,
    input  logic [HW-1:0]        req_head,
    input  logic [CW-1:0]        cfg_threshold,     // 1 .. 2^CW - 1
    input  logic [4:0]           cfg_unit_shift,    // log2 of the unit in bytes, 8 .. 30
    input  logic [3:0]           cfg_ds_shift,      // count one eligible request in 2^k
    input  logic                 cfg_random_ds,
    input  logic                 cfg_always_on,
    input  logic                 cfg_track_reads,
    input  logic                 cfg_track_writes,
    input  logic [HW-1:0]        cfg_notify_level,  // 0: never
    // The host's view: ring pointers, status, one entry read by index.
    output logic [HW-1:0]        head,
    output logic [HW-1:0]        tail,
    output logic                 enabled,
    output logic                 overflow,          // a hot unit found the ring full (sticky)
    output logic                 level_crossed,     // the ring reached cfg_notify_level (sticky)
    input  logic [HW-1:0]        rd_index,
    output logic [UW-1:0]        rd_unit,
    output logic [CW-1:0]        rd_count,
    // Statistics, as the model keeps them.
    output logic [63:0]          stat_counted,      // requests counted (after filter and sampling)
    output logic [63:0]          stat_filtered,     // requests of a type not tracked
    output logic [63:0]          stat_sampled_out,  // tracked requests the down-sampling skipped
    output logic [63:0]          stat_replaced,     // table misses that displaced a unit
    output logic [63:0]          stat_reported,     // units written to the hotlist
    output logic [63:0]          stat_dropped,      // hot units lost to a full hotlist
    output logic                 busy               // the epoch scan runs (keep clocking)
);
  localparam logic [2:0] OP_READ = 3'd0, OP_WRITE = 3'd1, OP_EPOCH = 3'd2, OP_HEAD = 3'd3,
                         OP_CONFIG = 3'd4, OP_CLEAR = 3'd5;
  localparam logic [CW-1:0] MAX = '1;
  localparam logic [15:0] LFSR_SEED = 16'hACE1;

  // The table and the ring are public: platform waves show them (docs/debugging.md).
  logic [TW-1:0] tag_q [NE];
  logic [CW-1:0] count_q [NE] /*verilator public_flat_rd*/;
  logic [NE-1:0] valid_q /*verilator public_flat_rd*/;
  logic [UW-1:0] hl_unit_q [HOTLIST];
  logic [CW-1:0] hl_count_q [HOTLIST];
  logic [HW-1:0] head_q /*verilator public_flat_rd*/;
  logic [HW-1:0] tail_q /*verilator public_flat_rd*/;
  logic enabled_q, overflow_q, level_q;
  logic scanning_q /*verilator public_flat_rd*/;
  logic [EW-1:0] scan_q;
  logic [CW-1:0] threshold_q;
  logic [4:0] unit_shift_q;
  logic [3:0] ds_shift_q;
  logic random_ds_q, always_on_q, track_reads_q, track_writes_q;
  logic [HW-1:0] notify_q;
  logic [15:0] ds_count_q, lfsr_q;
  logic [63:0] counted_q, filtered_q, sampled_out_q, replaced_q, reported_q, dropped_q;

  wire take = req_valid && req_ready;
  wire is_access = req_op == OP_READ || req_op == OP_WRITE;
  wire access = take && enabled_q && is_access;
  wire eligible = (req_op == OP_READ && track_reads_q) || (req_op == OP_WRITE && track_writes_q);
  wire [15:0] ds_mask = 16'((32'd1 << ds_shift_q) - 1);
  wire sampled = ((random_ds_q ? lfsr_q : ds_count_q) & ds_mask) == '0;
  wire count_it = access && eligible && sampled;
  wire [15:0] lfsr_next = lfsr_q[0] ? (lfsr_q >> 1) ^ 16'hB400 : lfsr_q >> 1;

  // The request's unit, set and tag.
  wire [UW-1:0] unit = UW'(req_addr >> unit_shift_q);
  wire [SW-1:0] set = unit[SW-1:0];
  wire [TW-1:0] tag = unit[UW-1:SW];
  wire [EW-1:0] base = EW'(set) << WW;

  // The way the unit is in, else the lowest free way, else the lowest way of the smallest count.
  logic hit, has_free;
  logic [WW-1:0] hit_way, free_way, min_way;
  always_comb begin
    hit = 1'b0;
    has_free = 1'b0;
    hit_way = '0;
    free_way = '0;
    min_way = '0;
    for (int w = WAYS - 1; w >= 0; w--) begin
      if (valid_q[base + EW'(w)] && tag_q[base + EW'(w)] == tag) begin
        hit = 1'b1;
        hit_way = WW'(w);
      end
      if (!valid_q[base + EW'(w)]) begin
        has_free = 1'b1;
        free_way = WW'(w);
      end
    end
    for (int w = 1; w < WAYS; w++)
      if (count_q[base + EW'(w)] < count_q[base + EW'(min_way)]) min_way = WW'(w);
  end
  wire [WW-1:0] way = hit ? hit_way : has_free ? free_way : min_way;
  wire [EW-1:0] slot = base | EW'(way);
  wire [CW-1:0] count_base = hit ? count_q[slot] : has_free ? '0 : count_q[slot];
`ifdef STARNUMA_INJECT_WRAP_BUG
  wire [CW-1:0] count_next = count_base + 1'b1;  // test-only bug: wraps instead of saturating
`else
  wire [CW-1:0] count_next = count_base == MAX ? MAX : count_base + 1'b1;
`endif
  wire hot_now = count_it && always_on_q && count_next >= threshold_q;

  // The entry the scan is at.
  wire scan_hot = scanning_q && valid_q[scan_q] && count_q[scan_q] >= threshold_q;
  wire [UW-1:0] scan_unit = {tag_q[scan_q], SW'(scan_q >> WW)};

  // At most one push a cycle: the always-on report of this cycle's request, or the scan's entry.
  wire push = hot_now || scan_hot;
  wire [UW-1:0] push_unit = scanning_q ? scan_unit : unit;
  wire [CW-1:0] push_count = scanning_q ? count_q[scan_q] : count_next;
  wire full = HW'(tail_q + 1'b1) == head_q;
  wire [HW-1:0] fill_after = HW'(tail_q + 1'b1 - head_q);

  always_ff @(posedge clk) begin
    if (rst) begin
      valid_q <= '0;
      head_q <= '0;
      tail_q <= '0;
      enabled_q <= 1'b0;
      overflow_q <= 1'b0;
      level_q <= 1'b0;
      scanning_q <= 1'b0;
      scan_q <= '0;
      threshold_q <= MAX;
      unit_shift_q <= 5'd12;
      ds_shift_q <= '0;
      random_ds_q <= 1'b0;
      always_on_q <= 1'b0;
      track_reads_q <= 1'b1;
      track_writes_q <= 1'b1;
      notify_q <= '0;
      ds_count_q <= '0;
      lfsr_q <= LFSR_SEED;
      counted_q <= '0;
      filtered_q <= '0;
      sampled_out_q <= '0;
      replaced_q <= '0;
      reported_q <= '0;
      dropped_q <= '0;
    end else begin
      if (push) begin
        if (full) begin
          overflow_q <= 1'b1;
          dropped_q <= dropped_q + 1;
        end else begin
          hl_unit_q[tail_q] <= push_unit;
          hl_count_q[tail_q] <= push_count;
          tail_q <= tail_q + 1'b1;
          reported_q <= reported_q + 1;
          if (notify_q != '0 && fill_after >= notify_q) level_q <= 1'b1;
        end
      end
      if (scanning_q) begin
        scan_q <= scan_q + 1'b1;
        if (32'(scan_q) == NE - 1) begin
          scanning_q <= 1'b0;
          valid_q <= '0;
        end
      end
      if (access) begin
        if (!eligible) filtered_q <= filtered_q + 1;
        else begin
          ds_count_q <= ds_count_q + 1'b1;
          lfsr_q <= lfsr_next;
          if (!sampled) sampled_out_q <= sampled_out_q + 1;
        end
      end
      if (count_it) begin
        counted_q <= counted_q + 1;
        if (!hit && !has_free) replaced_q <= replaced_q + 1;
        valid_q[slot] <= 1'b1;
        tag_q[slot] <= tag;
        count_q[slot] <= hot_now ? '0 : count_next;
      end
      if (take && enabled_q && req_op == OP_EPOCH) begin
        if (always_on_q) valid_q <= '0;
        else begin
          scanning_q <= 1'b1;
          scan_q <= '0;
        end
      end
      if (take && req_op == OP_HEAD) head_q <= req_head;
      if (take && req_op == OP_CLEAR) begin
        overflow_q <= 1'b0;
        level_q <= 1'b0;
      end
      if (take && req_op == OP_CONFIG) begin
        enabled_q <= 1'b1;
        valid_q <= '0;
        head_q <= '0;
        tail_q <= '0;
        overflow_q <= 1'b0;
        level_q <= 1'b0;
        threshold_q <= cfg_threshold;
        unit_shift_q <= cfg_unit_shift;
        ds_shift_q <= cfg_ds_shift;
        random_ds_q <= cfg_random_ds;
        always_on_q <= cfg_always_on;
        track_reads_q <= cfg_track_reads;
        track_writes_q <= cfg_track_writes;
        notify_q <= cfg_notify_level;
        ds_count_q <= '0;
        lfsr_q <= LFSR_SEED;
      end
    end
  end

  assign req_ready = !scanning_q;
  assign head = head_q;
  assign tail = tail_q;
  assign enabled = enabled_q;
  assign overflow = overflow_q;
  assign level_crossed = level_q;
  assign rd_unit = hl_unit_q[rd_index];
  assign rd_count = hl_count_q[rd_index];
  assign stat_counted = counted_q;
  assign stat_filtered = filtered_q;
  assign stat_sampled_out = sampled_out_q;
  assign stat_replaced = replaced_q;
  assign stat_reported = reported_q;
  assign stat_dropped = dropped_q;
  assign busy = scanning_q;

`ifndef SYNTHESIS
  initial begin
    if (SETS < 2 || (SETS & (SETS - 1)) != 0) $error("chmu: SETS must be a power of two, 2 or more");
    if (WAYS < 2 || (WAYS & (WAYS - 1)) != 0) $error("chmu: WAYS must be a power of two, 2 or more");
    if (HOTLIST < 2 || (HOTLIST & (HOTLIST - 1)) != 0) $error("chmu: HOTLIST must be a power of two");
    if (COUNTER_BITS < 2 || COUNTER_BITS > 32) $error("chmu: COUNTER_BITS is 2..32");
  end
  // Saturation: an increment never lowers a count.
  a_saturate: assert property (@(posedge clk) disable iff (rst)
      count_it |-> count_next >= count_base)
    else $error("chmu: counter wrapped (base %0d, next %0d)", count_base, count_next);
  a_config: assert property (@(posedge clk) disable iff (rst)
      take && req_op == OP_CONFIG |-> cfg_threshold != '0 && cfg_unit_shift >= 5'd8
      && cfg_unit_shift <= 5'd30 && 32'(cfg_notify_level) < HOTLIST)
    else $error("chmu: configuration out of range");
  a_op: assert property (@(posedge clk) disable iff (rst) req_valid |-> req_op <= OP_CLEAR)
    else $error("chmu: unknown request %0d", req_op);
  // The host moves the head only over entries the ring holds.
  a_head: assert property (@(posedge clk) disable iff (rst)
      take && req_op == OP_HEAD |-> HW'(req_head - head_q) <= HW'(tail_q - head_q))
    else $error("chmu: head moved past the tail");
  a_hold: assert property (@(posedge clk) disable iff (rst) req_valid && !req_ready
      |=> req_valid && $stable(req_op) && $stable(req_addr) && $stable(req_head))
    else $error("chmu: request dropped or changed while stalled");
`endif
endmodule
