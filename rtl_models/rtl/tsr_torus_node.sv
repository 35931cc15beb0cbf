// One node of a store-and-forward torus with parallel monodirectional ports
// (Bermond92 §1.1: Bermond, Michallon and Trystram, "Broadcasting in
// wraparound meshes with parallel monodirectional links"), in the rules the TLM torus
// engine follows too (docs/rtl.md, net::torus_engine): four input and four output links
// plus a local port, all running at once. A packet is stored whole in an input buffer
// before it goes on; a hop then holds its output link for exactly beta + tau * len
// cycles: the header in the first cycle, payload byte k in cycle beta + tau * (k + 1) - 1.
// The receiving node has the packet complete in the next cycle and may start the next
// hop in that same cycle, so h hops take h (beta + tau len) and q packets pipelined down
// a tree of depth h take (h + q - 1)(beta + tau len).
//
// The local input is written by the network interface a whole packet at a time: the
// packet is stored, and may leave, in the cycle it is written, so a packet posted at t
// over a free path is complete at its destination at t + h (beta + tau len).
//
// Built from cells, as the mesh router is: per input a tsr_torus_route (where a packet
// goes from here, and its dateline class behind each link output) and a
// tsr_torus_buffer (the packet buffers in their dateline classes, and per output the
// oldest packet that may go); per output a tsr_rr_arbiter between the inputs and a
// tsr_torus_serializer; per dateline class a tsr_credit_counter over the link outputs.
//
// Each output takes, from each input, the oldest packet that wants it and may go, and
// round-robins between the inputs, so a tree's packets stay in order. Flow control is by
// credits: an output starts a hop only while the neighbour's input has a free buffer of
// the class the packet takes there.
//
// Deadlock: dimension order alone can fill the buffers round a ring in a cycle. Each
// link input's buffers are split into two dateline classes (Dally and Seitz): a unicast
// packet sits in class 1 once its route in the current dimension has wrapped round the
// ring (crossed from the last column to column 0 or back, likewise rows), in class 0
// before. A class-1 packet never wraps again in that dimension, so no cycle of waits
// closes. Multicast packets stay in class 0: a tree's edges point away from its root.
module tsr_torus_node #(
  /// Torus rows.
  parameter int unsigned Rows = 4,
  /// Torus columns.
  parameter int unsigned Cols = 4,
  /// Packet buffers per input port, at least 2: ceil(Buffers / 2) of dateline class 0,
  /// the rest of class 1 (the local input's all serve class 0).
  parameter int unsigned Buffers = 4,
  /// Largest payload in bytes, at least 1.
  parameter int unsigned MaxBytes = 64,
  /// Entries of the multicast forwarding table, 1..16.
  parameter int unsigned Trees = 4,
  /// Width of the credit counts; derived, do not override.
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // This node's place (ties: one module serves every node of a torus).
  input  logic [15:0]                                           row_i,
  input  logic [15:0]                                           col_i,
  // Start-up cycles of a hop (beta) and cycles per payload byte (tau), both >= 1;
  // inputs so one model serves every timing a testbench checks.
  input  logic [15:0]                                           beta_i,
  input  logic [7:0]                                            tau_i,
  // Inputs: the four links from the neighbours, link l (TorusEast..TorusNorth) at
  // in_i[l * TorusLinkBits +: TorusLinkBits].
  input  logic [tsr_pkg::TorusLinks*tsr_pkg::TorusLinkBits-1:0] in_i,
  // The local input: the network interface writes a whole packet, header and payload
  // (bytes 0..len-1 of inj_data_i, byte b at inj_data_i[b * 8 +: 8]), into a free local
  // buffer in one cycle.
  input  logic                                                  inj_valid_i,
  input  tsr_pkg::torus_hdr_t                                   inj_hdr_i,
  input  logic [MaxBytes*8-1:0]                                 inj_data_i,
  // Buffers freed this cycle, per input i and dateline class k, back to the sender: at
  // credit_o[(i * 2 + k) * CreditWidth +: CreditWidth].
  output logic [tsr_pkg::TorusPorts*2*CreditWidth-1:0]          credit_o,
  // Outputs: the four links to the neighbours and the local ejection port, output o at
  // out_o[o * TorusLinkBits +: TorusLinkBits].
  output logic [tsr_pkg::TorusPorts*tsr_pkg::TorusLinkBits-1:0] out_o,
  // Observability: a packet to be delivered here is complete in input i from this cycle
  // on (a link input: the cycle after its last byte; the local input: the cycle the
  // interface writes it), and arrive_hdr_o[i * TorusHdrBits +: TorusHdrBits] is its
  // header. This is the cycle the packet is delivered, free of the ejection queue.
  output logic [tsr_pkg::TorusPorts-1:0]                        arrive_o,
  output logic [tsr_pkg::TorusPorts*tsr_pkg::TorusHdrBits-1:0]  arrive_hdr_o,
  // Observability: input i's oldest stored packet (header at wait_hdr_o[i * TorusHdrBits
  // +: TorusHdrBits]) still owes the outputs of the mask wait_ports_o[i * TorusPorts +:
  // TorusPorts] and none of them took a packet from input i this cycle. A testbench's
  // deadlock report names what every node waits for.
  output logic [tsr_pkg::TorusPorts-1:0]                        wait_o,
  output logic [tsr_pkg::TorusPorts*tsr_pkg::TorusHdrBits-1:0]  wait_hdr_o,
  output logic [tsr_pkg::TorusPorts*tsr_pkg::TorusPorts-1:0]    wait_ports_o,
  // Buffers the neighbour freed this cycle, per output link l and dateline class k: at
  // credit_i[(l * 2 + k) * CreditWidth +: CreditWidth].
  input  logic [tsr_pkg::TorusLinks*2*CreditWidth-1:0]          credit_i,
  // Forwarding table write: entry tbl_tree_i gets the port mask tbl_mask_i.
  input  logic                                                  tbl_we_i,
  input  logic [3:0]                                            tbl_tree_i,
  input  logic [tsr_pkg::TorusPorts-1:0]                        tbl_mask_i
