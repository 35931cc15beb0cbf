// One router of a wormhole-switched 2D mesh with a run-time routing function (routing_i:
// XY, YX, O1TURN or a turn-model adaptive routing; tsr_mesh_route) and virtual channels:
// the machine of Thakur, Choudhary and Fox ("Complete Exchange on a Wormhole Routed Mesh"),
// in the rules of docs/wormhole.md for the real VC router (the flit reference's
// link_share::round_robin), with credits returned one cycle after a slot frees.
//
// Built from parts: per input port a tsr_mesh_delay for the router delay and per VC a
// tsr_fifo with a tsr_mesh_route, which routes the VC's front flit in the cycle it asks
// (an adaptive routing weighs the outputs' loads of that cycle); per output a
// tsr_rr_arbiter for headers (over the 5 x VCs input VCs, index port * VCs + vc) and one
// for flits (over the output's VCs), and per output link a tsr_credit_counter over its
// VCs (the cell the torus node uses).
//
// Each cycle, decided on the state at its start:
// - An input VC requests with its front flit once the flit has been in the router
//   pipeline_i cycles (it entered the FIFO at c, it may cross at c + pipeline_i). If the
//   VC holds an output VC (its packet's head went), the front is the packet's next flit
//   and requests that output VC. If not, the front is a head; it requests its routed
//   output router_delay_i cycles later still (the delays overlap a wait in the FIFO), and
//   only while that
//   output has a free VC with a slot behind it in the head's class (O1TURN: on a link,
//   the lower vcs_i / 2 VCs for XY packets, the rest for YX ones; a torus: the lower
//   vcs_i / 2 for dateline class 0, the rest for class 1; otherwise any VC).
// - An output VC has a slot behind it while the credits it has used are fewer than
//   depth_i (the ejection: while the tile is ready). It is free when no packet holds it.
// - An output carries at most one flit. Its header arbiter picks a requesting head, which
//   would take the lowest free VC with a slot behind it in its class. The output then
//   serves, round robin from its flit pointer, one of its VCs that is either held by a
//   packet whose next flit waits with a slot behind or the header winner's VC. The flit
//   pointer moves just past the VC served; the header pointer moves just past the winner
//   when its head crosses. A head holds its output VC until its tail crosses; the VC is
//   free the next cycle.
// - A flit that crosses in cycle c is in the next FIFO from c + 1; the slot it left
//   returns as a credit that the sender can use from c + credit_delay_i (credit_o rises
//   in c + credit_delay_i - 1; 1: at once, as the credits counted in the same cycle).
// Each input VC FIFO sends at most one flit per cycle, so one input port can feed several
// outputs at once.
//
// Flits are vectors of MeshCtlBits + DataWidth bits, {ctl, data} (tsr_pkg). A port that
// carries one value per input port, output port or VC is one flat vector (the subset
// Yosys 0.23 reads, docs/rtl.md "Style"): per port p at [p * W +: W], per port and VC at
// [(p * VCs + v) * W +: W], the order of the input VC index port * VCs + vc.
module tsr_mesh_router #(
  /// Mesh rows, 1..MeshMaxSide.
  parameter int unsigned Rows = 8,
  /// Mesh columns, 1..MeshMaxSide.
  parameter int unsigned Cols = 8,
  /// Virtual channels per physical channel, 1..MeshMaxVcs; vcs_i may use fewer.
  parameter int unsigned VCs = 2,
  /// Flit slots of each input VC FIFO, 1..1024; depth_i may use fewer.
  parameter int unsigned BufferDepth = 4,
  /// The deepest pipeline_i the router is built for, 1..16; 1 builds no pipeline delay.
  parameter int unsigned MaxPipeline = 16,
  /// The longest credit_delay_i the router is built for, 1..16; 1 builds no delay line.
  parameter int unsigned MaxCreditDelay = 16,
  /// Slots of each input port's ring of arrivals for the head delay (tsr_mesh_delay), a
  /// power of two from 2 to 256: router_delay_i + pipeline_i - 1 must be below it.
  parameter int unsigned DelaySlots = 256,
  /// 1: the torus logic is built (wrap_i, tsr_mesh_route); 0 leaves it out.
  parameter int unsigned Wrap = 1,
  /// Payload bits of a flit, at least 1.
  parameter int unsigned DataWidth = 32,
  /// 1: the observation outputs (stall_o, cause_o, probe_ctl_o) are built; 0 ties them
  /// to 0, so that a synthesis for area counts the router alone.
  parameter int unsigned Observe = 1,
  /// Bits of a flit; derived, do not override.
  localparam int unsigned FlitBits = tsr_pkg::MeshCtlBits + DataWidth,
  /// Input VCs, MeshPorts * VCs; derived, do not override.
  localparam int unsigned InVcs = tsr_pkg::MeshPorts * VCs,
  /// Width of an input VC index; derived, do not override.
  localparam int unsigned InIdxWidth = tsr_pkg::idx_width(InVcs)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This router's place in the mesh.
  input  tsr_pkg::mesh_coord_t here_i,
  // Run-time settings, held from reset on: the router delay r (0..255, with
  // pipeline_i - 1 + r at most 255), the pipeline depth (1..MaxPipeline), the credit delay
  // (1..MaxCreditDelay), the VCs in use (1..VCs) and the usable slots of each input VC
  // FIFO (1..BufferDepth).
  input  tsr_pkg::mesh_delay_t router_delay_i,
  input  logic [4:0]           pipeline_i,
  input  logic [4:0]           credit_delay_i,
  input  logic [2:0]           vcs_i,
  // The routing function (tsr_pkg MeshRoute*, tsr_mesh_route), held from reset on.
  input  tsr_pkg::mesh_routing_t routing_i,
  // A torus of rows_i x cols_i (tsr_mesh_route), held from reset on; a mesh when wrap_i is
  // 0.
  input  logic                 wrap_i,
  input  logic [6:0]           rows_i,
  input  logic [6:0]           cols_i,
  input  logic [15:0]          depth_i,
  // Inputs: a flit per port per cycle, into the FIFO of its ctl.vc, sent with a credit;
  // links E, W, S, N (link l's flit at [l * FlitBits +: FlitBits]), and the local port
  // from the NI apart from them, so that the NI's combinational message path reaches no
  // other port's logic (a Verilated model evaluates a signal again whenever the
  // testbench sets an input it depends on).
  input  logic [tsr_pkg::MeshLinks-1:0]          link_valid_i,
  input  logic [tsr_pkg::MeshLinks*FlitBits-1:0] link_flit_i,
  input  logic                                    inject_valid_i,
  input  logic [FlitBits-1:0]                     inject_flit_i,
  // Per input port and VC (bit port * VCs + vc): a slot freed this cycle, one credit back
  // to the sender.
  output logic [InVcs-1:0]                        credit_o,
  // Outputs: a flit per port per cycle (port o's at [o * FlitBits +: FlitBits]); its
  // ctl.vc is the VC it holds on the channel.
  output logic [tsr_pkg::MeshPorts-1:0]           out_valid_o,
  output logic [tsr_pkg::MeshPorts*FlitBits-1:0]  out_flit_o,
  // Credits from the neighbours' input VC FIFOs, per output link and VC (bit
  // link * VCs + vc).
  input  logic [tsr_pkg::MeshLinks*VCs-1:0]       credit_i,
  // The tile takes an ejected flit this cycle (valid/ready, no credits).
  input  logic                 eject_ready_i,
  // Observability per input VC: it holds a flit that did not move this cycle; and the
  // control fields of the front flit of input VC probe_vc_i (which the top registers, so
  // that this depends on state only). A testbench's deadlock report names what waits.
  output logic [InVcs-1:0]     stall_o,
  // Per input VC, 2 bits (index 2 * (port * VCs + vc)): why a front flit that had waited
  // out the pipeline (a head: and the router delay) did not leave this cycle, on the
  // state at its start (tsr_pkg MeshStall*): none (it left, or none such), no credit
  // behind its output VC (a head: behind every free VC of its class), lost arbitration,
  // or (a head) no free VC of its class. The statistics of docs/wormhole.md count them.
  output logic [2*InVcs-1:0]   cause_o,
  input  logic [InIdxWidth-1:0] probe_vc_i,
  output tsr_pkg::mesh_ctl_t   probe_ctl_o
);

  if (Rows < 1 || Rows > tsr_pkg::MeshMaxSide || Cols < 1 || Cols > tsr_pkg::MeshMaxSide)
  begin : gen_shape_check
    $fatal(1, "tsr_mesh_router: Rows and Cols must be 1..64");
  end
  if (VCs < 1 || VCs > tsr_pkg::MeshMaxVcs) begin : gen_vcs_check
    $fatal(1, "tsr_mesh_router: VCs must be 1..4");
  end
  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_router: BufferDepth must be 1..1024");
  end
  if (MaxPipeline < 1 || MaxPipeline > 16 || MaxCreditDelay < 1 || MaxCreditDelay > 16)
  begin : gen_pipeline_check
    $fatal(1, "tsr_mesh_router: MaxPipeline and MaxCreditDelay must be 1..16");
  end
  if (DelaySlots < 2 || DelaySlots > 256 || (DelaySlots & (DelaySlots - 1)) != 0)
  begin : gen_slots_check
    $fatal(1, "tsr_mesh_router: DelaySlots must be a power of two from 2 to 256");
  end
  if (DataWidth < 1) begin : gen_width_check
    $fatal(1, "tsr_mesh_router: DataWidth must be at least 1");
  end

  localparam int unsigned Ports = tsr_pkg::MeshPorts;
  localparam int unsigned Links = tsr_pkg::MeshLinks;
  localparam int unsigned Local = tsr_pkg::MeshLocal;
  localparam int unsigned CtlBits = tsr_pkg::MeshCtlBits;
  localparam int unsigned VcIdxWidth = tsr_pkg::idx_width(VCs);
  localparam int unsigned CntWidth = tsr_pkg::cnt_width(BufferDepth);

  // ---- State ------------------------------------------------------------------------
  // Flat vectors: per output VC at [o * VCs + v] (holder_q: [(o * VCs + v) * InIdxWidth
  // +: InIdxWidth]), per input VC at [i] (own_port_q: [3 i +: 3], own_vc_q:
  // [i * VcIdxWidth +: VcIdxWidth]).
  logic [InVcs-1:0]            bound_d, bound_q;        // input VC holds an output VC
  logic [Ports*VCs-1:0]        held_d, held_q;          // output VC taken
  logic [InVcs*InIdxWidth-1:0] holder_d, holder_q;      // ... by this input VC
  logic [3*InVcs-1:0]          own_port_d, own_port_q;  // a bound input VC's output
  logic [InVcs*VcIdxWidth-1:0] own_vc_d, own_vc_q;      // ... and VC there

  // ---- The torus: the columns and rows next to this router each way round ---------
  logic [5:0] east_col, west_col, south_row, north_row;

  always_comb begin
    east_col  = 7'(here_i.col) + 7'd1 == cols_i ? 6'd0 : here_i.col + 6'd1;
    west_col  = here_i.col == 6'd0 ? 6'(cols_i - 7'd1) : here_i.col - 6'd1;
    south_row = 7'(here_i.row) + 7'd1 == rows_i ? 6'd0 : here_i.row + 6'd1;
    north_row = here_i.row == 6'd0 ? 6'(rows_i - 7'd1) : here_i.row - 6'd1;
  end

  // ---- Input ports: router delay, a FIFO per VC -------------------------------------
  logic [FlitBits-1:0]     front   [InVcs];  // per input VC: its front flit
  logic [2:0]              route   [InVcs];  // ... the output it asks for, if a head
  logic [InVcs-1:0]        upper;            // ... and its dateline class there (a torus)
  logic [InVcs-1:0]        heads;            // ... is a head
  logic [InVcs-1:0]        odds;             // ... of an odd-numbered packet (O1TURN)
  logic [11:0]             front_dst [InVcs];  // ... its destination and source
  logic [11:0]             front_src [InVcs];
  logic [16*Links-1:0]     load;      // per output link: credits in use, VCs in use
  logic [InVcs*CntWidth-1:0] usage;   // per input VC: its FIFO's flits
  logic [InVcs-1:0]        pop, slot, filled, due, ripe;
  logic [InVcs-1:0]        credit_due;  // per input VC: the slot's credit goes back now
  tsr_pkg::mesh_delay_t    head_delay;  // a head: the pipeline's cycles and r
  logic [3:0]              body_delay;  // every flit: the pipeline's, beyond the first cycle

  assign body_delay = 4'(pipeline_i - 5'd1);
  assign head_delay = router_delay_i + 8'(body_delay);

`ifndef SYNTHESIS
  /* verilator coverage_off */  // checks only: no toggle points
  logic [Ports-1:0] chk_vc_unused, chk_overflow;  // per input port: a rule broken
  /* verilator coverage_on */
`endif
`ifdef FORMAL
  logic [InVcs-1:0] f_push, f_front_tail;  // per input VC: a flit pushed; the front a tail
  logic [Ports-1:0] f_push_head, f_push_tail;  // per input port: the arriving flit's kind
`endif

  for (genvar p = 0; p < Ports; p++) begin : gen_in_port
    logic                valid;  // a flit arrives, into the FIFO of VC vc
    logic [FlitBits-1:0] flit;
    logic [1:0]          vc;
    logic [VCs-1:0]      push;

    if (p == Local) begin : gen_inject
      assign valid = inject_valid_i;
      assign flit  = inject_flit_i;
    end else begin : gen_link
      assign valid = link_valid_i[p];
      assign flit  = link_flit_i[p*FlitBits+:FlitBits];
    end

    tsr_mesh_ctl i_ctl (
      .ctl_i    (flit[DataWidth+:CtlBits]),
      .vc_i     (2'd0),
      .head_o   (),
      .tail_o   (),
      .odd_o    (),
      .vc_o     (vc),
      .dst_o    (),
      .src_o    (),
      .dst_row_o (),
      .dst_col_o (),
      .src_row_o (),
      .src_col_o (),
      .ctl_vc_o ()
    );

    tsr_mesh_delay #(.VCs(VCs), .Depth(BufferDepth), .Slots(DelaySlots)) i_delay (
      .clk_i,
      .rst_ni,
      .delay_i   (head_delay[$clog2(DelaySlots)-1:0]),
      .push_i    (valid),
      .push_vc_i (vc),
      .pop_i     (pop[p*VCs+:VCs]),
      .usage_i   (usage[p*VCs*CntWidth+:VCs*CntWidth]),
      .due_o     (due[p*VCs+:VCs])
    );

    if (MaxPipeline > 1) begin : gen_pipeline
      tsr_mesh_delay #(.VCs(VCs), .Depth(BufferDepth), .Slots(16)) i_pipeline (
        .clk_i,
        .rst_ni,
        .delay_i   (body_delay),
        .push_i    (valid),
        .push_vc_i (vc),
        .pop_i     (pop[p*VCs+:VCs]),
        .usage_i   (usage[p*VCs*CntWidth+:VCs*CntWidth]),
        .due_o     (ripe[p*VCs+:VCs])
      );
    end else begin : gen_no_pipeline
      assign ripe[p*VCs+:VCs] = '1;  // every flit may leave the cycle after it came
    end

    for (genvar v = 0; v < VCs; v++) begin : gen_in_vc
      localparam int unsigned Iv = p * VCs + v;

      assign push[v] = valid && vc == 2'(v);

      tsr_fifo #(.Width(FlitBits), .Depth(BufferDepth)) i_fifo (
        .clk_i,
        .rst_ni,
        .valid_i (push[v]),
        .ready_o (slot[Iv]),
        .data_i  (flit),
        .valid_o (filled[Iv]),
        .ready_i (pop[Iv]),
        .data_o  (front[Iv]),
        .usage_o (usage[Iv*CntWidth+:CntWidth])
      );

      tsr_mesh_ctl i_front_ctl (
        .ctl_i    (front[Iv][DataWidth+:CtlBits]),
        .vc_i     (2'd0),
        .head_o   (heads[Iv]),
        .tail_o   (),
        .odd_o    (odds[Iv]),
        .vc_o     (),
        .dst_o    (front_dst[Iv]),
        .src_o    (front_src[Iv]),
        .dst_row_o (),
        .dst_col_o (),
        .src_row_o (),
        .src_col_o (),
        .ctl_vc_o ()
      );

      // The front flit's route, worth asking only while it is a head.
      tsr_mesh_route #(.Wrap(Wrap)) i_route (
        .here_i,
        .dst_i       (front_dst[Iv]),
        .src_i       (front_src[Iv]),
        .odd_i       (odds[Iv]),
        .wrap_i,
        .rows_i,
        .cols_i,
        .east_col_i  (east_col),
        .west_col_i  (west_col),
        .south_row_i (south_row),
        .north_row_i (north_row),
        .routing_i,
        .load_i      (load),
        .port_o      (route[Iv]),
        .upper_o     (upper[Iv])
      );
    end

