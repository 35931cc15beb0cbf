// Credit counter of one channel: the buffers a sender has in use at the far end of a
// link. A send takes a credit; the receiver returns credits as its buffers free, and the
// sender may use a returned credit from the cycle after the receiver sends it. The
// counter counts credits in use, so a run-time limit below MaxCredits needs no reload.
//
// The mesh router keeps one per output link and VC and the mesh NI one per local input
// VC (limit: the FIFO depth in use); the torus node one per output link and dateline
// class (limit: the buffers of that class) and the torus NI one for the local input.
module tsr_credit_counter #(
  /// Credits the receiver can grant at most, at least 1.
  parameter int unsigned MaxCredits = 4,
  /// Width of give_i, at least 1: up to 2**GiveWidth - 1 credits come back in a cycle.
  parameter int unsigned GiveWidth = 1,
  /// Width of limit_i, at least CntWidth (a run-time setting may be wider).
  parameter int unsigned LimitWidth = tsr_pkg::cnt_width(MaxCredits),
  /// Width of the count; derived, do not override.
  localparam int unsigned CntWidth = tsr_pkg::cnt_width(MaxCredits)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // The credits of the channel, 1..MaxCredits, held from reset on.
  input  logic [LimitWidth-1:0] limit_i,
  // A send takes a credit this cycle.
  input  logic                  take_i,
  // Credits the receiver returns this cycle.
  input  logic [GiveWidth-1:0]  give_i,
  // A credit is left: fewer than limit_i in use.
  output logic                  avail_o
);

  if (MaxCredits < 1 || GiveWidth < 1 || LimitWidth < CntWidth) begin : gen_param_check
    $fatal(1, "tsr_credit_counter: MaxCredits, GiveWidth >= 1 and LimitWidth >= the count's");
  end

  logic [CntWidth-1:0] used_d, used_q;

  assign avail_o = 32'(used_q) < 32'(limit_i);
  assign used_d  = used_q + CntWidth'(take_i) - CntWidth'(give_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= '0;
    end else begin
      used_q <= used_d;
    end
  end

`ifndef SYNTHESIS
  // More credits in use than the channel has: a send without a credit; or a count
  // wrapped below zero: more credits returned than taken. An immediate assertion at the
  // clock edge: no per-evaluation sampling in a Verilated model.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      CreditsBounded_A: assert (32'(used_q) <= 32'(limit_i))
        else $error("%m: %0d credits in use of %0d", used_q, limit_i);
    end
  end
`endif

endmodule
