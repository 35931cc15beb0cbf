// Synchronous valid/ready FIFO with a registered output (no fall-through): a word pushed
// at one clock edge can leave at the next. ready_o is a function of state only, so no
// combinational path runs from ready_i to ready_o and FIFOs can be chained without long
// timing paths. The price is that Depth == 1 sustains only one word every two cycles.
module tsr_fifo #(
  /// Bits in one data word.
  parameter int unsigned Width = 32,
  /// Number of entries; at least 1. Depth >= 2 sustains one word per cycle.
  parameter int unsigned Depth = 4,
  /// Width of usage_o; derived from Depth, do not override.
  localparam int unsigned UsageWidth = tsr_pkg::cnt_width(Depth)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Upstream side.
  input  logic                  valid_i,
  output logic                  ready_o,
  input  logic [Width-1:0]      data_i,
  // Downstream side.
  output logic                  valid_o,
  input  logic                  ready_i,
  output logic [Width-1:0]      data_o,
  // Words currently stored.
  output logic [UsageWidth-1:0] usage_o
);

  if (Depth == 0) begin : gen_depth_check
    $fatal(1, "tsr_fifo: Depth must be at least 1");
  end

  localparam int unsigned PtrWidth = tsr_pkg::idx_width(Depth);
  localparam logic [PtrWidth-1:0] LastPtr = PtrWidth'(Depth - 1);
  localparam logic [UsageWidth-1:0] FullUsage = UsageWidth'(Depth);

  logic [Width-1:0]      mem_q [Depth];
  logic [PtrWidth-1:0]   wr_ptr_d, wr_ptr_q;
  logic [PtrWidth-1:0]   rd_ptr_d, rd_ptr_q;
  logic [UsageWidth-1:0] usage_d, usage_q;
  logic                  push, pop;

  assign ready_o = (usage_q != FullUsage);
  assign valid_o = (usage_q != '0);
  assign push    = valid_i & ready_o;
  assign pop     = valid_o & ready_i;
  assign data_o  = mem_q[rd_ptr_q];
  assign usage_o = usage_q;

  // Pointers wrap explicitly so that Depth need not be a power of two.
  always_comb begin
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    usage_d  = usage_q;
    if (push) begin
      wr_ptr_d = (wr_ptr_q == LastPtr) ? '0 : wr_ptr_q + 1'b1;
    end
    if (pop) begin
      rd_ptr_d = (rd_ptr_q == LastPtr) ? '0 : rd_ptr_q + 1'b1;
    end
    if (push && !pop) begin
      usage_d = usage_q + 1'b1;
    end else if (pop && !push) begin
      usage_d = usage_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      usage_q  <= '0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      usage_q  <= usage_d;
    end
  end

  // Storage has no reset: an entry is only read while usage_q says it holds a word.
  always_ff @(posedge clk_i) begin
    if (push) begin
      mem_q[wr_ptr_q] <= data_i;
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge, with the previous cycle's output kept by
  // hand: a concurrent assertion makes a Verilated model copy its signals at every
  // evaluation, which costs a mesh of a thousand FIFOs more than the FIFOs themselves.
  logic             offered_q;  // last cycle a word was offered and not taken
  logic [Width-1:0] offered_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      offered_q <= 1'b0;
    end else begin
      // ready_o already excludes a push into a full FIFO; the assertion keeps that true if
      // someone later adds a write-through path.
      NoPushWhenFull_A: assert (!(push && usage_q == FullUsage))
        else $error("tsr_fifo: push while full");
      // Once offered, an output word must stay offered and unchanged until it is taken.
      ValidHeldUntilReady_A: assert (!offered_q || (valid_o && data_o == offered_data_q))
        else $error("tsr_fifo: output word withdrawn or changed before ready");
      offered_q <= valid_o && !ready_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (valid_o && !ready_i) offered_data_q <= data_o;
  end

`ifndef FORMAL
  // User cover points (docs/rtl.md "Coverage"), counted where the model is built with
  // --coverage-user: every slot in use, and a front word held back by its reader.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      Full_C: cover (usage_q == FullUsage);
      HeldBack_C: cover (valid_o && !ready_i);
    end
  end
`endif
`endif

`ifdef FORMAL
  // A pointer n entries after ptr, 0 <= n <= Depth, wrapped (no division: the solver
  // would bit-blast a 32-bit one).
  function automatic logic [PtrWidth-1:0] f_wrap(logic [PtrWidth-1:0] ptr,
                                                 logic [UsageWidth-1:0] n);
    logic [UsageWidth:0] sum;
    sum = (UsageWidth + 1)'(ptr) + (UsageWidth + 1)'(n);
    f_wrap = PtrWidth'(32'(sum) >= Depth ? 32'(sum) - Depth : 32'(sum));
  endfunction

  // For the proofs by induction (rtl_models/formal/tsr_fifo_formal.sv, docs/rtl.md "Formal
  // properties"); only Yosys -formal reads this. Invariants of every reachable state,
  // which an induction step cannot derive from the ports: the usage and the pointers
  // agree, and a word offered and not taken is the front.
  always_comb begin
    if (rst_ni) begin
      UsageInRange_A: assert (usage_q <= FullUsage && rd_ptr_q <= LastPtr);
      PtrsAgree_A: assert (wr_ptr_q == f_wrap(rd_ptr_q, usage_q));
      OfferedIsFront_A: assert (!offered_q || offered_data_q == mem_q[rd_ptr_q]);
    end
  end

  // One tracked word, whichever pushed word the solver picks (f_pick): it must leave
  // unchanged after exactly the f_ahead_q words pushed before it and still stored, so
  // every word leaves once, intact and in order.
  logic                  f_pick, f_track_q;
  logic [UsageWidth-1:0] f_ahead_q;
  logic [Width-1:0]      f_data_q;
  logic [PtrWidth-1:0]   f_slot;
  assign f_pick = $anyseq;
  assign f_slot = f_wrap(rd_ptr_q, f_ahead_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_track_q <= 1'b0;
    end else if (!f_track_q) begin
      if (push && f_pick) begin
        f_track_q <= 1'b1;
        f_ahead_q <= usage_q - UsageWidth'(pop);
        f_data_q  <= data_i;
      end
    end else if (pop) begin
      if (f_ahead_q == '0) f_track_q <= 1'b0;
      else f_ahead_q <= f_ahead_q - 1'b1;
    end
  end

  always_comb begin
    if (rst_ni && f_track_q) begin
      TrackedStored_A: assert (f_ahead_q < usage_q && mem_q[f_slot] == f_data_q);
      TrackedInOrder_A: assert (!(pop && f_ahead_q == '0) || data_o == f_data_q);
      TrackedLeavesFull_C: cover (pop && f_ahead_q == '0 && 32'(usage_q) == Depth);
    end
  end
`endif

endmodule
