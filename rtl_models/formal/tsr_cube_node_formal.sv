// Formal harness of tsr_cube_node (scripts/formal.sh, docs/rtl.md "Formal properties"): one
// node of a 2-cube with every input free (its neighbours' and its interface's setup and
// stream channels, its id, tau and arbitration held from reset), constrained only by what
// the node's own input checks say its environment guarantees (`assumes=`): elements only
// on a joined input, a last flag only with an element, a header only onto a free input,
// e-cube order, destinations in the cube, one local header and one local element at a
// time, tau at least 1. The circuit properties sit in tsr_cube_node's own `ifdef FORMAL
// block, which reads its reservations.
//
// formal: rtl tsr_cube_node
// formal: property tsr_cube_node.circuits k=2 Dims=2
//   asserts=CircuitHoldsOutput_A,OneCircuitPerOutput_A,NoSharedLink_A,WaitingNotJoined_A,GrantOnlyFree_A
//   assumes=TauPositive_A,StreamOnCircuit_A,LastWithElement_A,HeaderOnFreeInput_A,EcubeOrder_A,DstInCube_A,OneLocalHeader_A,OneLocalStream_A
//   -- each joined input holds its output and each reserved output one joined input: no
//   two circuits share a link; an output is granted only when free
// formal: property tsr_cube_node.held_until_tail k=2 Dims=2
//   asserts=HeldUntilTail_A,FreeAfterTail_A,CircuitHoldsOutput_A,OneCircuitPerOutput_A,WaitingNotJoined_A
//   assumes=TauPositive_A,StreamOnCircuit_A,LastWithElement_A,HeaderOnFreeInput_A,EcubeOrder_A,DstInCube_A,OneLocalHeader_A,OneLocalStream_A
//   -- a circuit keeps its output, owner and header until its tail crosses, and the
//   output is free the cycle after
// formal: cover tsr_cube_node.reach t=4 Dims=2
//   assumes=TauPositive_A,StreamOnCircuit_A,LastWithElement_A,HeaderOnFreeInput_A,EcubeOrder_A,DstInCube_A,OneLocalHeader_A,OneLocalStream_A
//   -- the ejection port and a link output released by a tail and granted again the
//   cycle after
// formal: negative tsr_cube_node.header_onto_circuit k=4 Dims=2
//   asserts=OneCircuitPerOutput_A
//   assumes=TauPositive_A,StreamOnCircuit_A,LastWithElement_A,EcubeOrder_A,DstInCube_A,OneLocalHeader_A,OneLocalStream_A
//   -- without the guarantee that a header comes only onto a free input, a second header
//   on a joined input takes another output and strands the first: must fail
module tsr_cube_node_formal #(
  parameter int unsigned Dims = 2
) (
  input logic                                             clk_i,
  input logic                                             rst_ni,
  input logic [Dims*tsr_pkg::CubeSetupBits-1:0]           setup_i,
  input logic [Dims*tsr_pkg::CubeStreamBits-1:0]          stream_i,
  input logic [Dims-1:0]                                  data_i,
  input logic [tsr_pkg::CubeSlots*tsr_pkg::CubeSetupBits-1:0]  inj_setup_i,
  input logic [tsr_pkg::CubeSlots*tsr_pkg::CubeStreamBits-1:0] inj_stream_i,
  input logic [tsr_pkg::CubeSlots-1:0]                    inj_data_i
);

  localparam int unsigned Ins  = Dims + tsr_pkg::CubeSlots;
  localparam int unsigned Outs = Dims + 1;

  // Held from reset: whichever the solver picks.
  (* anyconst *) logic [Dims-1:0] f_id;
  (* anyconst *) logic [7:0]      f_tau;
  (* anyconst *) logic            f_arb;

  logic [Dims*tsr_pkg::CubeSetupBits-1:0]  setup_o;
  logic [Dims*tsr_pkg::CubeStreamBits-1:0] stream_o;
  logic [Dims-1:0]                         data_o;
  tsr_pkg::cube_setup_t                    ej_setup_o;
  tsr_pkg::cube_stream_t                   ej_stream_o;
  logic                                    ej_data_o;
  logic [Ins*Outs-1:0]                     thru_o;
  logic [Outs-1:0]                         grant_o, busy_o, tail_o;
  logic [Outs*tsr_pkg::CubeHdrBits-1:0]    hold_hdr_o;
  logic [Ins-1:0]                          wait_o;
  logic [Ins*tsr_pkg::idx_width(Outs)-1:0] want_o;
  logic [Ins*tsr_pkg::CubeHdrBits-1:0]     want_hdr_o;

  tsr_cube_node #(.Dims(Dims), .DataWidth(1)) dut (
    .clk_i, .rst_ni, .id_i(f_id), .tau_i(f_tau), .arb_i(f_arb),
    .setup_i, .stream_i, .data_i, .setup_o, .stream_o, .data_o,
    .inj_setup_i, .inj_stream_i, .inj_data_i,
    .ej_setup_o, .ej_stream_o, .ej_data_o, .thru_o, .grant_o, .busy_o, .tail_o, .hold_hdr_o,
    .wait_o, .want_o, .want_hdr_o
  );

  // Reset in the first cycle only.
  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

endmodule