`ifndef SYNTHESIS
    // Per port, so that the local port's checks alone depend on the NI's inputs: a flit
    // on a VC outside vcs_i, or into a full FIFO (the sender ignored its credits). Checked
    // below, one assertion for all ports (Yosys names an assertion once, not per index).
    assign chk_vc_unused[p] = valid && 32'(vc) >= 32'(vcs_i);
    assign chk_overflow[p]  = (push & ~slot[p*VCs+:VCs]) != '0;
`endif
`ifdef FORMAL
    assign f_push[p*VCs+:VCs] = push;
`endif
  end

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge, here and below: a concurrent assertion makes a
  // Verilated model copy its signals at every evaluation.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      VcInUse_A: assert (chk_vc_unused == '0)
        else $error("tsr_mesh_router: flit on a VC outside vcs_i at inputs %b", chk_vc_unused);
      NoOverflow_A: assert (chk_overflow == '0)
        else $error("tsr_mesh_router: flit pushed into a full FIFO at inputs %b", chk_overflow);
    end
  end
`endif

  assign credit_o = credit_due;

  // ---- Requests ---------------------------------------------------------------------
  // Flat per output o and VC v at [o * VCs + v], per output and class c at
  // [(2 o + c) * VCs +: VCs], per output and input VC at [o * InVcs + i].
  logic                     wrap;        // a torus, where built (constant 0 if not)
  assign wrap = Wrap != 0 && wrap_i;
  logic [VCs-1:0]           vc_on;       // VCs in use (vcs_i)
  logic [2*VCs-1:0]         vc_class;    // per class: the link VCs it may take
  logic [InVcs-1:0]         cls;         // a head of the upper class (O1TURN's YX, dateline 1)
  logic [InVcs-1:0]         head_req;    // ... that holds no output and is due
  logic [Ports*InVcs-1:0]   hdr_req;     // per output: the heads that ask for it
  logic [Ports*VCs-1:0]     vc_slot;     // per output VC: a slot behind it
  logic [Ports*VCs-1:0]     body_ready;  // per output VC: its packet's next flit can go
  logic [2*Ports*VCs-1:0]   free_vc;     // per output and class: the lowest free VC with a slot
  logic [VCs-1:0]           lowest;      // (a temporary of the loop below)
  logic [Links*VCs-1:0]     credit;      // per output link VC: a credit left
  logic [Links*VCs*CntWidth-1:0] used;   // per output link VC: credits in use

  // The outputs' loads for route select, apart from the requests that depend on them.
  always_comb begin
    for (int unsigned l = 0; l < Links; l++) begin
      load[16*l+:16] = '0;
      for (int unsigned v = 0; v < VCs; v++) begin
        if (v < 32'(vcs_i)) begin
          load[16*l+:16] = load[16*l+:16] + 16'(used[(l*VCs+v)*CntWidth+:CntWidth]);
        end
      end
    end
  end

  always_comb begin
    for (int unsigned v = 0; v < VCs; v++) begin
      vc_on[v] = v < 32'(vcs_i);
      if (routing_i == tsr_pkg::MeshRouteO1turn || wrap) begin
        vc_class[v]       = vc_on[v] && v < 32'(vcs_i) / 2;
        vc_class[VCs + v] = vc_on[v] && v >= 32'(vcs_i) / 2;
      end else begin
        vc_class[v]       = vc_on[v];
        vc_class[VCs + v] = vc_on[v];
      end
    end
    for (int unsigned i = 0; i < InVcs; i++) begin
      cls[i] = wrap ? upper[i] : routing_i == tsr_pkg::MeshRouteO1turn && odds[i];
    end
    head_req = filled & ~bound_q & heads & due;
    for (int unsigned o = 0; o < Ports; o++) begin
      for (int unsigned v = 0; v < VCs; v++) begin
        if (o == Local) begin
          vc_slot[o*VCs+v] = eject_ready_i;
        end else begin
          vc_slot[o*VCs+v] = credit[(o%Links)*VCs+v];
        end
        body_ready[o*VCs+v] =
            held_q[o*VCs+v] &&
            filled[holder_q[(o*VCs+v)*InIdxWidth+:InIdxWidth]] &&
            ripe[holder_q[(o*VCs+v)*InIdxWidth+:InIdxWidth]] && vc_slot[o*VCs+v];
      end
      for (int unsigned c = 0; c < 2; c++) begin
        // The ejection takes any VC in use; x & -x keeps the lowest set bit.
        lowest = (o == Local ? vc_on : vc_class[c*VCs+:VCs]) & ~held_q[o*VCs+:VCs] &
                 vc_slot[o*VCs+:VCs];
        free_vc[(2*o+c)*VCs+:VCs] = lowest & (~lowest + 1'b1);
      end
      for (int unsigned i = 0; i < InVcs; i++) begin
        hdr_req[o*InVcs+i] = head_req[i] && route[i] == 3'(o) &&
                             free_vc[(2*o+32'(cls[i]))*VCs+:VCs] != '0;
      end
    end
  end

  // ---- Header and flit arbitration per output ---------------------------------------
  logic [Ports-1:0]        hdr_valid;
  logic [InIdxWidth-1:0]   hdr_idx   [Ports];
  logic [Ports-1:0]        hdr_take;  // the header arbiter's winner crosses
  logic [VCs-1:0]          hdr_vc    [Ports];  // the VC it would take (none: '0)
  logic [VCs-1:0]          vc_req    [Ports];
  logic [Ports-1:0]        send;      // a flit crosses this output
  logic [VcIdxWidth-1:0]   send_vc   [Ports];  // on this VC

  for (genvar o = 0; o < Ports; o++) begin : gen_out
    tsr_rr_arbiter #(.N(InVcs)) i_hdr_arb (
      .clk_i,
      .rst_ni,
      .req_i   (hdr_req[o*InVcs+:InVcs]),
      .take_i  (hdr_take[o]),
      .valid_o (hdr_valid[o]),
      .idx_o   (hdr_idx[o])
    );

    // The flit arbiter serves the held VCs with a flit ready and the header winner's VC
    // (free, so never one of those) alike; the winner crosses when its VC is served.
    assign hdr_vc[o]   = hdr_valid[o] ? free_vc[(2*o+32'(cls[hdr_idx[o]]))*VCs+:VCs] : '0;
    assign vc_req[o]   = body_ready[o*VCs+:VCs] | hdr_vc[o];
    assign hdr_take[o] = send[o] && hdr_vc[o][send_vc[o]];

    tsr_rr_arbiter #(.N(VCs)) i_vc_arb (
      .clk_i,
      .rst_ni,
      .req_i   (vc_req[o]),
      .take_i  (1'b1),
      .valid_o (send[o]),
      .idx_o   (send_vc[o])
    );

    // Credits of the neighbour's input VC FIFOs behind a link: depth_i slots each.
    if (o < Links) begin : gen_link
      tsr_credit_counter #(
        .Channels(VCs), .MaxCredits(BufferDepth), .LimitWidth(16)
      ) i_credits (
        .clk_i,
        .rst_ni,
        .limit_i (depth_i),
        .take_i  (VCs'(send[o]) << send_vc[o]),
        .give_i  (credit_i[o*VCs+:VCs]),
        .avail_o (credit[o*VCs+:VCs]),
        .used_o  (used[o*VCs*CntWidth+:VCs*CntWidth])
      );
    end
  end

  // ---- Crossbar ----------------------------------------------------------------------
  logic [InIdxWidth-1:0] send_in  [Ports];  // the input VC whose front crosses output o
  logic [Ports-1:0]      out_head, out_tail;  // ... is a head, a tail

  for (genvar o = 0; o < Ports; o++) begin : gen_xbar
    logic [FlitBits-1:0] flit;    // the front that crosses
    logic [CtlBits-1:0]  ctl_vc;  // ... its control word with the VC it holds here

    assign send_in[o] = hdr_take[o] ? hdr_idx[o]
                                    : holder_q[(o*VCs+32'(send_vc[o]))*InIdxWidth+:InIdxWidth];
    assign flit       = front[send_in[o]];

    tsr_mesh_ctl i_out_ctl (
      .ctl_i    (flit[DataWidth+:CtlBits]),
      .vc_i     (2'(send_vc[o])),
      .head_o   (out_head[o]),
      .tail_o   (out_tail[o]),
      .odd_o    (),
      .vc_o     (),
      .dst_o    (),
      .src_o    (),
      .dst_row_o (),
      .dst_col_o (),
      .src_row_o (),
      .src_col_o (),
      .ctl_vc_o (ctl_vc)
    );

    assign out_valid_o[o]                   = send[o];
    assign out_flit_o[o*FlitBits+:FlitBits] = {ctl_vc, flit[DataWidth-1:0]};
  end

  always_comb begin
    pop = '0;
    for (int unsigned o = 0; o < Ports; o++) begin
      pop = pop | ({InVcs{send[o]}} & (InVcs'(1) << send_in[o]));
    end
  end

  // ---- Observation: what waits, and why -----------------------------------------------
  if (Observe != 0) begin : gen_observe
    logic [VCs-1:0] mine;    // a head: the VCs of its class at its output
    logic [VCs-1:0] unheld;  // ... not held

    assign stall_o     = filled & ~pop;
    assign probe_ctl_o = front[probe_vc_i][DataWidth+:CtlBits];

    // Why a ready flit waits.
    always_comb begin
      mine   = '0;
      unheld = '0;
      for (int unsigned i = 0; i < InVcs; i++) begin
        cause_o[2*i+:2] = tsr_pkg::MeshStallNone;
        if (filled[i] && !pop[i]) begin
          if (bound_q[i]) begin
            if (ripe[i]) begin
              cause_o[2*i+:2] =
                  vc_slot[32'(own_port_q[3*i+:3])*VCs+32'(own_vc_q[i*VcIdxWidth+:VcIdxWidth])]
                      ? tsr_pkg::MeshStallArbitration : tsr_pkg::MeshStallNoCredit;
            end
          end else if (heads[i] && due[i]) begin
            mine   = route[i] == 3'(Local) ? vc_on : vc_class[32'(cls[i])*VCs+:VCs];
            unheld = mine & ~held_q[32'(route[i])*VCs+:VCs];
            cause_o[2*i+:2] = (unheld & vc_slot[32'(route[i])*VCs+:VCs]) != '0
                                  ? tsr_pkg::MeshStallArbitration
                              : unheld != '0 ? tsr_pkg::MeshStallNoCredit
                                             : tsr_pkg::MeshStallNoVc;
          end
        end
      end
    end
  end else begin : gen_no_observe
    logic unused_probe;  // (the probe's choice, unread without observation)
    assign unused_probe = ^probe_vc_i;
    assign stall_o     = '0;
    assign cause_o     = '0;
    assign probe_ctl_o = '0;
  end

  // ---- Credits back, credit_delay_i - 1 cycles after their slots free ----------------
  if (MaxCreditDelay > 1) begin : gen_credit_line
    // The slots freed k + 1 cycles ago at [k * InVcs +: InVcs], k = 0..14.
    logic [15*InVcs-1:0] credit_line_q;
    logic [3:0]          age;  // credit_delay_i - 2, the k that is due

    always_comb begin
      age        = 4'(credit_delay_i - 5'd2);
      credit_due = (credit_delay_i <= 5'd1) ? pop : credit_line_q[32'(age)*InVcs+:InVcs];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credit_line_q <= '0;
      end else begin
        credit_line_q <= {credit_line_q[14*InVcs-1:0], pop};
      end
    end
  end else begin : gen_no_credit_line
    assign credit_due = pop;
  end

  // ---- Next state --------------------------------------------------------------------
  always_comb begin
    bound_d    = bound_q;
    held_d     = held_q;
    holder_d   = holder_q;
    own_port_d = own_port_q;
    own_vc_d   = own_vc_q;
    for (int unsigned o = 0; o < Ports; o++) begin
      if (send[o]) begin
        // The head takes the output VC and binds its input VC; the tail (maybe the same
        // flit) frees both.
        if (out_head[o]) begin
          held_d[o*VCs+32'(send_vc[o])] = !out_tail[o];
          holder_d[(o*VCs+32'(send_vc[o]))*InIdxWidth+:InIdxWidth] = send_in[o];
          bound_d[send_in[o]] = !out_tail[o];
          own_port_d[3*32'(send_in[o])+:3] = 3'(o);
          own_vc_d[32'(send_in[o])*VcIdxWidth+:VcIdxWidth] = send_vc[o];
        end else if (out_tail[o]) begin
          held_d[o*VCs+32'(send_vc[o])] = 1'b0;
          bound_d[send_in[o]] = 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bound_q    <= '0;
      held_q     <= '0;
      holder_q   <= '0;
      own_port_q <= '0;
      own_vc_q   <= '0;
    end else begin
      bound_q    <= bound_d;
      held_q     <= held_d;
      holder_q   <= holder_d;
      own_port_q <= own_port_d;
      own_vc_q   <= own_vc_d;
    end
  end

`ifndef SYNTHESIS
  // Which input VCs the held output VCs name (chk_holds), and the output VCs whose holder
  // is not bound or holds another too (chk_bad_holder): one assertion each over the
  // vectors, as Yosys reads an assertion named once, not once per loop index.
  /* verilator coverage_off */  // checks only: no toggle points
  logic [InVcs-1:0]     chk_holds;
  logic [Ports*VCs-1:0] chk_bad_holder;
  /* verilator coverage_on */
  always_comb begin
    chk_holds      = '0;
    chk_bad_holder = '0;
    for (int unsigned ov = 0; ov < Ports * VCs; ov++) begin
      if (held_q[ov]) begin
        if (!bound_q[holder_q[ov*InIdxWidth+:InIdxWidth]] ||
            chk_holds[holder_q[ov*InIdxWidth+:InIdxWidth]]) begin
          chk_bad_holder[ov] = 1'b1;
        end
        chk_holds[holder_q[ov*InIdxWidth+:InIdxWidth]] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // A body flit at the front of a VC that holds no output: a packet without a head.
      HeadFirst_A: assert ((filled & ~bound_q & ~heads) == '0)
        else $error("tsr_mesh_router: body flit without a head at input VCs %b",
                    filled & ~bound_q & ~heads);
      // An output VC is held by a bound input VC, and no input VC holds two.
      BoundHoldsOne_A: assert (chk_bad_holder == '0)
        else $error("tsr_mesh_router: output VCs %b held by an input VC %s", chk_bad_holder,
                    "not bound or holding another");
      BoundHeld_A: assert (chk_holds == bound_q)
        else $error("tsr_mesh_router: input VCs %b bound to no output VC", bound_q & ~chk_holds);
    end
  end

`ifndef FORMAL
  // ---- User cover points (docs/rtl.md "Coverage") -------------------------------------
  // Per output: a due head that cannot ask for it (no free VC with a slot in its class),
  // two of its VCs with a flit to send at once (the flit arbiter chooses), and on a link
  // of a torus a head that leaves in the upper dateline class after arriving in the lower.
  // Per output VC: taken by a head, freed by a tail, and held with its next flit waiting
  // for a slot behind it (back-pressure). Per input port: a VC FIFO at depth_i.
  /* verilator coverage_off */  // checks only: no toggle points
  logic [Ports-1:0] cover_blocked;
  /* verilator coverage_on */
  always_comb begin
    cover_blocked = '0;
    for (int unsigned o = 0; o < Ports; o++) begin
      for (int unsigned i = 0; i < InVcs; i++) begin
        if (head_req[i] && route[i] == 3'(o) && !hdr_req[o*InVcs+i]) cover_blocked[o] = 1'b1;
      end
    end
  end

  for (genvar o = 0; o < Ports; o++) begin : gen_cover_out
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        HeadBlocked_C: cover (cover_blocked[o]);
        VcsCompete_C: cover (!$onehot0(vc_req[o]));
      end
    end
    if (o < Links) begin : gen_link
      always_ff @(posedge clk_i) begin
        if (rst_ni) begin
          ClassUp_C: cover (wrap && hdr_take[o] && cls[hdr_idx[o]] &&
                            32'(hdr_idx[o]) % VCs < 32'(vcs_i) / 2);
        end
      end
    end
    for (genvar v = 0; v < VCs; v++) begin : gen_vc
      localparam int unsigned Ov = o * VCs + v;
      /* verilator coverage_off */  // checks only: no toggle points
      logic sent;  // a flit crosses on this VC
      /* verilator coverage_on */
      assign sent = send[o] && send_vc[o] == VcIdxWidth'(v);
      always_ff @(posedge clk_i) begin
        if (rst_ni) begin
          VcTaken_C: cover (sent && out_head[o] && !out_tail[o]);
          VcFreed_C: cover (sent && out_tail[o] && !out_head[o]);
          NoSlot_C: cover (held_q[Ov] && filled[holder_q[Ov*InIdxWidth+:InIdxWidth]] &&
                           ripe[holder_q[Ov*InIdxWidth+:InIdxWidth]] && !vc_slot[Ov]);
        end
      end
    end
  end

  for (genvar p = 0; p < Ports; p++) begin : gen_cover_in
    /* verilator coverage_off */  // checks only: no toggle points
    logic full;  // a VC FIFO of this input at depth_i
    /* verilator coverage_on */
    always_comb begin
      full = 1'b0;
      for (int unsigned v = 0; v < VCs; v++) begin
        if (32'(usage[(p*VCs+v)*CntWidth+:CntWidth]) == 32'(depth_i)) full = 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni) InputFull_C: cover (full);
    end
  end
`endif
`endif

`ifdef FORMAL
  // ---- For the proofs by induction (rtl_models/formal/tsr_mesh_router_formal.sv) -------
  // Only Yosys -formal reads this (docs/rtl.md "Formal properties"). The input streams'
  // rule, which the router's environment guarantees and the proofs assume: on each input
  // VC a head comes first, then body flits until a tail (a one-flit packet is both). The
  // router's properties: every output VC carries whole worms (a head only onto a free VC,
  // body flits and the tail only onto the VC their head took) and keeps its input VC
  // until the tail crosses; no input VC feeds two outputs at once and none sends from an
  // empty FIFO (no flit duplicated or made up); the ejection sends only when the tile is
  // ready. With one-flit FIFOs (BufferDepth 1), the invariants that carry the induction:
  // an input VC is bound exactly when the flits that left it end inside a packet, as told
  // by its front flit (a body flit or tail: bound; a head: not) or, with the FIFO empty,
  // by the stream that came in.
  logic [InVcs-1:0]     f_open_d, f_open_q;          // per input VC: inside a packet
  logic [Ports*VCs-1:0] f_out_open_d, f_out_open_q;  // per output VC: the same, sent
  logic [InVcs-1:0]     f_protocol, f_worm;          // per input VC: a rule broken
  logic [Ports*VCs-1:0] f_out_worm, f_kept, f_stray; // per output VC: a rule broken
  logic [Ports-1:0]     f_dup;                       // per output: feeds from a VC another does

  // The control words of the arriving flits and of the fronts (Yosys 0.23 reads a struct's
  // fields on a variable of the module, not of a generate block).
  tsr_pkg::mesh_ctl_t  f_ctl;
  logic [FlitBits-1:0] f_flit;
  always_comb begin
    for (int unsigned p = 0; p < Ports; p++) begin
      f_flit         = p == Local ? inject_flit_i : link_flit_i[(p%Links)*FlitBits+:FlitBits];
      f_ctl          = f_flit[DataWidth+:CtlBits];
      f_push_head[p] = f_ctl.head;
      f_push_tail[p] = f_ctl.tail;
    end
    for (int unsigned i = 0; i < InVcs; i++) begin
      f_ctl           = front[i][DataWidth+:CtlBits];
      f_front_tail[i] = f_ctl.tail;
    end
  end

  always_comb begin
    f_open_d     = f_open_q;
    f_out_open_d = f_out_open_q;
    f_protocol   = '0;
    f_worm       = '0;
    f_out_worm   = '0;
    f_kept       = '0;
    f_stray      = '0;
    f_dup        = '0;
    for (int unsigned i = 0; i < InVcs; i++) begin
      if (f_push[i]) begin
        f_protocol[i] = f_push_head[i/VCs] == f_open_q[i];
        f_open_d[i]   = !f_push_tail[i/VCs];
      end
      if (BufferDepth == 1) begin
        f_worm[i] = filled[i] ? bound_q[i] == heads[i] || f_open_q[i] == f_front_tail[i]
                              : bound_q[i] != f_open_q[i];
      end
    end
    for (int unsigned o = 0; o < Ports; o++) begin
      for (int unsigned v = 0; v < VCs; v++) begin
        // A held output VC names an input VC that exists.
        f_stray[o*VCs+v] =
            held_q[o*VCs+v] && 32'(holder_q[(o*VCs+v)*InIdxWidth+:InIdxWidth]) >= InVcs;
        if (f_out_open_q[o*VCs+v] != held_q[o*VCs+v]) f_out_worm[o*VCs+v] = 1'b1;
        if (send[o] && send_vc[o] == VcIdxWidth'(v)) begin
          if (out_head[o] == f_out_open_q[o*VCs+v]) f_out_worm[o*VCs+v] = 1'b1;
          if (!out_head[o] && send_in[o] != holder_q[(o*VCs+v)*InIdxWidth+:InIdxWidth]) begin
            f_out_worm[o*VCs+v] = 1'b1;
          end
          f_out_open_d[o*VCs+v] = !out_tail[o];
        end else if (held_q[o*VCs+v] &&
                     (!held_d[o*VCs+v] || holder_d[(o*VCs+v)*InIdxWidth+:InIdxWidth] !=
                                          holder_q[(o*VCs+v)*InIdxWidth+:InIdxWidth])) begin
          f_kept[o*VCs+v] = 1'b1;  // released or handed over without its tail crossing
        end
      end
      for (int unsigned q = 0; q < Ports; q++) begin
        if (q != o && send[o] && send[q] && send_in[o] == send_in[q]) f_dup[o] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_open_q     <= '0;
      f_out_open_q <= '0;
    end else begin
      f_open_q     <= f_open_d;
      f_out_open_q <= f_out_open_d;
    end
  end

  always_comb begin
    if (rst_ni) begin
      PushProtocol_A: assert (f_protocol == '0);  // the environment's rule
      WormState_A: assert (f_worm == '0 && f_stray == '0);
      OutputWorm_A: assert (f_out_worm == '0);
      WormKeepsOutput_A: assert (f_kept == '0);
      OnePop_A: assert (f_dup == '0);
      PopFilled_A: assert ((pop & ~filled) == '0);
      EjectReady_A: assert (!send[Local] || eject_ready_i);
    end
  end
`endif

endmodule
