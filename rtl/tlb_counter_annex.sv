// TLB counter annex (StarNUMA section III-D, Fig. 5), one per TLB. Each TLB entry has an i-bit
// saturating counter of LLC-missing loads (T_i, i = COUNTER_BITS, 0..16), a marker bit set once per
// migration phase, and the entry's virtual and physical page. The annex reports ("flushes") an
// entry's count to the page-table walker's tracker update on eviction and on the first hit after a
// phase mark; a flush resets the count. With COUNTER_BITS = 0 (T0) the count is always 0 and a
// flush only says "this socket touched the page's region".
//
// All event inputs share one ready (in_ready): an event is taken in a cycle where its valid and
// in_ready are both high, and must be held (payload stable) until then. Events taken in the same
// cycle apply in this order: evict, fill, hit, load, phase mark (so a replacement that evicts and
// fills one index in one cycle flushes the old contents, and a fill during a phase mark is marked).
// Up to two flushes (an eviction and a marked hit) are produced per cycle; in_ready is high only
// while the output FIFO has room for two, so a full FIFO stalls the TLB instead of losing counts.
module tlb_counter_annex #(
    parameter int ENTRIES = 64,
    parameter int COUNTER_BITS = 8,
    parameter int VPAGE_BITS = 36,
    parameter int PPAGE_BITS = 40,
    parameter int SOCKETS = 16,
    parameter int FIFO_DEPTH = 4,
    localparam int IW = $clog2(ENTRIES),
    localparam int CW = COUNTER_BITS > 0 ? COUNTER_BITS : 1,
    localparam int SW = $clog2(SOCKETS)
) (
    input  logic                  clk,
    input  logic                  rst,
    input  logic [SW-1:0]         socket_id,   // static: the socket this TLB belongs to
    output logic                  in_ready,
    // A translation was installed in entry fill_index: reset its counter and marker.
    input  logic                  fill_valid,
    input  logic [IW-1:0]         fill_index,
    input  logic [VPAGE_BITS-1:0] fill_vpage,
    input  logic [PPAGE_BITS-1:0] fill_ppage,
    // An LLC-missing load that translated through entry load_index completed: count it.
    input  logic                  load_valid,
    input  logic [IW-1:0]         load_index,
    // A lookup hit entry hit_index: flush it if marked, and clear the marker.
    input  logic                  hit_valid,
    input  logic [IW-1:0]         hit_index,
    // Entry evict_index is displaced or invalidated (a shootdown too): flush it.
    input  logic                  evict_valid,
    input  logic [IW-1:0]         evict_index,
    // A migration phase began: mark every entry.
    input  logic                  phase_valid,
    // Flush requests to the tracker update.
    output logic                  flush_valid,
    input  logic                  flush_ready,
    output logic [VPAGE_BITS-1:0] flush_vpage,
    output logic [PPAGE_BITS-1:0] flush_ppage,
    output logic [CW-1:0]         flush_count,
    output logic [SW-1:0]         flush_socket,
    output logic                  busy         // flushes pending (keep clocking)
);
  localparam int PW = VPAGE_BITS + PPAGE_BITS + CW + SW;
  localparam logic [CW-1:0] MAX = CW'((1 << COUNTER_BITS) - 1);  // 0 for T0

  logic [VPAGE_BITS-1:0] vpage_q [ENTRIES];
  logic [PPAGE_BITS-1:0] ppage_q [ENTRIES];
  // The counters and marks are public: platform waves show them (docs/debugging.md).
  logic [CW-1:0] count_q [ENTRIES] /*verilator public_flat_rd*/;
  logic [ENTRIES-1:0] marker_q /*verilator public_flat_rd*/;

  wire evict = evict_valid && in_ready;
  wire fill = fill_valid && in_ready;
  wire load = load_valid && in_ready;
  wire phase = phase_valid && in_ready;
  // The hit sees the entry after this cycle's evict and fill, which both clear the marker.
  wire hit_flush = hit_valid && in_ready && marker_q[hit_index]
                   && !(evict && evict_index == hit_index) && !(fill && fill_index == hit_index);

  // The load increments the count left by this cycle's evict, fill and hit flush (all reset it).
  wire load_reset = (evict && evict_index == load_index) || (fill && fill_index == load_index)
                    || (hit_flush && hit_index == load_index);
  wire [CW-1:0] load_base = load_reset ? '0 : count_q[load_index];
`ifdef STARNUMA_INJECT_WRAP_BUG
  wire [CW-1:0] load_next = load_base + 1'b1;  // test-only bug: wraps instead of saturating
`else
  wire [CW-1:0] load_next = load_base == MAX ? MAX : load_base + 1'b1;
