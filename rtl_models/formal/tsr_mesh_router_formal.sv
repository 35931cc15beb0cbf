// Formal harness of tsr_mesh_router (scripts/formal.sh, docs/rtl.md "Formal properties"):
// one router of a mesh with every input free: flits on the four links and from the NI,
// credits back on the links, the tile's readiness to eject, and the router delay (0 or 1)
// held from reset. The environment's guarantees are the router's own input checks
// (`assumes=`): a flit only on a VC in use and only into a FIFO with room (its sender
// kept to its credits), a credit back only for a flit sent, and each input VC's stream
// made of whole packets (`PushProtocol_A`, in the router's `ifdef FORMAL block, which also
// holds the properties about its state). A reduced size (docs/rtl.md says which): the
// centre router of a 3 x 3 mesh with XY routing (the routing functions are proven on
// tsr_mesh_route), one-flit FIFOs, one data bit, no pipeline or credit delay line. The
// properties run with one VC in the test suite; with two VCs they take minutes (heavy).
// The SMT solvers did not finish the induction step of this model in 10 minutes, so they
// run on Yosys's own SAT-based induction (engine=sat).
//
// formal: rtl tsr_mesh_router tsr_mesh_ctl tsr_mesh_delay tsr_fifo tsr_mesh_route tsr_rr_arbiter tsr_credit_counter
// formal: property tsr_mesh_router.worms k=3 VCs=1 engine=sat
//   asserts=WormKeepsOutput_A,HeadFirst_A,BoundHoldsOne_A,BoundHeld_A,WormState_A,OutputWorm_A,PtrInRange_A
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- every output VC carries whole worms: a head only onto a free VC, the body flits
//   and the tail only from the input VC that holds it, which keeps it until the tail
//   crosses; a body flit never waits at an input VC without its head gone ahead
// formal: property tsr_mesh_router.no_duplicate k=3 VCs=1 engine=sat
//   asserts=OnePop_A,PopFilled_A,EjectReady_A,HeadFirst_A,BoundHoldsOne_A,BoundHeld_A,WormState_A,OutputWorm_A,PtrInRange_A
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- no input VC feeds two outputs in one cycle and none sends from an empty FIFO, so
//   each flit leaves once; the ejection sends only when the tile is ready
// formal: property tsr_mesh_router.credits k=3 VCs=2 engine=sat
//   asserts=CreditsBounded_A
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- the credits in use on each output link VC stay within depth_i, and with credits
//   back only for flits sent, never below zero
// formal: property tsr_mesh_router.worms_vc2 k=3 VCs=2 engine=sat heavy
//   asserts=WormKeepsOutput_A,HeadFirst_A,BoundHoldsOne_A,BoundHeld_A,WormState_A,OutputWorm_A,PtrInRange_A
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- tsr_mesh_router.worms with two VCs per port
// formal: property tsr_mesh_router.no_duplicate_vc2 k=3 VCs=2 engine=sat heavy
//   asserts=OnePop_A,PopFilled_A,EjectReady_A,HeadFirst_A,BoundHoldsOne_A,BoundHeld_A,WormState_A,OutputWorm_A,PtrInRange_A
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- tsr_mesh_router.no_duplicate with two VCs per port
// formal: cover tsr_mesh_router.reach t=5 VCs=1 solver=cvc4
//   assumes=VcInUse_A,NoOverflow_A,PushProtocol_A,CreditReturned_A
//   -- every output sends in one cycle, a credit goes back as a flit ejects, a worm's
//   body flit leaves on a link
module tsr_mesh_router_formal #(
  parameter int unsigned VCs = 2,
  localparam int unsigned DataWidth = 1,
  localparam int unsigned FlitBits = tsr_pkg::MeshCtlBits + DataWidth
) (
  input logic                                     clk_i,
  input logic                                     rst_ni,
  input logic [tsr_pkg::MeshLinks-1:0]            link_valid_i,
  input logic [tsr_pkg::MeshLinks*FlitBits-1:0]   link_flit_i,
  input logic                                     inject_valid_i,
  input logic [FlitBits-1:0]                      inject_flit_i,
  input logic [tsr_pkg::MeshLinks*VCs-1:0]        credit_i,
  input logic                                     eject_ready_i
);

  localparam int unsigned InVcs = tsr_pkg::MeshPorts * VCs;

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // The run-time settings: the centre of a 3 x 3 mesh, any routing of a mesh, a router
  // delay of 0 or 1 (the ring of arrivals has two slots), held.
  tsr_pkg::mesh_coord_t  here;
  tsr_pkg::mesh_delay_t  router_delay;
  tsr_pkg::mesh_routing_t routing;
  assign here = {6'd1, 6'd1};  // row 1, column 1
  assign router_delay = $anyconst;
  assign routing = tsr_pkg::MeshRouteXy;
  always_comb assume (router_delay <= 1);

  logic [InVcs-1:0]                          credit;
  logic [tsr_pkg::MeshPorts-1:0]             out_valid;
  logic [tsr_pkg::MeshPorts*FlitBits-1:0]    out_flit;

  tsr_mesh_router #(
    .Rows(3), .Cols(3), .VCs(VCs), .BufferDepth(1), .MaxPipeline(1), .MaxCreditDelay(1),
    .DelaySlots(2), .Wrap(0), .DataWidth(DataWidth), .Observe(0)
  ) dut (
    .clk_i,
    .rst_ni,
    .here_i         (here),
    .router_delay_i (router_delay),
    .pipeline_i     (5'd1),
    .credit_delay_i (5'd1),
    .vcs_i          (3'(VCs)),
    .routing_i      (routing),
    .wrap_i         (1'b0),
    .rows_i         (7'd3),
    .cols_i         (7'd3),
    .depth_i        (16'd1),
    .link_valid_i,
    .link_flit_i,
    .inject_valid_i,
    .inject_flit_i,
    .credit_o       (credit),
    .out_valid_o    (out_valid),
    .out_flit_o     (out_flit),
    .credit_i,
    .eject_ready_i,
    .stall_o        (),
    .cause_o        (),
    .probe_vc_i     ('0),
    .probe_ctl_o    ()
  );

  // Against vacuity: every output sends in one cycle; a credit goes back as a flit ejects;
  // the body flit of a worm leaves on the east link.
  tsr_pkg::mesh_ctl_t east_ctl;
  assign east_ctl = out_flit[DataWidth+:tsr_pkg::MeshCtlBits];
  always_comb begin
    if (rst_ni) begin
      AllOut_C: cover (out_valid == '1);
      CreditOut_C: cover (credit != '0 && out_valid[tsr_pkg::MeshLocal]);
      BodyOut_C: cover (out_valid[0] && !east_ctl.head);
    end
  end

endmodule
