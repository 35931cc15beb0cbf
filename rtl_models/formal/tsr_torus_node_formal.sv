// Formal harness of tsr_torus_node (scripts/formal.sh, docs/rtl.md "Formal properties"):
// one node of a 4 x 4 torus with both ends of each of its four output links: each link
// feeds the input buffers of the neighbour in its direction (tsr_torus_buffer, wired as
// tsr_torus_top wires them, with that neighbour's route), whose credits come back to the
// node's counters. Free: the node's place, its beta and tau (1 or 2, held), its four
// input links and the interface's packets, its forwarding-table writes, and the
// neighbours' outputs (room and packets finished). The environment's guarantees
// (`assumes=`): the node's own inputs come whole and kept to its credits (its buffers'
// LinkProtocol_A, SenderCredits_A, input checks), and the neighbours' outputs finish only
// packets owed to them. What the node owes its neighbours is proven: whole packets on each
// link (their LinkProtocol_A), a hop only with a free buffer of the packet's class there
// (their SenderCredits_A, HeaderHasRoom_A), credits within each class and none returned
// that is not owed (CreditsBounded_A, CreditReturned_A), the two ends' counts of each
// class equal (CreditsAgree_A). A reduced size (docs/rtl.md): two buffers per input (one
// per class), one payload byte, one forwarding entry.
//
// formal: rtl tsr_torus_node tsr_torus_buffer tsr_torus_route tsr_torus_serializer tsr_rr_arbiter tsr_credit_counter
// formal: property tsr_torus_node.links k=2 engine=sat
//   asserts=LinkEnds_A,SerialState_A,SendingOwed_A,nb.LinkProtocol_A,nb.LengthInRange_A,nb.HeaderBeforeBytes_A,nb.SenderCredits_A,nb.HeaderHasRoom_A,nb.CreditsAgree_A,CreditsBounded_A,CreditReturned_A,DoneOwed_A,GrantWhenIdle_A,HeaderHasRoom_A,CreditsAgree_A,FillState_A,FullOwes_A,AgeOrder_A,ClassKept_A,PickOldest_A
//   assumes=dut.LinkProtocol_A,dut.SenderCredits_A,dut.LengthInRange_A,dut.HeaderBeforeBytes_A,TimingInRange_A,nb.DoneOwed_A
//   -- both ends of a link keep one credit protocol: the node sends whole packets, starts
//   a hop only with a free buffer of the packet's dateline class behind it, and its
//   count of each class in use equals the neighbour's; no credit goes back unowed
// formal: cover tsr_torus_node.reach t=6 solver=cvc4 heavy
//   assumes=dut.LinkProtocol_A,dut.SenderCredits_A,dut.LengthInRange_A,dut.HeaderBeforeBytes_A,TimingInRange_A,nb.DoneOwed_A
//   -- all four links busy at once; credits back from a neighbour as the node frees a
//   buffer of its own
module tsr_torus_node_formal #(
  localparam int unsigned Rows = 4,
  localparam int unsigned Cols = 4,
  localparam int unsigned Buffers = 2,
  localparam int unsigned MaxBytes = 1,
  localparam int unsigned Trees = 1,
  localparam int unsigned SlotWidth = tsr_pkg::idx_width(Buffers),
  localparam int unsigned ByteWidth = tsr_pkg::idx_width(MaxBytes),
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input logic                                                  clk_i,
  input logic                                                  rst_ni,
  input logic [tsr_pkg::TorusLinks*tsr_pkg::TorusLinkBits-1:0] in_i,
  input logic                                                  inj_valid_i,
  input logic [tsr_pkg::TorusHdrBits-1:0]                      inj_hdr_i,
  input logic [MaxBytes*8-1:0]                                 inj_data_i,
  input logic                                                  tbl_we_i,
  input logic [3:0]                                            tbl_tree_i,
  input logic [tsr_pkg::TorusPorts-1:0]                        tbl_mask_i,
  // The neighbours' outputs: per neighbour, room behind its links, packets finished.
  input logic [tsr_pkg::TorusLinks*2*tsr_pkg::TorusLinks-1:0]  nb_room_i,
  input logic [tsr_pkg::TorusLinks*tsr_pkg::TorusPorts*SlotWidth-1:0] nb_slot_i,
  input logic [tsr_pkg::TorusLinks*tsr_pkg::TorusPorts-1:0]    nb_done_i
);

  localparam int unsigned Ports = tsr_pkg::TorusPorts;
  localparam int unsigned Links = tsr_pkg::TorusLinks;
  localparam int unsigned LinkBits = tsr_pkg::TorusLinkBits;

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  logic [15:0] row, col, beta;
  logic [7:0]  tau;
  assign row  = $anyconst;
  assign col  = $anyconst;
  assign beta = $anyconst;
  assign tau  = $anyconst;
  always_comb assume (32'(row) < Rows && 32'(col) < Cols && beta >= 1 && beta <= 2 &&
                      tau >= 1 && tau <= 2);

  logic [Ports*LinkBits-1:0]        out;
  logic [Ports*2*CreditWidth-1:0]   credit_out;
  logic [Links*2*CreditWidth-1:0]   credit_in;
  logic [2*Links*CreditWidth-1:0]   used;
  logic [Links*16-1:0]              left;
  logic [Links*32-1:0]              nb_out;
  logic [Links*16-1:0]              nb_left;

  tsr_torus_node #(
    .Rows(Rows), .Cols(Cols), .Buffers(Buffers), .MaxBytes(MaxBytes), .Trees(Trees)
  ) dut (
    .clk_i,
    .rst_ni,
    .row_i        (row),
    .col_i        (col),
    .beta_i       (beta),
    .tau_i        (tau),
    .in_i,
    .inj_valid_i,
    .inj_hdr_i,
    .inj_data_i,
    .credit_o     (credit_out),
    .out_o        (out),
    .arrive_o     (),
    .arrive_hdr_o (),
    .wait_o       (),
    .wait_hdr_o   (),
    .wait_ports_o (),
    .credit_i     (credit_in),
    .tbl_we_i,
    .tbl_tree_i,
    .tbl_mask_i,
    .f_used_o     (used),
    .f_left_o     (left)
  );

  // Link l's far end: the input l ^ 1 of the neighbour in direction l.
  for (genvar gl = 0; gl < Links; gl++) begin : nb
    logic [15:0]         nrow, ncol;
    tsr_pkg::torus_hdr_t fill_hdr;
    logic [Ports-1:0]    route;
    logic [Links-1:0]    classes;
    assign nrow = gl == tsr_pkg::TorusSouth ? 16'((32'(row) + 1) % Rows)
                : gl == tsr_pkg::TorusNorth ? 16'((32'(row) + Rows - 1) % Rows) : row;
    assign ncol = gl == tsr_pkg::TorusEast ? 16'((32'(col) + 1) % Cols)
                : gl == tsr_pkg::TorusWest ? 16'((32'(col) + Cols - 1) % Cols) : col;

    tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(Trees)) i_route (
      .row_i (nrow), .col_i (ncol), .fwd_i ('0), .hdr_i (fill_hdr), .ports_o (route),
      .classes_o (classes)
    );

    tsr_torus_buffer #(
      .Rows(Rows), .Cols(Cols), .Port(gl ^ 1), .Buffers(Buffers), .MaxBytes(MaxBytes)
    ) i_buffer (
      .clk_i,
      .rst_ni,
      .row_i        (nrow),
      .col_i        (ncol),
      .link_i       (out[gl*LinkBits+:LinkBits]),
      .inj_valid_i  (1'b0),
      .inj_hdr_i    ('0),
      .inj_data_i   ('0),
      .fill_hdr_o   (fill_hdr),
      .route_i      (route),
      .classes_i    (classes),
      .room_i       (nb_room_i[gl*2*Links+:2*Links]),
      .want_o       (),
      .pick_o       (),
      .want_cls_o   (),
      .hdr_o        (),
      .rd_slot_i    (nb_slot_i[gl*Ports*SlotWidth+:Ports*SlotWidth]),
      .rd_byte_i    ('0),
      .rd_data_o    (),
      .done_i       (nb_done_i[gl*Ports+:Ports]),
      .credit_o     (credit_in[gl*2*CreditWidth+:2*CreditWidth]),
      .arrive_o     (),
      .arrive_hdr_o (),
      .owes_o       (),
      .owes_hdr_o   (),
      .owes_ports_o (),
      .f_out_o      (nb_out[gl*32+:32]),
      .f_left_o     (nb_left[gl*16+:16]),
      .f_owed_o     ()
    );
  end

  // The two ends of each link agree: the node's credits in use per class are the
  // neighbour's count of the node's buffers in use there, and the bytes the node has
  // still to send of a hop are those the neighbour still expects.
  logic [Links-1:0] ends;
  always_comb begin
    for (int l = 0; l < Links; l++) begin
      ends[l] = left[l*16+:16] != nb_left[l*16+:16];
      for (int k = 0; k < 2; k++) begin
        if (32'(used[(k*Links+l)*CreditWidth+:CreditWidth]) != 32'(nb_out[l*32+k*16+:16])) begin
          ends[l] = 1'b1;
        end
      end
    end
  end
  always_comb begin
    if (rst_ni) LinkEnds_A: assert (ends == '0);
  end

  // Against vacuity: every link sends at once, credits come back on a link as the node
  // frees a buffer of its own.
  logic [Links-1:0] sending;
  always_comb begin
    for (int l = 0; l < Links; l++) sending[l] = out[l*LinkBits+:LinkBits] != '0;
  end
  always_comb begin
    if (rst_ni) begin
      AllLinks_C: cover (sending == '1);
      CreditsBoth_C: cover (credit_in != '0 && credit_out != '0);
    end
  end

endmodule
