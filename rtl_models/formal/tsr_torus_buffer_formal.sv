// Formal harness of tsr_torus_buffer (scripts/formal.sh, docs/rtl.md "Formal
// properties"): the buffers of one input of a torus node, wired as tsr_torus_node wires
// them (a tsr_torus_route reads the header of the packet completing), with everything
// else free: the node's place in a 4 x 4 torus and its forwarding table (held from
// reset), the link or the interface's packets, the neighbours' room behind each output,
// and the outputs finishing packets. The environment's guarantees (`assumes=`) are the
// buffer's own input checks: lengths 1..MaxBytes, a link's header never with a byte, an
// output finishing only a packet owed to it (DoneOwed_A), and, in the buffer's `ifdef
// FORMAL block, whole packets on a link (LinkProtocol_A) and a sender kept to its credits
// per dateline class (SenderCredits_A). A reduced size (docs/rtl.md): three buffers (two
// of class 0, one of class 1) of at most two payload bytes, two forwarding entries.
//
// formal: rtl tsr_torus_buffer tsr_torus_route
// formal: property tsr_torus_buffer.credits k=2 Port=0
//   asserts=HeaderHasRoom_A,CreditsAgree_A,FillState_A,FullOwes_A
//   assumes=LinkProtocol_A,SenderCredits_A,DoneOwed_A,LengthInRange_A,HeaderBeforeBytes_A
//   -- a link input: a header always finds a free buffer of its dateline class, and the
//   sender's count of buffers in use per class equals the buffers of the class in use
//   here (no credit lost, made up or returned to the other class)
// formal: property tsr_torus_buffer.order k=2 Port=0
//   asserts=PickOldest_A,OrderKept_A,AgeOrder_A,ClassKept_A,HeaderHasRoom_A,CreditsAgree_A,FillState_A,FullOwes_A
//   assumes=LinkProtocol_A,SenderCredits_A,DoneOwed_A,LengthInRange_A,HeaderBeforeBytes_A
//   -- a link input: each output's pick is one buffer, the oldest that may go to it (the
//   neighbour has room in its class), so the packets of a source-destination pair or a
//   tree leave in the order they came; a stored packet keeps the classes its header
//   routes to
// formal: property tsr_torus_buffer.local k=2 Port=4
//   asserts=HeaderHasRoom_A,CreditsAgree_A,FillState_A,FullOwes_A,PickOldest_A,OrderKept_A,AgeOrder_A,ClassKept_A
//   assumes=LinkProtocol_A,SenderCredits_A,DoneOwed_A,LengthInRange_A,HeaderBeforeBytes_A
//   -- the local input (whole packets from the interface, stored and picked in the cycle
//   they come): credits and order as on a link input
// formal: cover tsr_torus_buffer.reach t=7 Port=0
//   assumes=LinkProtocol_A,SenderCredits_A,DoneOwed_A,LengthInRange_A,HeaderBeforeBytes_A
//   -- buffers of both classes freed at once, a class-1 packet picked, a packet that may
//   go to two links at once (a tree's fork), a packet delivered here as a buffer frees
module tsr_torus_buffer_formal #(
  parameter int unsigned Port = 0,
  localparam int unsigned Rows = 4,
  localparam int unsigned Cols = 4,
  localparam int unsigned Buffers = 3,
  localparam int unsigned MaxBytes = 2,
  localparam int unsigned Trees = 2,
  localparam int unsigned SlotWidth = tsr_pkg::idx_width(Buffers),
  localparam int unsigned ByteWidth = tsr_pkg::idx_width(MaxBytes),
  localparam int unsigned CreditWidth = tsr_pkg::cnt_width(Buffers)
) (
  input logic                                        clk_i,
  input logic                                        rst_ni,
  input logic [tsr_pkg::TorusLinkBits-1:0]           link_i,
  input logic                                        inj_valid_i,
  input logic [tsr_pkg::TorusHdrBits-1:0]            inj_hdr_i,
  input logic [MaxBytes*8-1:0]                       inj_data_i,
  input logic [2*tsr_pkg::TorusLinks-1:0]            room_i,
  input logic [tsr_pkg::TorusPorts*SlotWidth-1:0]    rd_slot_i,
  input logic [tsr_pkg::TorusPorts*ByteWidth-1:0]    rd_byte_i,
  input logic [tsr_pkg::TorusPorts-1:0]              done_i
);

  localparam int unsigned Ports = tsr_pkg::TorusPorts;
  localparam int unsigned Links = tsr_pkg::TorusLinks;

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // The node's place and its forwarding table, held.
  logic [15:0]            row, col;
  logic [Trees*Ports-1:0] fwd;
  assign row = $anyconst;
  assign col = $anyconst;
  assign fwd = $anyconst;
  always_comb assume (32'(row) < Rows && 32'(col) < Cols);

  tsr_pkg::torus_hdr_t     fill_hdr, route_hdr;
  logic [Ports-1:0]        route, want;
  logic [Links-1:0]        classes, want_cls;
  logic [Ports*Buffers-1:0] pick;
  logic [2*CreditWidth-1:0] credit;
  logic                    arrive;

  assign route_hdr = Port == tsr_pkg::TorusLocal ? inj_hdr_i : fill_hdr;

  tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(Trees)) i_route (
    .row_i (row), .col_i (col), .fwd_i (fwd), .hdr_i (route_hdr), .ports_o (route),
    .classes_o (classes)
  );

  tsr_torus_buffer #(
    .Rows(Rows), .Cols(Cols), .Port(Port), .Buffers(Buffers), .MaxBytes(MaxBytes)
  ) dut (
    .clk_i,
    .rst_ni,
    .row_i        (row),
    .col_i        (col),
    .link_i       (link_i),
    .inj_valid_i,
    .inj_hdr_i,
    .inj_data_i,
    .fill_hdr_o   (fill_hdr),
    .route_i      (route),
    .classes_i    (classes),
    .room_i,
    .want_o       (want),
    .pick_o       (pick),
    .want_cls_o   (want_cls),
    .hdr_o        (),
    .rd_slot_i,
    .rd_byte_i,
    .rd_data_o    (),
    .done_i,
    .credit_o     (credit),
    .arrive_o     (arrive),
    .arrive_hdr_o (),
    .owes_o       (),
    .owes_hdr_o   (),
    .owes_ports_o ()
  );

  // Against vacuity: buffers of both classes freed at once; a class-1 packet picked; two
  // links that may take a packet at once (a fork); a packet delivered as a buffer frees.
  always_comb begin
    if (rst_ni) begin
      BothFree_C: cover (credit[0+:CreditWidth] != '0 && credit[CreditWidth+:CreditWidth] != '0);
      ClassOne_C: cover (want_cls != '0);
      Fork_C: cover (!$onehot0(want & ~(Ports'(1) << tsr_pkg::TorusLocal)));
      Arrive_C: cover (arrive && credit != '0);
    end
  end

endmodule
