// Formal harness of tsr_credit_counter (scripts/formal.sh, docs/rtl.md "Formal
// properties"): one channel of a link as the mesh router runs it. The sender sends a flit
// whenever it wants to and has a credit; the flit reaches the receiver's buffer (a
// tsr_fifo of MaxCredits words) the cycle after; the receiver's consumer takes words
// freely, and each word taken returns a credit the cycle after. The run-time limit is
// any of 1..MaxCredits, held. With ReturnOnArrival the receiver returns a credit when a
// flit arrives instead of when it leaves, a mismatched credit protocol.
//
// formal: rtl tsr_credit_counter tsr_fifo
// formal: property tsr_credit_counter.bounded k=2 MaxCredits=3
//   asserts=CreditsBounded_A,NoReturnWithoutUse_A,CreditsAccounted_A
//   -- the credits in use never exceed the limit and never go below zero
// formal: property tsr_credit_counter.accounting k=2 MaxCredits=3
//   asserts=CreditsAccounted_A
//   -- credits in use = flits in flight + words in the receiver's buffer + credits in flight
// formal: property tsr_credit_counter.receiver_room k=2 MaxCredits=3
//   asserts=ArrivalHasRoom_A,CreditsAccounted_A
//   -- a flit sent on a credit always finds room in the receiver's buffer: none is lost
// formal: cover tsr_credit_counter.reach t=10 MaxCredits=3
//   -- every credit in use at the largest limit, the sender held back, the buffer full
// formal: negative tsr_credit_counter.return_on_arrival k=8 MaxCredits=3 ReturnOnArrival=1
//   asserts=ArrivalHasRoom_A
//   -- a receiver returning credits on arrival overruns its buffer: must fail
module tsr_credit_counter_formal #(
  parameter int unsigned MaxCredits = 3,
  parameter bit ReturnOnArrival = 1'b0
) (
  input logic clk_i,
  input logic rst_ni,
  input logic send_i,   // the sender has a flit to send
  input logic ready_i   // the receiver's consumer takes a word
);

  localparam int unsigned CntWidth = tsr_pkg::cnt_width(MaxCredits);

  logic [CntWidth-1:0] limit, used;
  logic                avail, send, flit_q, credit_q;
  logic                buf_ready, buf_valid;
  logic [CntWidth-1:0] buf_usage;
  logic [1:0]          buf_data;

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // The run-time limit, held from reset on.
  assign limit = $anyconst;
  always_comb assume (limit >= CntWidth'(1) && 32'(limit) <= MaxCredits);

  assign send = send_i && avail;

  tsr_credit_counter #(.Channels(1), .MaxCredits(MaxCredits), .GiveWidth(1)) dut (
    .clk_i, .rst_ni, .limit_i (limit), .take_i (send), .give_i (credit_q), .avail_o (avail),
    .used_o (used)
  );

  // The link and the credit wire, one cycle each.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flit_q   <= 1'b0;
      credit_q <= 1'b0;
    end else begin
      flit_q   <= send;
      credit_q <= ReturnOnArrival ? flit_q : buf_valid && ready_i;
    end
  end

  tsr_fifo #(.Width(2), .Depth(MaxCredits)) i_rx (
    .clk_i, .rst_ni, .valid_i (flit_q), .ready_o (buf_ready), .data_i (2'b01),
    .valid_o (buf_valid), .ready_i, .data_o (buf_data), .usage_o (buf_usage)
  );

  always_comb begin
    if (rst_ni) begin
      NoReturnWithoutUse_A: assert (!credit_q || used != '0);
      CreditsAccounted_A: assert (32'(used) == 32'(buf_usage) + 32'(flit_q) + 32'(credit_q));
      ArrivalHasRoom_A: assert (!flit_q || buf_ready);
      AllCreditsUsed_C: cover (used == limit && 32'(limit) == MaxCredits && send_i && !avail);
      BufferFull_C: cover (32'(buf_usage) == MaxCredits);
    end
  end

  logic unused_data;
  assign unused_data = ^buf_data;

endmodule
