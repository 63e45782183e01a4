// Page-table-walker tracker update (StarNUMA section III-D, Fig. 5). Takes the counter annexes'
// flush requests and folds each into the in-memory metadata: the page's region (PAGES_PER_REGION
// consecutive physical pages, 512 KiB of 4 KiB pages by default) has one tracker entry at
// meta_base + region_id * ENTRY_BYTES holding one sharer bit per socket (bits SOCKETS-1:0) and an
// i-bit access counter (the next COUNTER_BITS bits). The update is a read-modify-write: set the
// flushing socket's bit and saturating-add the flushed count.
//
// One RMW is in flight at a time and every memory request (read or write) gets exactly one
// response, so two updates of one region can never interleave and the metadata never loses a
// count, whatever order the memory would complete independent requests in. The write is skipped
// when it would not change the entry (bit already set, nothing to add or counter saturated); T0
// (COUNTER_BITS = 0) still reads, because sixteen sockets share the entry's bytes and memory has
// no bit-granular write, but after the first flush of a phase it almost never writes.
// Flush requests wait in a QUEUE_DEPTH-entry queue; in_ready is low while it is full.
module tracker_update #(
    parameter int SOCKETS = 16,
    parameter int COUNTER_BITS = 8,
    parameter int PPAGE_BITS = 40,
    parameter int PAGES_PER_REGION = 128,
    parameter int ADDR_BITS = 52,
    parameter int QUEUE_DEPTH = 4,
    localparam int CW = COUNTER_BITS > 0 ? COUNTER_BITS : 1,
    localparam int SW = $clog2(SOCKETS),
    // Entry size in bytes: the bits rounded up to a power-of-two number of bytes, so the offset is a
    // shift and an entry never straddles a memory word.
    localparam int ENTRY_BITS = SOCKETS + COUNTER_BITS,
    localparam int ENTRY_BYTES = 1 << $clog2((ENTRY_BITS + 7) / 8),
    localparam int DATA_BITS = 8 * ENTRY_BYTES
) (
    input  logic                  clk,
    input  logic                  rst,
    input  logic [ADDR_BITS-1:0]  meta_base,   // static: start of the metadata region
    // Flush requests from the counter annexes.
    input  logic                  in_valid,
    output logic                  in_ready,
    input  logic [PPAGE_BITS-1:0] in_ppage,
    input  logic [CW-1:0]         in_count,    // always 0 for T0
    input  logic [SW-1:0]         in_socket,
    // Memory requests: held until accepted; each gets one mem_resp_valid pulse, in order.
    output logic                  mem_req_valid,
    input  logic                  mem_req_ready,
    output logic [ADDR_BITS-1:0]  mem_req_addr,
    output logic                  mem_req_write,
    output logic [DATA_BITS-1:0]  mem_req_wdata,
    input  logic                  mem_resp_valid,
    input  logic [DATA_BITS-1:0]  mem_resp_rdata, // read data; ignored for a write's response
    output logic                  busy           // updates pending (keep clocking)
);
  localparam int REGION_SHIFT = $clog2(PAGES_PER_REGION);
  localparam int ENTRY_SHIFT = $clog2(ENTRY_BYTES);
  localparam int RW = PPAGE_BITS - REGION_SHIFT;  // region id bits
  localparam int QW = RW + CW + SW;
  localparam logic [CW:0] MAX = (CW + 1)'((1 << COUNTER_BITS) - 1);  // 0 for T0

  typedef enum logic [2:0] {IDLE, READ, READ_WAIT, WRITE, WRITE_WAIT} state_e;
  // The update in flight is public: platform waves show it (docs/debugging.md).
  state_e state_q /*verilator public_flat_rd*/;
  logic [ADDR_BITS-1:0] addr_q /*verilator public_flat_rd*/;
  logic [DATA_BITS-1:0] wdata_q /*verilator public_flat_rd*/;
  logic [CW-1:0] count_q /*verilator public_flat_rd*/;
  logic [SW-1:0] socket_q /*verilator public_flat_rd*/;

  logic [$clog2(QUEUE_DEPTH+1)-1:0] space;
  logic head_valid;
  logic [QW-1:0] head;
  wire start = state_q == IDLE && head_valid;

  sync_fifo #(.WIDTH(QW), .DEPTH(QUEUE_DEPTH)) queue (
      .clk, .rst,
      .push_valid({1'b0, in_valid && in_ready}),
      .push_data({QW'(0), {in_ppage[PPAGE_BITS-1:REGION_SHIFT], in_count, in_socket}}),
      .space,
      .pop_valid(head_valid),
      .pop_ready(start),
      .pop_data(head));
  assign in_ready = space != '0;

  if (REGION_SHIFT > 0) begin : g_offset
    wire unused_page_in_region = ^in_ppage[REGION_SHIFT-1:0];  // only the region id matters
  end
  wire [ADDR_BITS-1:0] head_addr = meta_base + (ADDR_BITS'(head[QW-1 -: RW]) << ENTRY_SHIFT);

  // The modified entry: the socket's bit set, the count added with saturation, other bits kept.
  wire [DATA_BITS-1:0] with_bit = mem_resp_rdata | (DATA_BITS'(1) << socket_q);
  logic [DATA_BITS-1:0] updated;
  logic [CW:0] old_count, new_count;
  if (COUNTER_BITS > 0) begin : g_count
    always_comb begin
      old_count = {1'b0, mem_resp_rdata[SOCKETS +: COUNTER_BITS]};
`ifdef STARNUMA_INJECT_WRAP_BUG
      new_count = (old_count + {1'b0, count_q}) & MAX;  // test-only bug: wraps
`else
      new_count = old_count + {1'b0, count_q};
      if (new_count > MAX) new_count = MAX;
`endif
      updated = with_bit;
      updated[SOCKETS +: COUNTER_BITS] = new_count[COUNTER_BITS-1:0];
    end
  end else begin : g_touch
    // T0: no addition; the flushed count is always 0 (checked below).
    assign old_count = '0;
    assign new_count = '0;
    assign updated = with_bit;
    wire unused_count = ^count_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= IDLE;
    end else begin
      unique case (state_q)
        IDLE: if (start) begin
          addr_q <= head_addr;
          {count_q, socket_q} <= head[CW+SW-1:0];
          state_q <= READ;
        end
        READ: if (mem_req_ready) state_q <= READ_WAIT;
        READ_WAIT: if (mem_resp_valid) begin
          wdata_q <= updated;
          state_q <= updated != mem_resp_rdata ? WRITE : IDLE;
        end
        WRITE: if (mem_req_ready) state_q <= WRITE_WAIT;
        WRITE_WAIT: if (mem_resp_valid) state_q <= IDLE;
        default: state_q <= IDLE;
      endcase
    end
  end

  assign mem_req_valid = state_q == READ || state_q == WRITE;
  assign mem_req_write = state_q == WRITE;
  assign mem_req_addr = addr_q;
  assign mem_req_wdata = mem_req_write ? wdata_q : '0;
  assign busy = head_valid || state_q != IDLE;

`ifndef SYNTHESIS
  initial begin
    if (COUNTER_BITS < 0 || COUNTER_BITS > 16) $error("tracker_update: COUNTER_BITS is 0..16");
    if (PAGES_PER_REGION != 1 << REGION_SHIFT) $error("tracker_update: PAGES_PER_REGION not 2^n");
    if (SOCKETS < 2 || SOCKETS != 1 << SW) $error("tracker_update: SOCKETS must be 2^n >= 2");
  end
  wire reading = state_q == READ_WAIT && mem_resp_valid;
  // Saturation: an update never lowers the count nor passes 2^i - 1, and keeps other sharers.
  a_saturate: assert property (@(posedge clk) disable iff (rst)
      reading |-> new_count >= old_count && new_count <= MAX)
    else $error("tracker_update: counter wrapped (old %0d, added %0d, new %0d)",
                old_count, count_q, new_count);
  a_keep_sharers: assert property (@(posedge clk) disable iff (rst)
      reading |-> (updated[SOCKETS-1:0] & mem_resp_rdata[SOCKETS-1:0]) == mem_resp_rdata[SOCKETS-1:0])
    else $error("tracker_update: a sharer bit was cleared");
  a_t0_count: assert property (@(posedge clk) disable iff (rst)
      in_valid && COUNTER_BITS == 0 |-> in_count == '0)
    else $error("tracker_update: T0 flush with a nonzero count");
  // Handshakes: requests held stable until accepted; no response without a request.
  a_req_hold: assert property (@(posedge clk) disable iff (rst) mem_req_valid && !mem_req_ready
      |=> mem_req_valid && $stable(mem_req_addr) && $stable(mem_req_write) && $stable(mem_req_wdata))
    else $error("tracker_update: memory request changed before it was accepted");
  a_in_hold: assert property (@(posedge clk) disable iff (rst) in_valid && !in_ready
      |=> in_valid && $stable(in_ppage) && $stable(in_count) && $stable(in_socket))
    else $error("tracker_update: flush request dropped or changed while stalled");
  a_resp_expected: assert property (@(posedge clk) disable iff (rst)
      mem_resp_valid |-> state_q == READ_WAIT || state_q == WRITE_WAIT)
    else $error("tracker_update: memory response without an outstanding request");
`endif
endmodule
