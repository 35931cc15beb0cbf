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
module tsr_mesh_router
  import tsr_pkg::*;
#(
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
  /// 1: the torus logic is built (wrap_i, tsr_mesh_route); 0 leaves it out.
  parameter int unsigned Wrap = 1,
  /// The flit: a packed struct with fields ctl (mesh_ctl_t) and data.
  parameter type flit_t = tsr_pkg::mesh_flit_t,
  /// Input VCs, MeshPorts * VCs; derived, do not override.
  localparam int unsigned InVcs = MeshPorts * VCs,
  /// Width of an input VC index; derived, do not override.
  localparam int unsigned InIdxWidth = idx_width(InVcs)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This router's place in the mesh.
  input  mesh_coord_t          here_i,
  // Run-time settings, held from reset on: the router delay r (0..255, with
  // pipeline_i - 1 + r at most 255), the pipeline depth (1..MaxPipeline), the credit delay
  // (1..MaxCreditDelay), the VCs in use (1..VCs) and the usable slots of each input VC
  // FIFO (1..BufferDepth).
  input  mesh_delay_t          router_delay_i,
  input  logic [4:0]           pipeline_i,
  input  logic [4:0]           credit_delay_i,
  input  logic [2:0]           vcs_i,
  // The routing function (tsr_pkg MeshRoute*, tsr_mesh_route), held from reset on.
  input  mesh_routing_t        routing_i,
  // A torus of rows_i x cols_i (tsr_mesh_route), held from reset on; a mesh when wrap_i is
  // 0.
  input  logic                 wrap_i,
  input  logic [6:0]           rows_i,
  input  logic [6:0]           cols_i,
  input  logic [15:0]          depth_i,
  // Inputs: a flit per port per cycle, into the FIFO of its ctl.vc, sent with a credit;
  // links E, W, S, N, and the local port from the NI apart from them, so that the NI's
  // combinational message path reaches no other port's logic (a Verilated model
  // evaluates a signal again whenever the testbench sets an input it depends on).
  input  logic [MeshLinks-1:0] link_valid_i,
  input  flit_t                link_flit_i   [MeshLinks],
  input  logic                 inject_valid_i,
  input  flit_t                inject_flit_i,
  // Per input port and VC: a slot freed this cycle, one credit back to the sender.
  output logic [VCs-1:0]       credit_o      [MeshPorts],
  // Outputs: a flit per port per cycle; its ctl.vc is the VC it holds on the channel.
  output logic [MeshPorts-1:0] out_valid_o,
  output flit_t                out_flit_o    [MeshPorts],
  // Credits from the neighbours' input VC FIFOs, per output link and VC.
  input  logic [VCs-1:0]       credit_i      [MeshLinks],
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
  output mesh_ctl_t            probe_ctl_o
);

  if (Rows < 1 || Rows > MeshMaxSide || Cols < 1 || Cols > MeshMaxSide) begin : gen_shape_check
    $fatal(1, "tsr_mesh_router: Rows and Cols must be 1..64");
  end
  if (VCs < 1 || VCs > MeshMaxVcs) begin : gen_vcs_check
    $fatal(1, "tsr_mesh_router: VCs must be 1..4");
  end
  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_router: BufferDepth must be 1..1024");
  end
  if (MaxPipeline < 1 || MaxPipeline > 16 || MaxCreditDelay < 1 || MaxCreditDelay > 16)
  begin : gen_pipeline_check
    $fatal(1, "tsr_mesh_router: MaxPipeline and MaxCreditDelay must be 1..16");
  end

  localparam int unsigned VcIdxWidth = idx_width(VCs);
  localparam int unsigned CntWidth = cnt_width(BufferDepth);
  typedef logic [InIdxWidth-1:0] in_idx_t;
  typedef logic [VcIdxWidth-1:0] vc_idx_t;

  // ---- State ------------------------------------------------------------------------
  // Packed, so that a Verilated model copies each as a few words.
  logic [InVcs-1:0]                              bound_d, bound_q;   // input VC holds one
  logic [MeshPorts-1:0][VCs-1:0]                 held_d, held_q;     // output VC taken
  logic [MeshPorts-1:0][VCs-1:0][InIdxWidth-1:0] holder_d, holder_q; // by input VC
  logic [InVcs-1:0][2:0]                         own_port_d, own_port_q; // a bound input
  logic [InVcs-1:0][VcIdxWidth-1:0]              own_vc_d, own_vc_q;     // VC's output VC

  // ---- The torus: the columns and rows next to this router each way round ---------
  logic [5:0] east_col, west_col, south_row, north_row;

  always_comb begin
    east_col  = 7'(here_i.col) + 7'd1 == cols_i ? 6'd0 : here_i.col + 6'd1;
    west_col  = here_i.col == 6'd0 ? 6'(cols_i - 7'd1) : here_i.col - 6'd1;
    south_row = 7'(here_i.row) + 7'd1 == rows_i ? 6'd0 : here_i.row + 6'd1;
    north_row = here_i.row == 6'd0 ? 6'(rows_i - 7'd1) : here_i.row - 6'd1;
  end

  // ---- Input ports: router delay, a FIFO per VC -------------------------------------
  flit_t               front [InVcs];
  mesh_port_t          route [InVcs];      // the output the front asks for, if a head
  logic [InVcs-1:0]    upper;              // ... and its dateline class there (a torus)
  logic [15:0]         load  [MeshLinks];  // per output link: credits in use, VCs in use
  logic [CntWidth-1:0] usage [MeshPorts][VCs];
  logic [InVcs-1:0]    pop, slot, filled, due, ripe;
  logic [InVcs-1:0]    credit_due;  // per input VC: the slot's credit goes back now
  mesh_delay_t         head_delay;  // a head: the pipeline's cycles and r
  logic [3:0]          body_delay;  // every flit: the pipeline's, beyond the first cycle

  assign body_delay = 4'(pipeline_i - 5'd1);
  assign head_delay = router_delay_i + mesh_delay_t'(body_delay);

  for (genvar p = 0; p < MeshPorts; p++) begin : gen_in_port
    logic           valid;
    flit_t          flit;
    logic [VCs-1:0] push;

    if (p == MeshLocal) begin : gen_inject
      assign valid = inject_valid_i;
      assign flit  = inject_flit_i;
    end else begin : gen_link
      assign valid = link_valid_i[p];
      assign flit  = link_flit_i[p];
    end

    tsr_mesh_delay #(.VCs(VCs), .Depth(BufferDepth)) i_delay (
      .clk_i,
      .rst_ni,
      .delay_i   (head_delay),
      .push_i    (valid),
      .push_vc_i (flit.ctl.vc),
      .pop_i     (pop[p*VCs +: VCs]),
      .usage_i   (usage[p]),
      .due_o     (due[p*VCs +: VCs])
    );

    if (MaxPipeline > 1) begin : gen_pipeline
      tsr_mesh_delay #(.VCs(VCs), .Depth(BufferDepth), .Slots(16)) i_pipeline (
        .clk_i,
        .rst_ni,
        .delay_i   (body_delay),
        .push_i    (valid),
        .push_vc_i (flit.ctl.vc),
        .pop_i     (pop[p*VCs +: VCs]),
        .usage_i   (usage[p]),
        .due_o     (ripe[p*VCs +: VCs])
      );
    end else begin : gen_no_pipeline
      assign ripe[p*VCs +: VCs] = '1;  // every flit may leave the cycle after it came
    end

    for (genvar v = 0; v < VCs; v++) begin : gen_in_vc
      localparam int unsigned Iv = p * VCs + v;
      logic [$bits(flit_t)-1:0] data;

      assign push[v] = valid && flit.ctl.vc == mesh_vc_t'(v);

      tsr_fifo #(.Width($bits(flit_t)), .Depth(BufferDepth)) i_fifo (
        .clk_i,
        .rst_ni,
        .valid_i (push[v]),
        .ready_o (slot[Iv]),
        .data_i  (flit),
        .valid_o (filled[Iv]),
        .ready_i (pop[Iv]),
        .data_o  (data),
        .usage_o (usage[p][v])
      );
      assign front[Iv] = flit_t'(data);

      // The front flit's route, worth asking only while it is a head.
      tsr_mesh_route #(.Wrap(Wrap)) i_route (
        .here_i,
        .dst_i     (front[Iv].ctl.dst),
        .src_i     (front[Iv].ctl.src),
        .odd_i     (front[Iv].ctl.odd),
        .wrap_i,
        .rows_i,
        .cols_i,
        .east_col_i  (east_col),
        .west_col_i  (west_col),
        .south_row_i (south_row),
        .north_row_i (north_row),
        .routing_i,
        .load_i    (load),
        .port_o    (route[Iv]),
        .upper_o   (upper[Iv])
      );

      assign credit_o[p][v] = credit_due[Iv];
    end

