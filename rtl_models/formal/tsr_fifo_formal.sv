// Formal harness of tsr_fifo (scripts/formal.sh, docs/rtl.md "Formal properties"): both
// sides free, reset in the first cycle. The tracked word and the invariants sit in
// tsr_fifo's own `ifdef FORMAL block, which reads its storage.
//
// formal: rtl tsr_fifo
// formal: property tsr_fifo.no_overflow k=2 Width=2 Depth=3
//   asserts=NoPushWhenFull_A,UsageInRange_A,CountMatches_A
//   -- no push into a full FIFO; the usage never exceeds Depth
// formal: property tsr_fifo.no_underflow k=2 Width=2 Depth=3
//   asserts=NoPopWhenEmpty_A,CountMatches_A,UsageInRange_A
//   -- a word leaves only when one is stored: valid_o exactly when pushes exceed pops
// formal: property tsr_fifo.order k=2 Width=2 Depth=3
//   asserts=TrackedInOrder_A,TrackedStored_A,PtrsAgree_A,UsageInRange_A
//   -- any word pushed leaves once, unchanged, after exactly the words pushed before it
// formal: property tsr_fifo.valid_held k=2 Width=2 Depth=3
//   asserts=ValidHeldUntilReady_A,OfferedIsFront_A,PtrsAgree_A,UsageInRange_A
//   -- a word offered and not taken stays offered, unchanged, until taken
// formal: property tsr_fifo.depth1 k=2 Width=2 Depth=1
//   asserts=NoPushWhenFull_A,TrackedInOrder_A,TrackedStored_A,ValidHeldUntilReady_A,OfferedIsFront_A,PtrsAgree_A,UsageInRange_A
//   -- the one-entry FIFO: no overflow, order kept, valid held
// formal: cover tsr_fifo.reach t=8 Width=2 Depth=3
//   -- the FIFO gets full, empties, and a tracked word leaves a full FIFO
module tsr_fifo_formal #(
  parameter int unsigned Width = 2,
  parameter int unsigned Depth = 3
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic [Width-1:0] data_i,
  input logic             ready_i
);

  localparam int unsigned UsageWidth = tsr_pkg::cnt_width(Depth);

  logic                  ready_o, valid_o;
  logic [Width-1:0]      data_o;
  logic [UsageWidth-1:0] usage_o;

  tsr_fifo #(.Width(Width), .Depth(Depth)) dut (
    .clk_i, .rst_ni, .valid_i, .ready_o, .data_i, .valid_o, .ready_i, .data_o, .usage_o
  );

  // Reset in the first cycle only.
  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // The words pushed and not yet popped, counted at the ports, one bit wider than usage.
  logic [UsageWidth:0] f_count_q;
  logic                f_push, f_pop;
  assign f_push = valid_i && ready_o;
  assign f_pop  = valid_o && ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_count_q <= '0;
    else f_count_q <= f_count_q + (UsageWidth + 1)'(f_push) - (UsageWidth + 1)'(f_pop);
  end

  logic f_seen_full_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_seen_full_q <= 1'b0;
    else if (32'(usage_o) == Depth) f_seen_full_q <= 1'b1;
  end

  always_comb begin
    if (rst_ni) begin
      CountMatches_A: assert ({1'b0, usage_o} == f_count_q && ready_o == (32'(f_count_q) < Depth));
      NoPopWhenEmpty_A: assert (valid_o == (f_count_q != '0));
      Full_C: cover (32'(usage_o) == Depth);
      FullThenEmpty_C: cover (f_seen_full_q && usage_o == '0);
    end
  end

endmodule
