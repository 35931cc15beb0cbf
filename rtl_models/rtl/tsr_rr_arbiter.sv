// Round-robin arbiter over N requesters with a registered pointer. The winner is the
// lowest-numbered request at or above the pointer, or, when there is none, the lowest
// request overall (the scan wraps). When the caller takes the grant (take_i), the pointer
// moves just past the winner, so the winner has the lowest priority next time; an
// untaken grant leaves the pointer where it is. The pointer starts at ResetPtr.
//
// The mesh router uses one per output for its headers (over the input VCs) and one per
// output for its flits (over the output's VCs): docs/wormhole.md, "Arbitration" and
// "Virtual channels". The torus node uses one per output over its inputs.
module tsr_rr_arbiter #(
  /// Requesters, at least 1.
  parameter int unsigned N = 4,
  /// The pointer after reset, 0..N-1: the requester first in line.
  parameter int unsigned ResetPtr = 0,
  /// Width of idx_o; derived from N, do not override.
  localparam int unsigned IdxWidth = tsr_pkg::idx_width(N)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [N-1:0]        req_i,
  // The grant of this cycle is used: move the pointer past it.
  input  logic                take_i,
  output logic                valid_o,
  output logic [IdxWidth-1:0] idx_o
);

  if (N < 1) begin : gen_n_check
    $fatal(1, "tsr_rr_arbiter: N must be at least 1");
  end
  if (ResetPtr >= N) begin : gen_reset_check
    $fatal(1, "tsr_rr_arbiter: ResetPtr must be below N");
  end

  localparam logic [IdxWidth-1:0] LastIdx = IdxWidth'(N - 1);

  logic [IdxWidth-1:0] ptr_d, ptr_q;
  logic [N-1:0]        upper, pick, first;

  always_comb begin
    // Requests at or above the pointer come first; the lowest set bit of the chosen set
    // wins (x & -x keeps it).
    upper   = req_i & ({N{1'b1}} << ptr_q);
    pick    = (upper != '0) ? upper : req_i;
    first   = pick & (~pick + 1'b1);
    valid_o = req_i != '0;
    idx_o   = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (first[i]) idx_o = IdxWidth'(i);
    end
  end

  // Apart from the grant, so that a take_i computed from valid_o is no loop.
  always_comb begin
    ptr_d = ptr_q;
    if (valid_o && take_i) ptr_d = (idx_o == LastIdx) ? '0 : idx_o + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= IdxWidth'(ResetPtr);
    end else begin
      ptr_q <= ptr_d;
    end
  end

`ifndef SYNTHESIS
  // The pointer wraps at N; only a non-power-of-two N leaves it values to stray into. An
  // immediate assertion at the clock edge: no per-evaluation sampling in a Verilated
  // model.
  if ((N & (N - 1)) != 0) begin : gen_ptr_check
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        PtrInRange_A: assert (ptr_q <= LastIdx)
          else $error("tsr_rr_arbiter: pointer %0d outside 0..%0d", ptr_q, N - 1);
      end
    end
  end

`ifndef FORMAL
  // User cover points (docs/rtl.md "Coverage"): each requester granted, and the grant
  // rotated past a lower requester (the pointer, not the index, chose).
  for (genvar i = 0; i < N; i++) begin : gen_cover_req
    always_ff @(posedge clk_i) begin
      if (rst_ni) Granted_C: cover (valid_o && take_i && idx_o == IdxWidth'(i));
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) Rotated_C: cover (valid_o && take_i && (req_i & ~({N{1'b1}} << idx_o)) != '0);
  end
`endif
`endif

endmodule