`ifdef FORMAL
  ,
  // For the proofs (tsr_torus_node_formal.sv): the credits in use per dateline class k and
  // link output l (f_used_o[(k * TorusLinks + l) * CreditWidth +: CreditWidth]), and per
  // link output the payload bytes of its hop still to send.
  output logic [2*tsr_pkg::TorusLinks*CreditWidth-1:0]          f_used_o,
  output logic [tsr_pkg::TorusLinks*16-1:0]                     f_left_o
`endif
);

  if (Buffers < 2 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_buffer_check
    $fatal(1, "tsr_torus_node: Buffers must be at least 2 and MaxBytes 1..65535");
  end
  if (Rows < 2 || Cols < 2 || Rows * Cols > 65536) begin : gen_shape_check
    $fatal(1, "tsr_torus_node: needs 2 <= Rows, Cols and Rows * Cols <= 65536");
  end
  if (Trees < 1 || Trees > 16) begin : gen_tree_check
    $fatal(1, "tsr_torus_node: Trees must be 1..16");
  end

  localparam int unsigned Ports = tsr_pkg::TorusPorts;
  localparam int unsigned Links = tsr_pkg::TorusLinks;
  localparam int unsigned Local = tsr_pkg::TorusLocal;
  localparam int unsigned HdrBits = tsr_pkg::TorusHdrBits;
  localparam int unsigned LinkBits = tsr_pkg::TorusLinkBits;
  localparam int unsigned SrcWidth = tsr_pkg::idx_width(Ports);
  localparam int unsigned SlotWidth = tsr_pkg::idx_width(Buffers);
  localparam int unsigned ByteWidth = tsr_pkg::idx_width(MaxBytes);
  localparam int unsigned TreeWidth = tsr_pkg::idx_width(Trees);
  localparam int unsigned WaitWidth = 17;  // beta_i + tau_i
  // Buffers of dateline class 0 of a link input (tsr_torus_buffer's Class0).
  localparam int unsigned Class0 = Buffers - Buffers / 2;

  // ---- The forwarding table ---------------------------------------------------------
  logic [Trees*Ports-1:0] fwd_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_q <= '0;
    end else if (tbl_we_i && 32'(tbl_tree_i) < Trees) begin
      fwd_q[32'(TreeWidth'(tbl_tree_i))*Ports+:Ports] <= tbl_mask_i;
    end
  end

  // ---- Inputs: route and buffers ----------------------------------------------------
  // Per input i: the pick for each output (want, buffer, class behind a link output),
  // the headers in its buffers, the payload bytes the outputs read, the outputs that
  // send the last byte of one of its packets.
  logic [Ports-1:0]             want      [Ports];
  logic [Ports*Buffers-1:0]     pick      [Ports];
  logic [Links-1:0]             want_cls  [Ports];
  logic [Buffers*HdrBits-1:0]   hdrs      [Ports];
  logic [Ports*8-1:0]           rd_data   [Ports];
  logic [Ports-1:0]             done      [Ports];
  logic [Ports-1:0]             owes;
`ifdef FORMAL
  // Per input i, output o and buffer s (bit (i * Ports + o) * Buffers + s): owed to o.
  logic [Ports*Ports*Buffers-1:0] f_owed;
  logic [Ports*16-1:0]            f_left;
  assign f_left_o = f_left[Links*16-1:0];
`endif
  // Per output: the serializer's buffer and byte, for the payload reads.
  logic [Ports*SlotWidth-1:0]   rd_slot;
  logic [Ports*ByteWidth-1:0]   rd_byte;
  // Per link output l and class k (bit 2 l + k): the neighbour has a free buffer.
  logic [2*Links-1:0]           room;

  for (genvar gi = 0; gi < Ports; gi++) begin : gen_in
    tsr_pkg::torus_link_t link;
    logic                 inj_valid;
    tsr_pkg::torus_hdr_t  fill_hdr;
    // The header routed: the packet being completed (a link input's, the one filling).
    // Passed whole: the route reads its fields (no member access in a generate block).
    tsr_pkg::torus_hdr_t  route_hdr;
    logic [Ports-1:0]     route;
    logic [Links-1:0]     classes;

    if (gi == Local) begin : gen_local
      assign link      = '0;
      assign inj_valid = inj_valid_i;
      assign route_hdr = inj_hdr_i;
      // The local input fills no buffer a byte at a time.
      logic unused_fill;
      assign unused_fill = ^fill_hdr;
    end else begin : gen_link
      assign link      = in_i[gi*LinkBits+:LinkBits];
      assign inj_valid = 1'b0;
      assign route_hdr = fill_hdr;
    end

    tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(Trees)) i_route (
      .row_i,
      .col_i,
      .fwd_i     (fwd_q),
      .hdr_i     (route_hdr),
      .ports_o   (route),
      .classes_o (classes)
    );

    tsr_torus_buffer #(
      .Rows(Rows), .Cols(Cols), .Port(gi), .Buffers(Buffers), .MaxBytes(MaxBytes)
    ) i_buffer (
      .clk_i,
      .rst_ni,
      .row_i,
      .col_i,
      .link_i       (link),
      .inj_valid_i  (inj_valid),
      .inj_hdr_i,
      .inj_data_i,
      .fill_hdr_o   (fill_hdr),
      .route_i      (route),
      .classes_i    (classes),
      .room_i       (room),
      .want_o       (want[gi]),
      .pick_o       (pick[gi]),
      .want_cls_o   (want_cls[gi]),
      .hdr_o        (hdrs[gi]),
      .rd_slot_i    (rd_slot),
      .rd_byte_i    (rd_byte),
      .rd_data_o    (rd_data[gi]),
      .done_i       (done[gi]),
      .credit_o     (credit_o[gi*2*CreditWidth+:2*CreditWidth]),
      .arrive_o     (arrive_o[gi]),
      .arrive_hdr_o (arrive_hdr_o[gi*HdrBits+:HdrBits]),
      .owes_o       (owes[gi]),
      .owes_hdr_o   (wait_hdr_o[gi*HdrBits+:HdrBits]),
      .owes_ports_o (wait_ports_o[gi*Ports+:Ports])
`ifdef FORMAL
      ,
      .f_out_o      (),
      .f_left_o     (),
      .f_owed_o     (f_owed[gi*Ports*Buffers+:Ports*Buffers])
`endif
    );
  end

  // ---- Outputs: arbiter, serializer, credits ----------------------------------------
  logic                 busy  [Ports];
  logic [SrcWidth-1:0]  src   [Ports];
  logic [SlotWidth-1:0] slot  [Ports];
  logic                 last  [Ports];
  logic                 grant [Ports];
  logic [SrcWidth-1:0]  grant_in [Ports];
  logic [Links-1:0]     grant_cls;  // the class the granted packet takes behind a link
  // Byte 0 goes beta + tau - 1 cycles after the header, then a byte every tau cycles.
  logic [WaitWidth-1:0] first_wait, next_wait;
  assign first_wait = WaitWidth'(32'(beta_i) + 32'(tau_i) - 2);
  assign next_wait  = WaitWidth'(32'(tau_i) - 1);

  for (genvar go = 0; go < Ports; go++) begin : gen_out
    logic [Ports-1:0]     req;  // the inputs asking for this output now
    logic [SlotWidth-1:0] grant_slot;
    tsr_pkg::torus_hdr_t  grant_hdr;
    logic [ByteWidth-1:0] rd_byte_o;

    // A busy output takes no new packet.
    always_comb begin
      for (int i = 0; i < Ports; i++) req[i] = want[i][go] && !busy[go];
    end

    // Round robin between the inputs, from the input after the last one served; input
    // 1 first after reset, as net::torus_engine's pointer starts at input 0.
    tsr_rr_arbiter #(
      .N(Ports), .ResetPtr(1)
    ) i_arb (
      .clk_i,
      .rst_ni,
      .req_i   (req),
      .take_i  (grant[go]),
      .valid_o (grant[go]),
      .idx_o   (grant_in[go])
    );

    // The buffer of the pick of the input granted. Read in the loop, not through a
    // variable of its own: Verilator would make a lookup table of the loop over such a
    // variable, one per node, and could no longer share this code between the nodes.
    always_comb begin
      grant_slot = '0;
      for (int s = 0; s < Buffers; s++) begin
        if (pick[grant_in[go]][go*Buffers+s]) grant_slot = SlotWidth'(s);
      end
    end
    assign grant_hdr  = hdrs[grant_in[go]][32'(grant_slot)*HdrBits+:HdrBits];

    // The local port sends a byte a cycle after the header.
    tsr_torus_serializer #(
      .Inputs(Ports), .Buffers(Buffers), .MaxBytes(MaxBytes)
    ) i_serializer (
      .clk_i,
      .rst_ni,
      .first_wait_i (go == Local ? '0 : first_wait),
      .next_wait_i  (go == Local ? '0 : next_wait),
      .grant_i      (grant[go]),
      .grant_src_i  (grant_in[go]),
      .grant_slot_i (grant_slot),
      .grant_hdr_i  (grant_hdr),
      .busy_o       (busy[go]),
      .src_o        (src[go]),
      .slot_o       (slot[go]),
      .byte_o       (rd_byte_o),
      .data_i       (rd_data[src[go]][go*8+:8]),
      .last_o       (last[go]),
      .link_o       (out_o[go*LinkBits+:LinkBits])
`ifdef FORMAL
      ,
      .f_left_o     (f_left[go*16+:16])
`endif
    );
    assign rd_slot[go*SlotWidth+:SlotWidth] = slot[go];
    assign rd_byte[go*ByteWidth+:ByteWidth] = rd_byte_o;

    // The class the granted packet takes behind a link output.
    if (go < Links) begin : gen_link
      assign grant_cls[go] = want_cls[grant_in[go]][go];
    end
  end

  // Credits of the neighbours' inputs behind the link outputs, a counter per dateline
  // class over the links: the buffers of the class each.
  for (genvar gk = 0; gk < 2; gk++) begin : gen_class
    logic [Links-1:0]             take, avail;
    logic [Links*CreditWidth-1:0] give;

    for (genvar gl = 0; gl < Links; gl++) begin : gen_link
      assign take[gl]                          = grant[gl] && 32'(grant_cls[gl]) == gk;
      assign give[gl*CreditWidth+:CreditWidth] = credit_i[(gl*2+gk)*CreditWidth+:CreditWidth];
      assign room[2*gl+gk]                     = avail[gl];
    end

    tsr_credit_counter #(
      .Channels(Links), .MaxCredits(Buffers), .GiveWidth(CreditWidth)
    ) i_credits (
      .clk_i,
      .rst_ni,
      .limit_i (CreditWidth'(gk == 0 ? Class0 : Buffers - Class0)),
      .take_i  (take),
      .give_i  (give),
      .avail_o (avail),
      // The load matters to the mesh route select only; the proofs read it.
`ifdef FORMAL
      .used_o  (f_used_o[gk*Links*CreditWidth+:Links*CreditWidth])
`else
      .used_o  ()
`endif
    );
  end

  // Per input i and output o: o sends the last byte of one of i's packets.
  always_comb begin
    for (int i = 0; i < Ports; i++) begin
      for (int o = 0; o < Ports; o++) done[i][o] = last[o] && 32'(src[o]) == i;
    end
  end

  // An input waits while its oldest owing packet is stuck: none of its outputs took a
  // packet from the input this cycle (served, for one input at a time).
  logic served;
  always_comb begin
    served = 1'b0;
    for (int i = 0; i < Ports; i++) begin
      served = 1'b0;
      for (int o = 0; o < Ports; o++) begin
        if ((grant[o] && 32'(grant_in[o]) == i) || (busy[o] && 32'(src[o]) == i))
          served = 1'b1;
      end
      wait_o[i] = owes[i] && !served;
    end
  end

`ifdef FORMAL
  // Only Yosys -formal reads this (docs/rtl.md "Formal properties"): an output busy with a
  // packet sends one its input still owes it (the inductive invariant behind the buffers'
  // DoneOwed_A in the node's proof).
  logic [Ports-1:0] f_unowed;
  always_comb begin
    for (int o = 0; o < Ports; o++) begin
      f_unowed[o] = busy[o] && !f_owed[(32'(src[o])*Ports + o)*Buffers + 32'(slot[o])];
    end
  end
  always_comb begin
    if (rst_ni) SendingOwed_A: assert (f_unowed == '0);
  end
`endif

`ifndef SYNTHESIS
  // Immediate assertions, clocked like the registers (asynchronous reset), so rst_ni
  // is used one way only.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      TimingInRange_A: assert (beta_i != '0 && tau_i != '0)
        else $error("tsr_torus_node: beta and tau must be at least 1");
    end
  end

`ifndef FORMAL
  // User cover points (docs/rtl.md "Coverage"). Per output: a packet that wants it while
  // it is busy with another (held back), and on a link a packet that takes dateline class
  // 1 there after class 0 (a link input's class-0 buffer, or the local input). Per input:
  // a packet sent to two outputs at once (a tree's fork), and an input waiting.
  for (genvar go = 0; go < Ports; go++) begin : gen_cover_out
    /* verilator coverage_off */  // checks only: no toggle points
    logic wanted;  // some input wants this output
    /* verilator coverage_on */
    always_comb begin
      wanted = 1'b0;
      for (int i = 0; i < Ports; i++) wanted = wanted || want[i][go];
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni) HeldBack_C: cover (wanted && busy[go]);
    end
    if (go < Links) begin : gen_link
      always_ff @(posedge clk_i) begin
        if (rst_ni) begin
          ClassUp_C: cover (grant[go] && grant_cls[go] &&
                            (32'(grant_in[go]) == Local || 32'(gen_out[go].grant_slot) < Class0));
        end
      end
    end
  end
  for (genvar gi = 0; gi < Ports; gi++) begin : gen_cover_in
    /* verilator coverage_off */  // checks only: no toggle points
    logic [Ports-1:0] granted;  // the outputs that take a packet of this input now
    /* verilator coverage_on */
    always_comb begin
      for (int o = 0; o < Ports; o++) granted[o] = grant[o] && 32'(grant_in[o]) == gi;
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        Fork_C: cover (!$onehot0(granted));
        Waits_C: cover (wait_o[gi]);
      end
    end
  end
`endif
`endif

endmodule
