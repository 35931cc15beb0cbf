// Credit counters of a set of channels, one count each: the buffers a sender has in use
// at the far end of a link. A send takes a credit; the receiver returns credits as its
// buffers free, and the sender may use a returned credit from the cycle after the
// receiver sends it. A counter counts credits in use, so a run-time limit below
// MaxCredits needs no reload.
//
// The channels of one sender share a cell (its counts are one packed vector, so a
// Verilated model copies and traces them as a few words, not one variable per channel):
// the mesh router's output links times VCs and the mesh NI's local input VCs (limit: the
// FIFO depth in use); the torus node's link outputs, one cell per dateline class (limit:
// the buffers of that class), and the torus NI's local input.
// FST traces show the counts; the ports are the parent's signals, traced there.
/*verilator tracing_off*/
module tsr_credit_counter #(
  /// Channels counted, at least 1.
  parameter int unsigned Channels = 1,
  /// Credits the receiver can grant a channel at most, at least 1.
  parameter int unsigned MaxCredits = 4,
  /// Width of a channel's returned credits, at least 1: up to 2**GiveWidth - 1 a cycle.
  parameter int unsigned GiveWidth = 1,
  /// Width of limit_i, at least CntWidth (a run-time setting may be wider).
  parameter int unsigned LimitWidth = tsr_pkg::cnt_width(MaxCredits),
  /// Width of a count; derived, do not override.
  localparam int unsigned CntWidth = tsr_pkg::cnt_width(MaxCredits)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // The credits of each channel, 1..MaxCredits, held from reset on.
  input  logic [LimitWidth-1:0]         limit_i,
  // Per channel: a send takes a credit this cycle.
  input  logic [Channels-1:0]           take_i,
  // Per channel c: the credits the receiver returns this cycle
  // (give_i[c * GiveWidth +: GiveWidth]).
  input  logic [Channels*GiveWidth-1:0] give_i,
  // Per channel: a credit is left, fewer than limit_i in use.
  output logic [Channels-1:0]           avail_o,
  // Per channel c: the credits in use (used_o[c * CntWidth +: CntWidth]), for a selection
  // by load (tsr_mesh_route).
  output logic [Channels*CntWidth-1:0]  used_o
);

  if (Channels < 1 || MaxCredits < 1 || GiveWidth < 1 || LimitWidth < CntWidth)
  begin : gen_param_check
    $fatal(1, "tsr_credit_counter: Channels, MaxCredits, GiveWidth >= 1 and LimitWidth >= the count's");
  end

  /*verilator tracing_on*/
  logic [Channels*CntWidth-1:0] used_d, used_q;
  /*verilator tracing_off*/

  assign used_o = used_q;

  always_comb begin
    for (int unsigned c = 0; c < Channels; c++) begin
      avail_o[c] = 32'(used_q[c*CntWidth+:CntWidth]) < 32'(limit_i);
      used_d[c*CntWidth+:CntWidth] = used_q[c*CntWidth+:CntWidth] + CntWidth'(take_i[c]) -
                                     CntWidth'(give_i[c*GiveWidth+:GiveWidth]);
    end
  end

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
  // Apart from that, the receiver's side: more credits returned in a cycle than the channel
  // has in use (a credit for a flit never sent).
  /* verilator coverage_off */  // checks only: no toggle points
  logic [Channels-1:0] over, unowed;
  /* verilator coverage_on */
  always_comb begin
    for (int unsigned c = 0; c < Channels; c++) begin
      over[c]   = 32'(used_q[c*CntWidth+:CntWidth]) > 32'(limit_i);
      unowed[c] = 32'(give_i[c*GiveWidth+:GiveWidth]) > 32'(used_q[c*CntWidth+:CntWidth]);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      CreditsBounded_A: assert (over == '0)
        else $error("%m: more credits in use than the %0d of a channel, channels %b", limit_i,
                    over);
      CreditReturned_A: assert (unowed == '0)
        else $error("%m: more credits returned than in use, channels %b", unowed);
    end
  end

`ifndef FORMAL
  // User cover points (docs/rtl.md "Coverage"), per channel: every credit in use (the
  // sender held back), and the last one back (all credits home again).
  for (genvar c = 0; c < Channels; c++) begin : gen_cover_channel
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        NoCredit_C: cover (!avail_o[c] && limit_i != '0);
        AllBack_C: cover (used_q[c*CntWidth+:CntWidth] == CntWidth'(1) && !take_i[c] &&
                          give_i[c*GiveWidth+:GiveWidth] == GiveWidth'(1));
      end
    end
  end
`endif
`endif

endmodule
/*verilator tracing_on*/