`ifndef SYNTHESIS
    // Per port, so that the local port's checks alone depend on the NI's inputs: a flit
    // on a VC outside vcs_i, or into a full FIFO (the sender ignored its credits).
    // Immediate assertions at the clock edge, here and below: a concurrent assertion
    // makes a Verilated model copy its signals at every evaluation.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        VcInUse_A: assert (!(valid && 32'(flit.ctl.vc) >= 32'(vcs_i)))
          else $error("tsr_mesh_router: flit on VC %0d, outside vcs_i, at input %0d",
                      flit.ctl.vc, p);
        NoOverflow_A: assert ((push & ~slot[p*VCs +: VCs]) == '0)
          else $error("tsr_mesh_router: flit pushed into a full FIFO at input %0d", p);
      end
    end
`endif
  end

  // ---- Requests ---------------------------------------------------------------------
  logic             wrap;                    // a torus, where built (constant 0 if not)
  assign wrap = Wrap != 0 && wrap_i;
  logic [VCs-1:0]   vc_on;                   // VCs in use (vcs_i)
  logic [VCs-1:0]   vc_class   [2];          // per class: the link VCs it may take
  logic [InVcs-1:0] heads;                   // the front flit is a head
  logic [InVcs-1:0] cls;                     // ... of the upper class (O1TURN's YX, dateline 1)
  logic [InVcs-1:0] head_req;                // ... that holds no output and is due
  logic [InVcs-1:0] hdr_req    [MeshPorts];  // per output: the heads that ask for it
  logic [VCs-1:0]   vc_slot    [MeshPorts];  // per output VC: a slot behind it
  logic [VCs-1:0]   body_ready [MeshPorts];  // per output VC: its packet's next flit can go
  logic [VCs-1:0]   free_vc    [MeshPorts][2];  // per class, the lowest free VC with a slot
  logic [VCs-1:0]   credit     [MeshLinks];  // per output link VC: a credit left
  logic [VCs*CntWidth-1:0] used [MeshLinks];  // per output link VC: credits in use

  // The outputs' loads for route select, apart from the requests that depend on them.
  always_comb begin
    for (int unsigned l = 0; l < MeshLinks; l++) begin
      load[l] = '0;
      for (int unsigned v = 0; v < VCs; v++) begin
        if (v < 32'(vcs_i)) load[l] = load[l] + 16'(used[l][v*CntWidth+:CntWidth]);
      end
    end
  end

  always_comb begin
    for (int unsigned v = 0; v < VCs; v++) begin
      vc_on[v] = v < 32'(vcs_i);
      if (routing_i == MeshRouteO1turn || wrap) begin
        vc_class[0][v] = vc_on[v] && v < 32'(vcs_i) / 2;
        vc_class[1][v] = vc_on[v] && v >= 32'(vcs_i) / 2;
      end else begin
        vc_class[0][v] = vc_on[v];
        vc_class[1][v] = vc_on[v];
      end
    end
    for (int unsigned i = 0; i < InVcs; i++) begin
      heads[i] = front[i].ctl.head;
      cls[i]   = wrap ? upper[i] : routing_i == MeshRouteO1turn && front[i].ctl.odd;
    end
    head_req = filled & ~bound_q & heads & due;
    for (int unsigned o = 0; o < MeshPorts; o++) begin
      for (int unsigned v = 0; v < VCs; v++) begin
        if (o == MeshLocal) begin
          vc_slot[o][v] = eject_ready_i;
        end else begin
          vc_slot[o][v] = credit[o%MeshLinks][v];
        end
        body_ready[o][v] = held_q[o][v] && filled[holder_q[o][v]] && ripe[holder_q[o][v]] &&
                           vc_slot[o][v];
      end
      for (int unsigned c = 0; c < 2; c++) begin
        // The ejection takes any VC in use; x & -x keeps the lowest set bit.
        free_vc[o][c] = (o == MeshLocal ? vc_on : vc_class[c]) & ~held_q[o] & vc_slot[o];
        free_vc[o][c] = free_vc[o][c] & (~free_vc[o][c] + 1'b1);
      end
      for (int unsigned i = 0; i < InVcs; i++) begin
        hdr_req[o][i] = head_req[i] && route[i] == mesh_port_t'(o) &&
                        free_vc[o][cls[i]] != '0;
      end
    end
  end

  // ---- Header and flit arbitration per output ---------------------------------------
  logic           hdr_valid [MeshPorts];
  in_idx_t        hdr_idx   [MeshPorts];
  logic           hdr_take  [MeshPorts];  // the header arbiter's winner crosses
  logic [VCs-1:0] hdr_vc    [MeshPorts];  // the VC it would take (none: '0)
  logic [VCs-1:0] vc_req    [MeshPorts];
  logic           send      [MeshPorts];  // a flit crosses this output
  vc_idx_t        send_vc   [MeshPorts];  // on this VC

  for (genvar o = 0; o < MeshPorts; o++) begin : gen_out
    tsr_rr_arbiter #(.N(InVcs)) i_hdr_arb (
      .clk_i,
      .rst_ni,
      .req_i   (hdr_req[o]),
      .take_i  (hdr_take[o]),
      .valid_o (hdr_valid[o]),
      .idx_o   (hdr_idx[o])
    );

    // The flit arbiter serves the held VCs with a flit ready and the header winner's VC
    // (free, so never one of those) alike; the winner crosses when its VC is served.
    assign hdr_vc[o]   = hdr_valid[o] ? free_vc[o][cls[hdr_idx[o]]] : '0;
    assign vc_req[o]   = body_ready[o] | hdr_vc[o];
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
    if (o < MeshLinks) begin : gen_link
      tsr_credit_counter #(
        .Channels(VCs), .MaxCredits(BufferDepth), .LimitWidth(16)
      ) i_credits (
        .clk_i,
        .rst_ni,
        .limit_i (depth_i),
        .take_i  (VCs'(send[o]) << send_vc[o]),
        .give_i  (credit_i[o]),
        .avail_o (credit[o]),
        .used_o  (used[o])
      );
    end
  end

  // ---- Crossbar ----------------------------------------------------------------------
  in_idx_t send_in [MeshPorts];  // the input VC whose front crosses output o

  always_comb begin
    pop = '0;
    for (int unsigned o = 0; o < MeshPorts; o++) begin
      send_in[o]           = hdr_take[o] ? hdr_idx[o] : holder_q[o][send_vc[o]];
      out_valid_o[o]       = send[o];
      out_flit_o[o]        = front[send_in[o]];
      out_flit_o[o].ctl.vc = mesh_vc_t'(send_vc[o]);
      pop                  = pop | ({InVcs{send[o]}} & (InVcs'(1) << send_in[o]));
    end
    stall_o     = filled & ~pop;
    probe_ctl_o = front[probe_vc_i].ctl;
  end

  // ---- Why a ready flit waits ---------------------------------------------------------
  always_comb begin
    for (int unsigned i = 0; i < InVcs; i++) begin
      automatic logic [VCs-1:0] mine = '0;  // a head: the VCs of its class at its output
      automatic logic [VCs-1:0] unheld = '0;
      cause_o[2*i +: 2] = MeshStallNone;
      if (filled[i] && !pop[i]) begin
        if (bound_q[i]) begin
          if (ripe[i]) begin
            cause_o[2*i +: 2] = vc_slot[own_port_q[i]][own_vc_q[i]] ? MeshStallArbitration
                                                                     : MeshStallNoCredit;
          end
        end else if (heads[i] && due[i]) begin
          mine   = route[i] == mesh_port_t'(MeshLocal) ? vc_on : vc_class[cls[i]];
          unheld = mine & ~held_q[route[i]];
          cause_o[2*i +: 2] = (unheld & vc_slot[route[i]]) != '0 ? MeshStallArbitration :
                              unheld != '0                        ? MeshStallNoCredit    :
                                                                    MeshStallNoVc;
        end
      end
    end
  end

  // ---- Credits back, credit_delay_i - 1 cycles after their slots free ----------------
  if (MaxCreditDelay > 1) begin : gen_credit_line
    // credit_line_q[k]: the slots freed k + 1 cycles ago, packed so a Verilated model
    // shifts a few words.
    logic [14:0][InVcs-1:0] credit_line_q;

    always_comb begin
      credit_due = (credit_delay_i <= 5'd1) ? pop : credit_line_q[4'(credit_delay_i - 5'd2)];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credit_line_q <= '0;
      end else begin
        credit_line_q <= {credit_line_q[13:0], pop};
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
    for (int unsigned o = 0; o < MeshPorts; o++) begin
      if (send[o]) begin
        // The head takes the output VC and binds its input VC; the tail (maybe the same
        // flit) frees both.
        if (out_flit_o[o].ctl.head) begin
          held_d[o][send_vc[o]]   = !out_flit_o[o].ctl.tail;
          holder_d[o][send_vc[o]] = send_in[o];
          bound_d[send_in[o]]     = !out_flit_o[o].ctl.tail;
          own_port_d[send_in[o]]  = 3'(o);
          own_vc_d[send_in[o]]    = send_vc[o];
        end else if (out_flit_o[o].ctl.tail) begin
          held_d[o][send_vc[o]] = 1'b0;
          bound_d[send_in[o]]   = 1'b0;
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
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin : check
      automatic logic [InVcs-1:0] holds = '0;
      // A body flit at the front of a VC that holds no output: a packet without a head.
      HeadFirst_A: assert ((filled & ~bound_q & ~heads) == '0)
        else $error("tsr_mesh_router: body flit without a head at input VCs %b",
                    filled & ~bound_q & ~heads);
      for (int unsigned o = 0; o < MeshPorts; o++) begin
        for (int unsigned v = 0; v < VCs; v++) begin
          if (held_q[o][v]) begin
            // An output VC is held by a bound input VC, and no input VC holds two.
            BoundHoldsOne_A: assert (bound_q[holder_q[o][v]] && !holds[holder_q[o][v]])
              else $error("tsr_mesh_router: output %0d VC %0d held by input VC %0d, which is %s",
                          o, v, holder_q[o][v],
                          bound_q[holder_q[o][v]] ? "holding another" : "not bound");
            holds[holder_q[o][v]] = 1'b1;
          end
        end
      end
      BoundHeld_A: assert (holds == bound_q)
        else $error("tsr_mesh_router: input VCs %b bound to no output VC", bound_q & ~holds);
    end
  end
`endif

endmodule
