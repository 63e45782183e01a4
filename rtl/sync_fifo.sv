// Synchronous FIFO with up to two pushes per cycle and one pop, shared by the TLB counter annex
// (an eviction and a marked hit can both flush in one cycle) and the tracker's request queue.
// Pushes are compacted: push_valid 2'b10 writes push_data[1] alone. The client derives its ready
// from `space` (a register, so there is no combinational path from pop_ready to the client's ready)
// and must never push more than `space`: an overflow is an assertion failure, never a silent drop.
module sync_fifo #(
    parameter int WIDTH = 8,
    parameter int DEPTH = 4
) (
    input  logic                    clk,
    input  logic                    rst,
    input  logic [1:0]              push_valid,
    input  logic [1:0][WIDTH-1:0]   push_data,
    output logic [$clog2(DEPTH+1)-1:0] space,
    output logic                    pop_valid,
    input  logic                    pop_ready,
    output logic [WIDTH-1:0]        pop_data
);
  localparam int PW = $clog2(DEPTH);
  localparam int CW = $clog2(DEPTH + 1);

  logic [WIDTH-1:0] mem_q [DEPTH];
  // Marked public: platform waves show them (docs/debugging.md).
  logic [PW-1:0] rd_q /*verilator public_flat_rd*/;
  logic [PW-1:0] wr_q /*verilator public_flat_rd*/;
  logic [CW-1:0] count_q /*verilator public_flat_rd*/;

  // Pointer arithmetic modulo DEPTH, so any depth >= 2 works (not only powers of two).
  function automatic logic [PW-1:0] wrap_inc(input logic [PW-1:0] ptr);
    return (32'(ptr) == DEPTH - 1) ? '0 : ptr + 1'b1;
  endfunction

  wire pop = pop_valid && pop_ready;
  wire [1:0] npush = {1'b0, push_valid[0]} + {1'b0, push_valid[1]};
  wire [PW-1:0] wr_next = wrap_inc(wr_q);

  assign pop_valid = count_q != '0;
  assign pop_data = mem_q[rd_q];
  assign space = CW'(DEPTH) - count_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      rd_q <= '0;
      wr_q <= '0;
      count_q <= '0;
    end else begin
      if (push_valid[0]) mem_q[wr_q] <= push_data[0];
      if (push_valid[1]) mem_q[push_valid[0] ? wr_next : wr_q] <= push_data[1];
      if (npush == 2'd1) wr_q <= wr_next;
      else if (npush == 2'd2) wr_q <= wrap_inc(wr_next);
      if (pop) rd_q <= wrap_inc(rd_q);
      count_q <= count_q + CW'(npush) - CW'(pop);
    end
  end

`ifndef SYNTHESIS
  initial begin
    if (DEPTH < 2) $error("sync_fifo: DEPTH must be at least 2");
  end
  a_no_overflow: assert property (@(posedge clk) disable iff (rst) CW'(npush) <= space)
    else $error("sync_fifo: push beyond the free space (the client ignored its ready)");
  a_pop_stable: assert property (@(posedge clk) disable iff (rst)
      pop_valid && !pop_ready |=> pop_valid && $stable(pop_data))
    else $error("sync_fifo: output changed while stalled");
`endif
endmodule