`endif

  always_ff @(posedge clk) begin
    if (rst) begin
      marker_q <= '0;
      for (int i = 0; i < ENTRIES; i++) count_q[i] <= '0;
    end else begin
      // Later assignments win, which is the in-cycle event order.
      if (evict) begin
        count_q[evict_index] <= '0;
        marker_q[evict_index] <= 1'b0;
      end
      if (fill) begin
        count_q[fill_index] <= '0;
        marker_q[fill_index] <= 1'b0;
        vpage_q[fill_index] <= fill_vpage;
        ppage_q[fill_index] <= fill_ppage;
      end
      if (hit_flush) begin
        count_q[hit_index] <= '0;
        marker_q[hit_index] <= 1'b0;
      end
      if (load) count_q[load_index] <= load_next;
      if (phase) marker_q <= '1;
    end
  end

  // Flush payloads read the state before this cycle's updates; the hit is excluded above whenever
  // an earlier event in the same cycle touched its entry, so "before" is also "at its turn".
  wire [PW-1:0] evict_flush = {vpage_q[evict_index], ppage_q[evict_index], count_q[evict_index],
                               socket_id};
  wire [PW-1:0] hit_flush_data = {vpage_q[hit_index], ppage_q[hit_index], count_q[hit_index],
                                  socket_id};
  logic [$clog2(FIFO_DEPTH+1)-1:0] space;
  logic [PW-1:0] out_data;

  sync_fifo #(.WIDTH(PW), .DEPTH(FIFO_DEPTH)) flushes (
      .clk, .rst,
      .push_valid({hit_flush, evict}),
      .push_data({hit_flush_data, evict_flush}),
      .space,
      .pop_valid(flush_valid),
      .pop_ready(flush_ready),
      .pop_data(out_data));

  assign in_ready = 32'(space) >= 2;
  assign {flush_vpage, flush_ppage, flush_count, flush_socket} = out_data;
  assign busy = flush_valid;

`ifndef SYNTHESIS
  initial begin
    if (COUNTER_BITS < 0 || COUNTER_BITS > 16) $error("tlb_counter_annex: COUNTER_BITS is 0..16");
    if (FIFO_DEPTH < 2) $error("tlb_counter_annex: FIFO_DEPTH must hold two flushes");
  end
  // Saturation: an increment never lowers a count and never passes 2^i - 1.
  a_saturate: assert property (@(posedge clk) disable iff (rst)
      load |-> load_next >= load_base && load_next <= MAX)
    else $error("tlb_counter_annex: counter wrapped (base %0d, next %0d)", load_base, load_next);
  a_count_max: assert property (@(posedge clk) disable iff (rst)
      flush_valid |-> flush_count <= MAX)
    else $error("tlb_counter_annex: flushed count above 2^i - 1");
  a_index: assert property (@(posedge clk) disable iff (rst)
      !(fill_valid && 32'(fill_index) >= ENTRIES) && !(load_valid && 32'(load_index) >= ENTRIES)
      && !(hit_valid && 32'(hit_index) >= ENTRIES) && !(evict_valid && 32'(evict_index) >= ENTRIES))
    else $error("tlb_counter_annex: entry index out of range");
  // The TLB holds its events while stalled (an event is never dropped).
  a_fill_hold: assert property (@(posedge clk) disable iff (rst) fill_valid && !in_ready
      |=> fill_valid && $stable(fill_index) && $stable(fill_vpage) && $stable(fill_ppage))
    else $error("tlb_counter_annex: fill dropped or changed while stalled");
  a_load_hold: assert property (@(posedge clk) disable iff (rst) load_valid && !in_ready
      |=> load_valid && $stable(load_index))
    else $error("tlb_counter_annex: load dropped or changed while stalled");
  a_hit_hold: assert property (@(posedge clk) disable iff (rst) hit_valid && !in_ready
      |=> hit_valid && $stable(hit_index))
    else $error("tlb_counter_annex: hit dropped or changed while stalled");
  a_evict_hold: assert property (@(posedge clk) disable iff (rst) evict_valid && !in_ready
      |=> evict_valid && $stable(evict_index))
    else $error("tlb_counter_annex: eviction dropped or changed while stalled");
  a_phase_hold: assert property (@(posedge clk) disable iff (rst) phase_valid && !in_ready
      |=> phase_valid)
    else $error("tlb_counter_annex: phase mark dropped while stalled");
`endif
endmodule
