// Formal harness of tsr_rr_arbiter (scripts/formal.sh, docs/rtl.md "Formal properties"):
// requests free, reset in the first cycle; with TakeAll (the torus node's use) every
// grant is taken, else take_i is free too.
//
// formal: rtl tsr_rr_arbiter
// formal: property tsr_rr_arbiter.one_hot_grant k=2 N=4 ResetPtr=0
//   asserts=GrantOnRequest_A,GrantIndexInRange_A,GrantWhenRequest_A
//   -- the grant, one index below N, goes to a requester, and there is one whenever any requests
// formal: property tsr_rr_arbiter.one_hot_grant_n5 k=2 N=5 ResetPtr=1
//   asserts=GrantOnRequest_A,GrantIndexInRange_A,GrantWhenRequest_A,PtrInRange_A
//   -- as one_hot_grant with five requesters (the torus node's outputs); the pointer stays below N
// formal: property tsr_rr_arbiter.bounded_wait k=6 N=4 ResetPtr=0
//   asserts=BoundedWait_A
//   -- with every grant taken, a requester waits at most N - 1 cycles for its grant
// formal: property tsr_rr_arbiter.bounded_wait_n5 k=7 N=5 ResetPtr=1
//   asserts=BoundedWait_A,PtrInRange_A
//   -- as bounded_wait with five requesters
// formal: cover tsr_rr_arbiter.reach t=8 N=4 ResetPtr=0
//   -- every requester is granted, and a requester waits the whole N - 1 cycles
// formal: negative tsr_rr_arbiter.untaken_grants_starve k=6 N=4 ResetPtr=0 TakeAll=0
//   asserts=BoundedWait_A
//   -- grants not taken leave the pointer, so a requester can wait for ever: must fail
module tsr_rr_arbiter_formal #(
  parameter int unsigned N = 4,
  parameter int unsigned ResetPtr = 0,
  parameter bit TakeAll = 1'b1
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic [N-1:0] req_i,
  input logic         take_i
);

  localparam int unsigned IdxWidth = tsr_pkg::idx_width(N);
  localparam int unsigned WaitWidth = tsr_pkg::cnt_width(N);

  logic                valid_o, take;
  logic [IdxWidth-1:0] idx_o;

  assign take = TakeAll ? valid_o : take_i;

  tsr_rr_arbiter #(.N(N), .ResetPtr(ResetPtr)) dut (
    .clk_i, .rst_ni, .req_i, .take_i (take), .valid_o, .idx_o
  );

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // One requester, any the solver picks, and the cycles it has asked in vain so far.
  logic [IdxWidth-1:0]  f_j;
  logic [WaitWidth-1:0] f_wait_q;
  logic                 f_granted;
  assign f_j = $anyconst;
  always_comb assume (32'(f_j) < N);
  assign f_granted = valid_o && idx_o == f_j;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_wait_q <= '0;
    else if (req_i[f_j] && !f_granted && 32'(f_wait_q) < N) f_wait_q <= f_wait_q + 1'b1;
    else if (!req_i[f_j] || f_granted) f_wait_q <= '0;
  end

  always_comb begin
    if (rst_ni) begin
      GrantOnRequest_A: assert (!valid_o || req_i[idx_o]);
      GrantIndexInRange_A: assert (32'(idx_o) < N);
      GrantWhenRequest_A: assert (valid_o == (req_i != '0));
      BoundedWait_A: assert (32'(f_wait_q) < N);
    end
  end

  // The requesters granted so far (a label in a generate loop would clash in Yosys 0.23).
  logic [N-1:0] f_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_seen_q <= '0;
    else if (valid_o) f_seen_q <= f_seen_q | (N'(1) << idx_o);
  end
  always_comb begin
    if (rst_ni) begin
      EveryoneGranted_C: cover (f_seen_q == '1);
      LongestWait_C: cover (32'(f_wait_q) == N - 1 && f_granted);
    end
  end

endmodule
